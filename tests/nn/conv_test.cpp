// Convolution tests: F::conv1d / conv2d / conv3d, the transposed ones and their layers
// (with every padding mode), F::unfold / F::fold and their layers against PyTorch
// fixtures (tests/reference/cases_nn_conv.py) through the op harness, default initialization,
// skipped input gradients, results independent of the thread count, and the errors for
// mis-shaped inputs and bad options.
#include <cmath>

#include "accel/nn/modules/fold.h"
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
    {"conv_transpose1d_basic",
     [](const V& x) {
       return layer_with<nn::ConvTranspose1d>(x, nn::ConvTranspose1dOptions(2, 3, 3));
     }},
    {"conv_transpose1d_strided_groups",
     [](const V& x) {
       return layer_with<nn::ConvTranspose1d>(x, nn::ConvTranspose1dOptions(4, 2, 3)
                                                     .stride(3)
                                                     .padding(1)
                                                     .output_padding(2)
                                                     .groups(2)
                                                     .dilation(2));
     }},
    {"conv_transpose1d_unbatched",
     [](const V& x) { return F::conv_transpose1d(x[0], x[1], x[2], 2); }},
    {"conv2d_reflect_padding",
     [](const V& x) {
       return layer_with<nn::Conv2d>(x, nn::Conv2dOptions(2, 3, 3).padding({1, 2}).padding_mode(
                                            nn::ConvPaddingMode::Reflect));
     }},
    {"conv2d_circular_same",
     [](const V& x) {
       return layer_with<nn::Conv2d>(x, nn::Conv2dOptions(2, 2, {2, 4})
                                            .padding("same")
                                            .padding_mode(nn::ConvPaddingMode::Circular));
     }},
    {"conv1d_replicate_padding",
     [](const V& x) {
       return layer_with<nn::Conv1d>(x,
                                     nn::Conv1dOptions(2, 3, 3).stride(2).padding(2).padding_mode(
                                         nn::ConvPaddingMode::Replicate));
     }},
    {"unfold_basic", [](const V& x) { return nn::Unfold(nn::UnfoldOptions(2))->forward(x[0]); }},
    {"unfold_all_options",
     [](const V& x) {
       return F::unfold(x[0], {2, 3}, {2, 1}, {1, 2}, {2, 3});
     }},
    {"unfold_unbatched", [](const V& x) { return F::unfold(x[0], 3, 1, 1); }},
    {"fold_basic",
     [](const V& x) {
       return nn::Fold(nn::FoldOptions({4, 5}, 2))->forward(x[0]);
     }},
    {"fold_all_options",
     [](const V& x) {
       return nn::Fold(
                  nn::FoldOptions({6, 7}, {2, 3}).dilation({2, 1}).padding({1, 2}).stride({2, 3}))
           ->forward(x[0]);
     }},
    {"fold_unbatched", [](const V& x) { return F::fold(x[0], 4, 2); }},
    {"conv3d_basic",
     [](const V& x) {
       return layer_with<nn::Conv3d>(x, nn::Conv3dOptions(2, 3, {2, 3, 3}));
     }},
    {"conv3d_stride_padding_dilation",
     [](const V& x) {
       return F::conv3d(x[0], x[1], x[2], {2, 1, 2}, {1, 2, 0}, {2, 1, 1});
     }},
    {"conv3d_groups_no_bias",
     [](const V& x) { return layer_with<nn::Conv3d>(x, nn::Conv3dOptions(4, 4, 2).groups(2)); }},
    {"conv3d_same_even", [](const V& x) { return F::conv3d(x[0], x[1], x[2], 1, "same"); }},
    {"conv3d_unbatched",
     [](const V& x) { return layer_with<nn::Conv3d>(x, nn::Conv3dOptions(2, 2, 3).padding(1)); }},
    {"conv3d_replicate_padding",
     [](const V& x) {
       return layer_with<nn::Conv3d>(
           x, nn::Conv3dOptions(2, 2, 3).padding(1).padding_mode(nn::ConvPaddingMode::Replicate));
     }},
    {"conv_transpose3d_basic",
     [](const V& x) {
       return layer_with<nn::ConvTranspose3d>(x, nn::ConvTranspose3dOptions(2, 3, 2));
     }},
    {"conv_transpose3d_strided",
     [](const V& x) {
       return layer_with<nn::ConvTranspose3d>(
           x, nn::ConvTranspose3dOptions(2, 2, 3).stride(2).padding(1).output_padding(1));
     }},
    {"conv_transpose3d_groups_dilation",
     [](const V& x) {
       return F::conv_transpose3d(x[0], x[1], {}, {2, 1, 1}, {0, 1, 0}, {1, 0, 1}, 2, {2, 1, 2});
     }},
    {"conv_transpose3d_unbatched",
     [](const V& x) { return F::conv_transpose3d(x[0], x[1], x[2], 2); }},
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

