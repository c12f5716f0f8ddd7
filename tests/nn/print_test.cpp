// Printing models: the module tree in PyTorch's repr layout with each layer's settings, the
// summary's per-module parameter counts and totals, and a user's own extra_repr.
#include <gtest/gtest.h>

#include <sstream>

#include "accel/accel.h"

namespace accel::nn {
namespace {

struct NetImpl : Module {
  Sequential features{Conv2d(Conv2dOptions(1, 8, 3).padding(1)), BatchNorm2d(8), ReLU(),
                      MaxPool2d(2), Dropout(0.25)};
  Sequential head{Flatten(), Linear(8 * 14 * 14, 10), LogSoftmax(1)};
  NetImpl() {
    register_module("features", features);
    register_module("head", head);
  }
};
ACCEL_MODULE(Net);

template <typename M>
std::string printed(const M& module) {
  std::ostringstream out;
  out << module;
  return out.str();
}

TEST(ModulePrinting, ShowsTheTreeWithEachLayersSettings) {
  EXPECT_EQ(
      printed(Net()),
      "Net(\n"
      "  (features): Sequential(\n"
      "    (0): Conv2d(1, 8, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1])\n"
      "    (1): BatchNorm2d(8, eps=1e-05, momentum=0.1, affine=true, "
      "track_running_stats=true)\n"
      "    (2): ReLU()\n"
      "    (3): MaxPool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0], dilation=[1, 1], "
      "ceil_mode=false)\n"
      "    (4): Dropout(p=0.25)\n"
      "  )\n"
      "  (head): Sequential(\n"
      "    (0): Flatten(start_dim=1, end_dim=-1)\n"
      "    (1): Linear(in_features=1568, out_features=10, bias=true)\n"
      "    (2): LogSoftmax(dim=1)\n"
      "  )\n"
      ")");
}

TEST(ModulePrinting, LeafLayersShowTheirSettings) {
  EXPECT_EQ(printed(Linear(LinearOptions(3, 2).bias(false))),
            "Linear(in_features=3, out_features=2, bias=false)");
  EXPECT_EQ(printed(Conv1d(Conv1dOptions(4, 6, 5).stride(2).dilation(3).groups(2).bias(false))),
            "Conv1d(4, 6, kernel_size=[5], stride=[2], dilation=[3], groups=2, bias=false)");
  EXPECT_EQ(printed(Conv2d(Conv2dOptions(2, 2, {3, 5}).padding("same"))),
            "Conv2d(2, 2, kernel_size=[3, 5], stride=[1, 1], padding='same')");
  EXPECT_EQ(printed(ConvTranspose2d(ConvTranspose2dOptions(2, 3, 3).stride(2).output_padding(1))),
            "ConvTranspose2d(2, 3, kernel_size=[3, 3], stride=[2, 2], output_padding=[1, 1])");
  EXPECT_EQ(
      printed(Conv2d(Conv2dOptions(2, 2, 3).padding(1).padding_mode(ConvPaddingMode::Reflect))),
      "Conv2d(2, 2, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1], "
      "padding_mode='reflect')");
  EXPECT_EQ(printed(ConvTranspose1d(ConvTranspose1dOptions(2, 3, 3))),
            "ConvTranspose1d(2, 3, kernel_size=[3], stride=[1])");
  EXPECT_EQ(printed(Fold(FoldOptions({4, 5}, 2).stride(2))),
            "Fold(output_size=[4, 5], kernel_size=[2], dilation=[1], padding=[0], stride=[2])");
  EXPECT_EQ(printed(LayerNorm(std::vector<int64_t>{4, 5})),
            "LayerNorm([4, 5], eps=1e-05, elementwise_affine=true)");
  EXPECT_EQ(printed(GroupNorm(2, 4)), "GroupNorm(2, 4, eps=1e-05, affine=true)");
  EXPECT_EQ(printed(BatchNorm1d(BatchNormOptions(3).momentum(std::nullopt))),
            "BatchNorm1d(3, eps=1e-05, momentum=none, affine=true, track_running_stats=true)");
  EXPECT_EQ(printed(InstanceNorm2d(3)),
            "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=false, track_running_stats=false)");
  EXPECT_EQ(printed(RMSNorm(std::vector<int64_t>{4})),
            "RMSNorm([4], eps=none, elementwise_affine=true)");
  EXPECT_EQ(printed(LocalResponseNorm(3)), "LocalResponseNorm(3, alpha=0.0001, beta=0.75, k=1)");
  EXPECT_EQ(printed(Embedding(10, 3, 0)), "Embedding(10, 3, padding_idx=0)");
  EXPECT_EQ(printed(AvgPool2d(AvgPool2dOptions({2, 3}).stride(1))),
            "AvgPool2d(kernel_size=[2, 3], stride=[1, 1], padding=[0, 0], ceil_mode=false, "
            "count_include_pad=true)");
  EXPECT_EQ(printed(AdaptiveAvgPool2d({1})), "AdaptiveAvgPool2d(output_size=[1, 1])");
  EXPECT_EQ(printed(LeakyReLU(0.2)), "LeakyReLU(negative_slope=0.2)");
  EXPECT_EQ(printed(GELU("tanh")), "GELU(approximate='tanh')");
  EXPECT_EQ(printed(Softmax(-1)), "Softmax(dim=-1)");
  EXPECT_EQ(printed(Identity()), "Identity()");
  EXPECT_EQ(printed(Sequential()), "Sequential()");
}

struct ScaledImpl : Module {
  explicit ScaledImpl(double factor) : factor(factor) {}
  std::string extra_repr() const override { return fmt::format("factor={}", factor); }
  double factor;
};
ACCEL_MODULE(Scaled);

TEST(ModulePrinting, AUsersModuleShowsItsOwnSettings) {
  EXPECT_EQ(printed(Sequential(Scaled(0.5), ReLU())),
            "Sequential(\n  (0): Scaled(factor=0.5)\n  (1): ReLU()\n)");
}

TEST(ModuleSummary, CountsEveryModulesParametersAndTheTotals) {
  Net net;
  net->head->at<LinearImpl>(1)->bias.requires_grad_(false);
  EXPECT_EQ(summary(net),
            "module      type         parameters\n"
            "(model)     Net              15,786\n"
            "features    Sequential           96\n"
            "features.0  Conv2d               80\n"
            "features.1  BatchNorm2d          16\n"
            "features.2  ReLU                  0\n"
            "features.3  MaxPool2d             0\n"
            "features.4  Dropout               0\n"
            "head        Sequential       15,690\n"
            "head.0      Flatten               0\n"
            "head.1      Linear           15,690\n"
            "head.2      LogSoftmax            0\n"
            "15,786 parameters (15,776 trainable), 61.7 KiB\n");
  const ParameterCounts counts = count_parameters(*net);
  EXPECT_EQ(counts.total, 15786);
  EXPECT_EQ(counts.trainable, 15776);
}

TEST(ModuleSummary, GroupsThousands) {
  EXPECT_EQ(grouped_thousands(0), "0");
  EXPECT_EQ(grouped_thousands(999), "999");
  EXPECT_EQ(grouped_thousands(1000), "1,000");
  EXPECT_EQ(grouped_thousands(1234567), "1,234,567");
  EXPECT_EQ(grouped_thousands(-98765), "-98,765");
}

}  // namespace
}  // namespace accel::nn
