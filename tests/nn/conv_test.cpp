// Convolution tests: F::conv1d / conv2d / conv_transpose2d and their layers against PyTorch
// fixtures (tests/reference/cases_nn_conv.py) through the op harness, default initialization,
// skipped input gradients, results independent of the thread count, and the errors for
// mis-shaped inputs and bad options.
#include <cmath>

#include "support/expect_error.h"
#include "support/op_harness.h"
#include "support/thread_count.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;

// The weight (and bias, when the case has one) of a freshly built layer replaced by the
// case's inputs, so the harness sees their gradients.
template <typename Layer, typename Options>
Tensor layer_with(const V& x, Options options) {
  const bool has_bias = x.size() == 3;
  Layer layer(options.bias(has_bias));
  layer->weight = x[1];
  if (has_bias) layer->bias = x[2];
  return layer->forward(x[0]);
}

Tensor bias_of(const V& x) { return x.size() == 3 ? x[2] : Tensor(); }

const std::vector<OpCase> kConvCases = {
    {"conv2d_basic", [](const V& x) { return F::conv2d(x[0], x[1], x[2]); }},
    {"conv2d_stride_padding",
     [](const V& x) {
       return layer_with<nn::Conv2d>(x, nn::Conv2dOptions(2, 3, 3).stride(2).padding(1));
     }},
    {"conv2d_asymmetric",
     [](const V& x) {
       return F::conv2d(x[0], x[1], x[2], {1, 2}, {2, 1});
     }},
    {"conv2d_dilation", [](const V& x) { return F::conv2d(x[0], x[1], x[2], 1, 1, 2); }},
    {"conv2d_groups",
     [](const V& x) { return layer_with<nn::Conv2d>(x, nn::Conv2dOptions(4, 6, 2).groups(2)); }},
    {"conv2d_depthwise",
     [](const V& x) {
       return layer_with<nn::Conv2d>(x, nn::Conv2dOptions(3, 3, 3).padding(1).groups(3));
     }},
    {"conv2d_no_bias",
     [](const V& x) { return layer_with<nn::Conv2d>(x, nn::Conv2dOptions(3, 2, 2).stride(2)); }},
    {"conv2d_same_even",
     [](const V& x) {
       return layer_with<nn::Conv2d>(x, nn::Conv2dOptions(2, 2, {4, 2}).padding("same"));
     }},
    {"conv2d_same_dilated", [](const V& x) { return F::conv2d(x[0], x[1], {}, 1, "same", 2); }},
    {"conv2d_valid", [](const V& x) { return F::conv2d(x[0], x[1], {}, 1, "valid"); }},
    {"conv2d_unbatched",
     [](const V& x) { return layer_with<nn::Conv2d>(x, nn::Conv2dOptions(2, 2, 3).padding(1)); }},
    {"conv2d_odd_sizes",
     [](const V& x) {
       return F::conv2d(x[0], x[1], x[2], {3, 2}, {1, 2}, {2, 1});
     }},
    {"conv1d_basic",
     [](const V& x) { return layer_with<nn::Conv1d>(x, nn::Conv1dOptions(3, 4, 3)); }},
    {"conv1d_stride_padding_dilation",
     [](const V& x) { return F::conv1d(x[0], x[1], bias_of(x), 2, 2, 2); }},
    {"conv1d_groups_no_bias",
     [](const V& x) { return layer_with<nn::Conv1d>(x, nn::Conv1dOptions(4, 4, 2).groups(2)); }},
    {"conv1d_same_even", [](const V& x) { return F::conv1d(x[0], x[1], x[2], 1, "same"); }},
    {"conv_transpose2d_basic",
     [](const V& x) {
       return layer_with<nn::ConvTranspose2d>(x, nn::ConvTranspose2dOptions(2, 3, 2));
     }},
    {"conv_transpose2d_strided",
     [](const V& x) {
       return layer_with<nn::ConvTranspose2d>(
           x, nn::ConvTranspose2dOptions(2, 2, 3).stride(2).padding(1).output_padding(1));
     }},
    {"conv_transpose2d_groups_dilation",
     [](const V& x) {
       return F::conv_transpose2d(x[0], x[1], {}, {2, 1}, {0, 1}, 0, 2, {1, 2});
     }},
    {"conv_transpose2d_unbatched",
     [](const V& x) { return F::conv_transpose2d(x[0], x[1], x[2], 2); }},
};

ACCEL_OP_TEST_SUITE(NnConv, "ops_nn_conv.json", kConvCases);

using testing::expect_error_containing;

TEST(Conv2d, ChannelMismatchNamesLayerAndShapes) {
  nn::Conv2d conv(nn::Conv2dOptions(1, 32, 3).padding(1));
  expect_error_containing(
      [&] {
        conv->forward(zeros({64, 3, 28, 28}));
      },
      "Conv2d: expected input of shape [N, 1, H, W] or [1, H, W] "
      "(in_channels = 1), got [64, 3, 28, 28]");
  expect_error_containing([&] { conv->forward(zeros({64, 28, 28, 1, 1})); }, "[64, 28, 28, 1, 1]");
}