TEST(ConvTranspose1d, ChecksShapesAndNamesTheOp) {
  nn::ConvTranspose1d deconv(nn::ConvTranspose1dOptions(3, 2, 4).stride(2).padding(1));
  EXPECT_EQ(deconv->weight.sizes(), IntArrayRef({3, 2, 4}));
  EXPECT_EQ(deconv->forward(zeros({5, 3, 7})).sizes(), IntArrayRef({5, 2, 14}));
  EXPECT_EQ(deconv->forward(zeros({3, 7})).sizes(), IntArrayRef({2, 14}));
  expect_error_containing(
      [&] {
        deconv->forward(zeros({1, 2, 7}));
      },
      "ConvTranspose1d: expected input of shape [N, 3, L] or [3, L] (in_channels = 3)");
  expect_error_containing(
      [] {
        F::conv_transpose1d(zeros({1, 2, 3, 3}), zeros({2, 2, 3}));
      },
      "Expected 2D (unbatched) or 3D (batched) input to conv_transpose1d");
  expect_error_containing(
      [] {
        F::conv_transpose1d(zeros({1, 2, 3}), zeros({2, 2, 3, 3}));
      },
      "conv_transpose1d: expected 3-D weight");
  expect_error_containing(
      [] {
        nn::ConvTranspose1d(
            nn::ConvTranspose1dOptions(2, 2, 3).padding_mode(nn::ConvPaddingMode::Reflect));
      },
      "ConvTranspose1d: only padding_mode zeros is supported, got reflect");
}

TEST(Conv2d, PaddingModesPadBeforeAnUnpaddedConvolution) {
  // Replicate: a constant image stays constant at the borders too.
  nn::Conv2d conv(
      nn::Conv2dOptions(1, 1, 3).padding(1).padding_mode(nn::ConvPaddingMode::Replicate));
  const Tensor y = conv->forward(ones({1, 1, 4, 5}));
  EXPECT_EQ(y.sizes(), IntArrayRef({1, 1, 4, 5}));
  EXPECT_TRUE(allclose(y, full({1, 1, 4, 5}, (conv->weight.sum() + conv->bias).item<double>())));
  // Unbatched input, "valid" padding: nothing to pad.
  nn::Conv1d valid(
      nn::Conv1dOptions(2, 1, 3).padding("valid").padding_mode(nn::ConvPaddingMode::Circular));
  EXPECT_EQ(valid->forward(zeros({2, 6})).sizes(), IntArrayRef({1, 4}));
}

TEST(Conv3d, ChecksShapesAndNamesTheOp) {
  nn::Conv3d conv(nn::Conv3dOptions(2, 4, {1, 3, 3}).stride({1, 2, 2}).padding({0, 1, 1}));
  EXPECT_EQ(conv->weight.sizes(), IntArrayRef({4, 2, 1, 3, 3}));
  EXPECT_EQ(conv->forward(zeros({3, 2, 5, 8, 8})).sizes(), IntArrayRef({3, 4, 5, 4, 4}));
  EXPECT_EQ(conv->forward(zeros({2, 5, 8, 8})).sizes(), IntArrayRef({4, 5, 4, 4}));
  expect_error_containing(
      [&] {
        conv->forward(zeros({3, 3, 5, 8, 8}));
      },
      "Conv3d: expected input of shape [N, 2, D, H, W] or [2, D, H, W] (in_channels = 2), got "
      "[3, 3, 5, 8, 8]");
  expect_error_containing(
      [] {
        F::conv3d(zeros({1, 2, 5, 5}), zeros({2, 2, 3, 3}));
      },
      "conv3d: expected 5-D weight, got weight of size [2, 2, 3, 3]");
  expect_error_containing(
      [] {
        F::conv3d(zeros({1, 2, 5}), zeros({2, 2, 3, 3, 3}));
      },
      "Expected 4D (unbatched) or 5D (batched) input to conv3d, but got input of size: [1, 2, 5]");
  expect_error_containing(
      [] {
        F::conv3d(zeros({1, 3, 4, 4, 4}), zeros({2, 2, 3, 3, 3}));
      },
      "conv3d: Given groups=1, weight of size [2, 2, 3, 3, 3], expected input[1, 3, 4, 4, 4] to "
      "have 2 channels, but got 3 channels instead");
  expect_error_containing(
      [] {
        F::conv3d(zeros({1, 2, 2, 4, 4}), zeros({2, 2, 3, 3, 3}));
      },
      "conv3d: padded input size [2, 4, 4] is smaller than the dilated kernel size [3, 3, 3]");
  expect_error_containing(
      [] {
        F::conv3d(zeros({1, 2, 4, 4, 4}), zeros({2, 2, 3, 3, 3}), {}, {1, 2});
      },
      "conv3d: expected stride to hold 1 or 3 values, got [1, 2]");
  expect_error_containing(
      [] {
        F::conv3d(zeros({1, 2, 4, 4, 4}), zeros({2, 2, 3, 3, 3}), {}, 2, "same");
      },
      "conv3d: padding='same' is not supported for strided convolutions");
  expect_error_containing(
      [] {
        F::conv3d(zeros({1, 2, 4, 4, 4}), zeros({2, 2, 3, 3, 3}, kFloat64));
      },
      "conv3d: input, weight and bias must have the same dtype, got float32, float64");
}

TEST(ConvTranspose3d, ChecksShapesAndOutputPadding) {
  nn::ConvTranspose3d deconv(nn::ConvTranspose3dOptions(4, 2, 3).stride(2));
  EXPECT_EQ(deconv->weight.sizes(), IntArrayRef({4, 2, 3, 3, 3}));
  EXPECT_EQ(deconv->forward(zeros({1, 4, 2, 5, 5})).sizes(), IntArrayRef({1, 2, 5, 11, 11}));
  expect_error_containing(
      [&] {
        deconv->forward(zeros({1, 2, 5, 5, 5}));
      },
      "ConvTranspose3d: expected input of shape [N, 4, D, H, W] or [4, D, H, W] (in_channels = "
      "4), got [1, 2, 5, 5, 5]");
  expect_error_containing(
      [] {
        F::conv_transpose3d(zeros({1, 2, 3, 3, 3}), zeros({2, 2, 3, 3, 3}), {}, 1, 0, {1, 0, 0});
      },
      "conv_transpose3d: output padding must be smaller than either stride or dilation");
  expect_error_containing(
      [] {
        F::conv_transpose3d(zeros({1, 2, 1, 3, 3}), zeros({2, 2, 1, 3, 3}), {}, 1, 1);
      },
      "conv_transpose3d: computed output size [-1, 3, 3] is too small");
}