TEST(Conv2d, FunctionalErrorsNameTheProblem) {
  expect_error_containing(
      [] {
        F::conv2d(zeros({1, 3, 5, 5}), zeros({2, 2, 3, 3}));
      },
      "conv2d: Given groups=1, weight of size [2, 2, 3, 3], expected "
      "input[1, 3, 5, 5] to have 2 channels, but got 3 channels instead");
  expect_error_containing(
      [] {
        F::conv2d(zeros({1, 2, 5, 5}), zeros({2, 2, 3, 3}), {}, 2, "same");
      },
      "padding='same' is not supported for strided convolutions");
  expect_error_containing(
      [] {
        F::conv2d(zeros({1, 2, 5, 5}), zeros({2, 2, 3, 3}), {}, 1, "full");
      },
      "invalid padding string 'full'");
  expect_error_containing(
      [] {
        F::conv2d(zeros({1, 2, 2, 2}), zeros({2, 2, 3, 3}));
      },
      "smaller than the dilated kernel size 3x3");
  expect_error_containing(
      [] {
        F::conv1d(zeros({1, 2, 5, 5}), zeros({2, 2, 3}));
      },
      "Expected 2D (unbatched) or 3D (batched) input to conv1d");
  expect_error_containing([] { nn::Conv2d(nn::Conv2dOptions(3, 4, 3).groups(2)); },
                          "must be divisible by groups");
}

TEST(ConvTranspose2d, ChecksChannelsAndOutputPadding) {
  nn::ConvTranspose2d deconv(nn::ConvTranspose2dOptions(4, 2, 3).stride(2));
  EXPECT_EQ(deconv->weight.sizes(), IntArrayRef({4, 2, 3, 3}));
  EXPECT_EQ(deconv->forward(zeros({1, 4, 5, 5})).sizes(), IntArrayRef({1, 2, 11, 11}));
  expect_error_containing(
      [&] {
        deconv->forward(zeros({1, 2, 5, 5}));
      },
      "ConvTranspose2d: expected input of shape [N, 4, H, W] or [4, H, W] "
      "(in_channels = 4), got [1, 2, 5, 5]");
  expect_error_containing(
      [] {
        F::conv_transpose2d(zeros({1, 2, 3, 3}), zeros({2, 2, 3, 3}), {}, 1, 0, 1);
      },
      "output padding must be smaller than either stride or dilation");
}

TEST(Conv2d, DefaultInitMatchesPyTorchBounds) {
  manual_seed(0);
  nn::Conv2d conv(nn::Conv2dOptions(8, 16, {3, 5}).groups(2));
  EXPECT_EQ(conv->weight.sizes(), IntArrayRef({16, 4, 3, 5}));
  // kaiming_uniform_(a = sqrt(5)) gives bound 1/sqrt(fan_in), fan_in = 4 * 3 * 5.
  const double bound = 1.0 / std::sqrt(60.0);
  for (const Tensor& t : {conv->weight, conv->bias}) {
    EXPECT_LE(t.abs().max().item<double>(), bound);
    EXPECT_GT(t.abs().max().item<double>(), 0.8 * bound);
  }
  EXPECT_FALSE(nn::Conv1d(nn::Conv1dOptions(2, 3, 3).bias(false))->bias.defined());
}

TEST(Conv2d, AutocastRunsInBFloat16WithFloat32Gradients) {
  nn::Conv2d conv(nn::Conv2dOptions(2, 3, 3).padding(1));
  Tensor x = randn({2, 2, 5, 5});
  Tensor y;
  {
    AutocastGuard autocast(kCPU, kBFloat16);
    y = conv->forward(x);
  }
  EXPECT_EQ(y.dtype(), kBFloat16);
  EXPECT_TRUE(allclose(y.to(kFloat32), conv->forward(x), 0.05, 0.05));
  y.to(kFloat32).sum().backward();
  EXPECT_EQ(conv->weight.grad().dtype(), kFloat32);
}

TEST(Conv2d, SkipsGradientsNobodyAsksFor) {
  Tensor x = randn({2, 1, 6, 6});
  nn::Conv2d conv(nn::Conv2dOptions(1, 4, 3).padding(1));
  conv->forward(x).sum().backward();
  EXPECT_FALSE(x.grad().defined());
  EXPECT_TRUE(conv->weight.grad().defined());
  EXPECT_TRUE(conv->bias.grad().defined());
}

// The CPU convolves one image at a time and sums the weight gradient over runs of images fixed
// by the machine: outputs and gradients are the same bits at any thread count.
TEST(Conv2d, ResultsDoNotDependOnTheThreadCount) {
  manual_seed(3);
  const Tensor input = randn({7, 3, 9, 8});
  nn::Conv2d conv(nn::Conv2dOptions(3, 5, 3).padding(1).stride(2));
  const Tensor grad = randn({7, 5, 5, 4});
  const auto run = [&](int threads) {
    testing::ThreadCount scope(threads);
    conv->zero_grad(true);
    const Tensor x = input.clone().requires_grad_(true);
    const Tensor out = conv->forward(x);
    out.backward(grad);
    return std::vector<Tensor>{out.detach(), x.grad(), conv->weight.grad(), conv->bias.grad()};
  };
  const std::vector<Tensor> one = run(1), two = run(2);
  for (size_t i = 0; i < one.size(); ++i) EXPECT_TRUE(one[i].equal(two[i])) << i;
}

}  // namespace
}  // namespace accel