// A kernel of depth 1 applies the same 2-D convolution to every depth plane.
TEST(Conv3d, UnitDepthKernelIsConv2dOnEveryPlane) {
  manual_seed(5);
  const Tensor x = randn({2, 3, 4, 6, 5}, kFloat64), w = randn({4, 3, 1, 3, 3}, kFloat64);
  const Tensor b = randn({4}, kFloat64);
  const Tensor out = F::conv3d(x, w, b, {1, 2, 1}, {0, 1, 1});
  for (int64_t d = 0; d < 4; ++d) {
    const Tensor plane = F::conv2d(x.select(2, d), w.select(2, 0), b, {2, 1}, {1, 1});
    EXPECT_TRUE(allclose(out.select(2, d), plane)) << "depth " << d;
  }
  // The transposed convolution is the adjoint: <conv3d(x), y> = <x, conv_transpose3d(y)>.
  const Tensor w3 = randn({4, 3, 3, 2, 3}, kFloat64);
  const Tensor y = F::conv3d(x, w3, {}, 2, 1);
  const Tensor probe = randn(y.sizes(), kFloat64);
  const Tensor back = F::conv_transpose3d(probe, w3, {}, 2, 1, {1, 0, 0});
  ASSERT_EQ(back.sizes(), x.sizes());
  EXPECT_NEAR((y * probe).sum().item<double>(), (x * back).sum().item<double>(), 1e-9);
}

// unfold is what a convolution multiplies its weight into, and fold sums overlapping blocks.
TEST(UnfoldFold, UnfoldTimesWeightIsConv2dAndFoldCountsOverlaps) {
  manual_seed(4);
  const Tensor x = randn({2, 3, 6, 5}, kFloat64), w = randn({4, 3, 3, 2}, kFloat64);
  const Tensor blocks = F::unfold(x, {3, 2}, 1, 1, 2);  // [2, 18, L]
  const Tensor conv = F::conv2d(x, w, {}, 2, 1);
  EXPECT_TRUE(allclose(matmul(w.view({4, 18}), blocks).view(conv.sizes()), conv));
  // Every pixel of a 4x4 image lies in (number of 2x2 blocks covering it) blocks.
  const Tensor counts = F::fold(F::unfold(ones({1, 1, 4, 4}), 2), 4, 2);
  const Tensor expected = tensor({1.0f, 2.0f, 2.0f, 1.0f, 2.0f, 4.0f, 4.0f, 2.0f, 2.0f, 4.0f, 4.0f,
                                  2.0f, 1.0f, 2.0f, 2.0f, 1.0f})
                              .view({1, 1, 4, 4});
  EXPECT_TRUE(equal(counts, expected));
  EXPECT_EQ(F::unfold(ones({1, 2, 4, 4}, kBFloat16), 2).dtype(), kBFloat16);
}

TEST(UnfoldFold, ErrorsNameTheOpAndSizes) {
  expect_error_containing(
      [] {
        F::unfold(zeros({2, 3}), 2);
      },
      "unfold: expected input of shape [N, C, H, W] or [C, H, W], got [2, 3]");
  expect_error_containing(
      [] {
        F::unfold(zeros({1, 1, 2, 2}), 3);
      },
      "unfold: the padded image size 2x2 is smaller than the dilated kernel "
      "size 3x3");
  expect_error_containing(
      [] {
        F::unfold(zeros({1, 1, 4, 4}), 2, 1, 0, 0);
      },
      "stride must be positive");
  expect_error_containing(
      [] {
        F::fold(zeros({1, 7, 9}), 4, 2);
      },
      "fold: expected input's dim 1 (size 7) to be divisible by the product "
      "of kernel_size [2, 2]");
  expect_error_containing(
      [] {
        F::fold(zeros({1, 8, 8}), 4, 2);
      },
      "fold: expected input's dim 2 to hold the 3 x 3 = 9 sliding blocks of "
      "output_size [4, 4], got 8");
  expect_error_containing(
      [] {
        F::fold(zeros({1, 8, 9}), {4, 4, 4}, 2);
      },
      "fold: expected output_size to hold 1 or 2 values");
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

// Direct loops for one convolution, its input gradient and its weight gradient (float64,
// contiguous tensors, one group).
struct DirectConv {
  int64_t stride, pad, dilation;
  // Calls f(n, o, y, x, c, iy, ix, kh, kw) for every product term that reads the input.
  template <typename F>
  void for_each_term(IntArrayRef in, IntArrayRef w, IntArrayRef out, F&& f) const {
    for (int64_t n = 0; n < in[0]; ++n)
      for (int64_t o = 0; o < w[0]; ++o)
        for (int64_t y = 0; y < out[2]; ++y)
          for (int64_t x = 0; x < out[3]; ++x)
            for (int64_t c = 0; c < w[1]; ++c)
              for (int64_t kh = 0; kh < w[2]; ++kh)
                for (int64_t kw = 0; kw < w[3]; ++kw) {
                  const int64_t iy = y * stride - pad + kh * dilation;
                  const int64_t ix = x * stride - pad + kw * dilation;
                  if (iy >= 0 && iy < in[2] && ix >= 0 && ix < in[3])
                    f(n, o, y, x, c, iy, ix, kh, kw);
                }
  }
};

// Layers large enough for every blocking path of the CPU kernels (depths over one block,
// partial row and column panels) against direct loops: unit stride (whose input gradient is
// computed as a convolution, also with padding wider than the kernel's reach) and stride 2
// (whose input gradient folds columns back).
TEST(Conv2d, LargeLayersMatchDirectLoops) {
  struct Layer {
    int64_t channels, out_channels, size, kernel, stride, pad, dilation;
  };
  for (const Layer& l : {Layer{16, 12, 13, 3, 1, 1, 1}, Layer{5, 20, 12, 2, 1, 3, 1},
                         Layer{16, 9, 11, 3, 2, 1, 1}, Layer{6, 7, 12, 3, 1, 2, 2}}) {
    manual_seed(5);
    const Tensor x = randn({2, l.channels, l.size, l.size}, kFloat64).requires_grad_(true);
    const Tensor w =
        randn({l.out_channels, l.channels, l.kernel, l.kernel}, kFloat64).requires_grad_(true);
    const Tensor b = randn({l.out_channels}, kFloat64);
    const Tensor out = F::conv2d(x, w, b, l.stride, l.pad, l.dilation);
    const Tensor grad = randn(out.sizes(), kFloat64);
    out.backward(grad);

    Tensor expected_out = b.view({1, -1, 1, 1}).expand(out.sizes()).contiguous();
    Tensor expected_x = zeros_like(x), expected_w = zeros_like(w);
    const auto at = [](const Tensor& t, int64_t i, int64_t j, int64_t k, int64_t m) -> double& {
      return t.data_ptr<double>()[((i * t.size(1) + j) * t.size(2) + k) * t.size(3) + m];
    };
    DirectConv{l.stride, l.pad, l.dilation}.for_each_term(
        x.sizes(), w.sizes(), out.sizes(),
        [&](int64_t n, int64_t o, int64_t y, int64_t xo, int64_t c, int64_t iy, int64_t ix,
            int64_t kh, int64_t kw) {
          at(expected_out, n, o, y, xo) += at(w, o, c, kh, kw) * at(x, n, c, iy, ix);
          at(expected_x, n, c, iy, ix) += at(grad, n, o, y, xo) * at(w, o, c, kh, kw);
          at(expected_w, o, c, kh, kw) += at(grad, n, o, y, xo) * at(x, n, c, iy, ix);
        });
    EXPECT_TRUE(out.detach().allclose(expected_out, 1e-12, 1e-12)) << l.channels;
    EXPECT_TRUE(x.grad().allclose(expected_x, 1e-12, 1e-12)) << l.channels;
    EXPECT_TRUE(w.grad().allclose(expected_w, 1e-12, 1e-12)) << l.channels;
  }
}

}  // namespace
}  // namespace accel
