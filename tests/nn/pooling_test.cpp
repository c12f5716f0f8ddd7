// Pooling tests: 1-D, 2-D and 3-D max, average and adaptive pooling against PyTorch fixtures
// (tests/reference/cases_nn_pooling.py) through the op harness and the nn layers, the argmax
// indices, ties, NaN propagation, windows with no tap inside the input, default strides and
// argument errors.
#include "accel/core/pooling.h"

#include <cmath>

#include "accel/nn/functional/pooling.h"
#include "accel/nn/modules/lp_pool.h"
#include "accel/nn/modules/max_unpool.h"
#include "accel/nn/modules/pooling.h"
#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;

const std::vector<OpCase> kPoolingCases = {
    {"max_pool2d_basic", [](const V& x) { return nn::MaxPool2d(2)->forward(x[0]); }},
    {"max_pool2d_stride_pad",
     [](const V& x) {
       return nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2).padding(1))->forward(x[0]);
     }},
    {"max_pool2d_overlap", [](const V& x) { return F::max_pool2d(x[0], 3, 1); }},
    {"max_pool2d_dilation", [](const V& x) { return F::max_pool2d(x[0], 2, 1, 0, 2); }},
    {"max_pool2d_dilation_pad", [](const V& x) { return F::max_pool2d(x[0], 3, 2, 1, 2); }},
    {"max_pool2d_ceil",
     [](const V& x) {
       return nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2).ceil_mode(true))->forward(x[0]);
     }},
    {"max_pool2d_ceil_pad", [](const V& x) { return F::max_pool2d(x[0], 2, 2, 1, 1, true); }},
    {"max_pool2d_rect",
     [](const V& x) {
       return F::max_pool2d(x[0], {2, 3}, {1, 2}, {1, 0});
     }},
    {"max_pool2d_unbatched", [](const V& x) { return F::max_pool2d(x[0], 2); }},
    {"avg_pool2d_basic", [](const V& x) { return nn::AvgPool2d(2)->forward(x[0]); }},
    {"avg_pool2d_pad_include", [](const V& x) { return F::avg_pool2d(x[0], 3, 2, 1); }},
    {"avg_pool2d_pad_exclude",
     [](const V& x) {
       return nn::AvgPool2d(nn::AvgPool2dOptions(3).stride(2).padding(1).count_include_pad(false))
           ->forward(x[0]);
     }},
    {"avg_pool2d_ceil", [](const V& x) { return F::avg_pool2d(x[0], 3, 2, 0, true); }},
    {"avg_pool2d_ceil_pad_include", [](const V& x) { return F::avg_pool2d(x[0], 2, 2, 1, true); }},
    {"avg_pool2d_ceil_pad_exclude",
     [](const V& x) { return F::avg_pool2d(x[0], 2, 2, 1, true, false); }},
    {"avg_pool2d_rect",
     [](const V& x) {
       return F::avg_pool2d(x[0], {3, 2}, {1, 2}, {1, 1});
     }},
    {"adaptive_avg_pool2d",
     [](const V& x) {
       return nn::AdaptiveAvgPool2d(std::vector<int64_t>{3, 2})->forward(x[0]);
     }},
    {"adaptive_avg_pool2d_global", [](const V& x) { return F::adaptive_avg_pool2d(x[0], 1); }},
    {"adaptive_avg_pool2d_grow",
     [](const V& x) {
       return F::adaptive_avg_pool2d(x[0], {5, 4});
     }},
    {"adaptive_avg_pool2d_unbatched", [](const V& x) { return F::adaptive_avg_pool2d(x[0], 2); }},
    {"max_pool1d",
     [](const V& x) {
       return nn::MaxPool1d(nn::MaxPool1dOptions(3).stride(2).padding(1))->forward(x[0]);
     }},
    {"max_pool1d_dilation_ceil_unbatched",
     [](const V& x) {
       return F::max_pool1d(x[0],
                            {.kernel_size = 2, .stride = 2, .dilation = 2, .ceil_mode = true});
     }},
    {"avg_pool1d",
     [](const V& x) {
       return nn::AvgPool1d(nn::AvgPool1dOptions(3).stride(2).padding(1).count_include_pad(false))
           ->forward(x[0]);
     }},
    {"avg_pool1d_ceil",
     [](const V& x) { return F::avg_pool1d(x[0], {.kernel_size = 2, .ceil_mode = true}); }},
    {"adaptive_avg_pool1d", [](const V& x) { return nn::AdaptiveAvgPool1d(3)->forward(x[0]); }},
    {"adaptive_max_pool1d", [](const V& x) { return nn::AdaptiveMaxPool1d(4)->forward(x[0]); }},
    {"adaptive_max_pool2d",
     [](const V& x) {
       return nn::AdaptiveMaxPool2d(std::vector<int64_t>{3, 2})->forward(x[0]);
     }},
    {"adaptive_max_pool2d_grow_unbatched",
     [](const V& x) {
       return F::adaptive_max_pool2d(x[0], {5, 4});
     }},
    {"max_pool3d_basic", [](const V& x) { return nn::MaxPool3d(2)->forward(x[0]); }},
    {"max_pool3d_stride_pad_dilation",
     [](const V& x) {
       return nn::MaxPool3d(
                  nn::MaxPool3dOptions({3, 2, 2}).stride({2, 1, 2}).padding({1, 1, 0}).dilation(
                      {1, 2, 1}))
           ->forward(x[0]);
     }},
    {"max_pool3d_ceil_unbatched", [](const V& x) { return F::max_pool3d(x[0], 2, 2, 1, 1, true); }},
    {"avg_pool3d_basic", [](const V& x) { return nn::AvgPool3d(2)->forward(x[0]); }},
    {"avg_pool3d_pad_exclude",
     [](const V& x) {
       return nn::AvgPool3d(nn::AvgPool3dOptions(3).stride(2).padding(1).count_include_pad(false))
           ->forward(x[0]);
     }},
    {"avg_pool3d_ceil_pad_include",
     [](const V& x) {
       return F::avg_pool3d(x[0], {2, 3, 2}, 2, {1, 1, 0}, true);
     }},
    {"adaptive_avg_pool3d",
     [](const V& x) {
       return nn::AdaptiveAvgPool3d(std::vector<int64_t>{2, 3, 2})->forward(x[0]);
     }},
    {"adaptive_avg_pool3d_grow_unbatched",
     [](const V& x) {
       return F::adaptive_avg_pool3d(x[0], {4, 2, 3});
     }},
    {"adaptive_max_pool3d",
     [](const V& x) {
       return nn::AdaptiveMaxPool3d(std::vector<int64_t>{2, 3, 2})->forward(x[0]);
     }},
    {"max_unpool1d",
     [](const V& x) {
       auto [pooled, indices] = nn::MaxPool1d(nn::MaxPool1dOptions(2))->forward_with_indices(x[0]);
       return nn::MaxUnpool1d(2)->forward(pooled, indices);
     }},
    {"max_unpool2d_stride_pad_size",
     [](const V& x) {
       auto [pooled, indices] = F::max_pool2d_with_indices(x[0], 2, 2, 1);
       return nn::MaxUnpool2d(nn::MaxUnpool2dOptions(2).stride(2).padding(1))
           ->forward(pooled, indices, {6, 7});
     }},
    {"max_unpool3d_unbatched",
     [](const V& x) {
       auto [pooled, indices] = F::max_pool3d_with_indices(x[0], 2);
       return F::max_unpool3d(pooled, indices, 2);
     }},
    {"lp_pool1d",
     [](const V& x) { return nn::LPPool1d(nn::LPPool1dOptions(2, 3).stride(2))->forward(x[0]); }},
    {"lp_pool2d_ceil",
     [](const V& x) {
       return F::lp_pool2d(x[0], 3, {2, 3}, {}, true);
     }},
    {"lp_pool3d",
     [](const V& x) {
       return nn::LPPool3d(nn::LPPool3dOptions(1.5, 2).stride({1, 2, 2}))->forward(x[0]);
     }},
};

ACCEL_OP_TEST_SUITE(NnPooling, "ops_nn_pooling.json", kPoolingCases);

Tensor iota(IntArrayRef sizes) {
  return arange(static_cast<double>(product(sizes)), kFloat64).reshape(sizes);
}

TEST(MaxPool2d, IndicesAreFlatPositionsWithinEachPlane) {
  // Each 2x2 window's maximum is its bottom-right element.
  const auto [out, indices] = nn::MaxPool2d(2)->forward_with_indices(iota({1, 2, 4, 4}));
  EXPECT_EQ(indices.dtype(), kInt64);
  EXPECT_EQ(indices.sizes(), IntArrayRef({1, 2, 2, 2}));
  const std::vector<int64_t> expected = {5, 7, 13, 15, 5, 7, 13, 15};
  for (int64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(indices.reshape({-1})[i].item<int64_t>(), expected[static_cast<size_t>(i)]);
    EXPECT_EQ(out.reshape({-1})[i].item<double>(),
              static_cast<double>(expected[i % 4] + 16 * (i / 4)));
  }
}

// The 2x2 windows' winner by the rule applied literally: taps row by row, a later tap taking
// over when strictly greater or NaN.
std::pair<double, int64_t> reference_2x2_winner(const Tensor& plane, int64_t oh, int64_t ow) {
  const int64_t width = plane.size(1);
  double best = 0;
  int64_t best_index = -1;
  for (int64_t h = 2 * oh; h < 2 * oh + 2; ++h) {
    for (int64_t w = 2 * ow; w < 2 * ow + 2; ++w) {
      const double v = plane[h][w].item<double>();
      if (best_index < 0 || v > best || std::isnan(v)) {
        best = v;
        best_index = h * width + w;
      }
    }
  }
  return {best, best_index};
}

TEST(MaxPool2d, TwoByTwoWindowsFollowTheTapOrderRuleOnTiesAndNans) {
  manual_seed(3);
  for (const ScalarType dtype : {kFloat32, kFloat64}) {
    for (const int64_t width : {8, 7}) {  // an odd width leaves a column outside every window
      // Values 0..2: most windows hold ties. Plane 1 gets NaNs, two of them in one window.
      Tensor x = randint(3, {2, 3, 6, width}).to(dtype);
      x[0][1][0][1].fill_(std::nan(""));
      x[0][1][1][0].fill_(std::nan(""));
      x[0][1][4][5].fill_(std::nan(""));
      const auto [out, indices] = max_pool2d_with_indices(x, {2});
      for (int64_t p = 0; p < 6; ++p) {
        const Tensor plane = x[p / 3][p % 3];
        for (int64_t oh = 0; oh < 3; ++oh) {
          for (int64_t ow = 0; ow < width / 2; ++ow) {
            const auto [value, index] = reference_2x2_winner(plane, oh, ow);
            const double got = out[p / 3][p % 3][oh][ow].item<double>();
            EXPECT_TRUE(got == value || (std::isnan(got) && std::isnan(value)))
                << dtype << " width " << width << " plane " << p << " at " << oh << "," << ow;
            EXPECT_EQ(indices[p / 3][p % 3][oh][ow].item<int64_t>(), index)
                << dtype << " width " << width << " plane " << p << " at " << oh << "," << ow;
          }
        }
      }
    }
  }
}

// The gradient of a plain 2x2 pooling lands on each window's winner only, ties included, and
// the row and column that no window covers (odd sizes) get zero.
TEST(MaxPool2d, TwoByTwoGradientReachesEachWindowsWinnerOnly) {
  manual_seed(4);
  for (const ScalarType dtype : {kFloat32, kFloat64}) {
    Tensor x = randint(3, {2, 3, 7, 5}).to(dtype).requires_grad_(true);
    const auto [out, indices] = max_pool2d_with_indices(x, {2});
    const Tensor grad = randn(out.sizes()).to(dtype);
    out.backward(grad);
    Tensor expected = zeros({6, 35}, kFloat64);
    const Tensor flat_indices = indices.reshape({6, -1}), flat_grad = grad.reshape({6, -1});
    for (int64_t p = 0; p < 6; ++p) {
      for (int64_t o = 0; o < flat_indices.size(1); ++o) {
        expected[p][flat_indices[p][o].item<int64_t>()].fill_(flat_grad[p][o].item<double>());
      }
    }
    EXPECT_TRUE(x.grad().to(kFloat64).equal(expected.view({2, 3, 7, 5}))) << dtype;
  }
}

TEST(MaxPool2d, NanWinsItsWindow) {
  Tensor x = iota({1, 1, 2, 2});
  x.view({-1})[1].fill_(std::nan(""));
  EXPECT_TRUE(std::isnan(F::max_pool2d(x, 2).item<double>()));
}

TEST(Pooling, ArgumentErrorsNameTheOpAndValues) {
  const Tensor x = zeros({1, 1, 5, 5});
  expect_error_containing([&] { F::max_pool2d(x, 3, 1, 2); }, "pad=2, kernel_size=3");
  expect_error_containing([&] { F::avg_pool2d(x, 3, 1, 2); }, "avg_pool2d");
  expect_error_containing([&] { F::max_pool2d(zeros({1, 1, 2, 2}), 3); }, "too small");
  expect_error_containing([&] { F::max_pool2d(zeros({5, 5}), 2); }, "[5, 5]");
  expect_error_containing([&] { F::max_pool2d(x, 0); }, "kernel_size must be positive");
  expect_error_containing([&] { F::max_pool2d(x, {1, 2, 3}); }, "kernel_size");
  expect_error_containing([&] { F::adaptive_avg_pool2d(x, 0); }, "output_size");
  expect_error_containing([&] { F::avg_pool2d(zeros({1, 1, 4, 4}, kInt64), 2); }, "got int64");
}

// PyTorch's pool2d_shape_check: padding at most kernel_size / 2 along each dim, whatever the
// dilation (the rule on the effective kernel size above lets more through). Without it, a
// [1, 1, 1, 1] input pooled with kernel 2, dilation 3 and padding 2 had two windows with no tap
// inside the input, and the gradient of the second was written past the one-element plane.
TEST(Pooling, PaddingIsAtMostHalfTheKernelSize) {
  const std::string rule = "pad should be smaller than or equal to half of kernel size";
  const Tensor one = zeros({1, 1, 1, 1}, TensorOptions(kFloat32).requires_grad(true));
  expect_error_containing([&] { F::max_pool2d(one, 2, 1, 2, 3).sum().backward(); }, rule);
  expect_error_containing([&] { F::max_pool2d(one, 2, 1, 2, 3); }, "max_pool2d");
  const Tensor x = zeros({1, 1, 8, 8});
  expect_error_containing(
      [&] {
        F::max_pool2d(x, {4, 2}, {1}, {1, 2}, {1, 3});
      },
      "padH = 1, padW = 2, kH = 4, kW = 2");
  expect_error_containing(
      [&] {
        F::max_pool2d(x, {2, 5}, {1}, {2, 1}, {4, 1});
      },
      "padH = 2, padW = 1, kH = 2, kW = 5");
  EXPECT_EQ(F::max_pool2d(x, {4, 2}, {1}, {2, 1}, {1, 3}).sizes(), IntArrayRef({1, 1, 9, 7}));
}

// Padding within the rule still lets a dilation step over a narrow input: with width 2, kernel
// 2, padding 1 and dilation 3 each window's taps sit at columns -1 and 2. Such a window gives
// -inf at PyTorch's index (flat h * W + w of its first tap past the padding: the next row's
// first element, or past the plane) and passes no gradient, on every device.
TEST(MaxPool2d, WindowsWithoutATapInsideTheInputPassNoGradient) {
  for (const ScalarType dtype : {kFloat32, kFloat64, kBFloat16}) {
    Tensor x = iota({2, 1, 3, 2}).to(dtype);
    x.requires_grad_(true);
    const auto [out, indices] = max_pool2d_with_indices(x, {1, 2}, {1}, {0, 1}, {1, 3});
    ASSERT_EQ(out.sizes(), IntArrayRef({2, 1, 3, 1}));
    for (int64_t i = 0; i < 6; ++i) {
      EXPECT_EQ(out.reshape({-1})[i].item<double>(), -INFINITY) << dtype << " output " << i;
      EXPECT_EQ(indices.reshape({-1})[i].item<int64_t>(), 2 * (i % 3) + 2) << dtype;
    }
    out.backward(ones_like(out));
    EXPECT_TRUE(x.grad().equal(zeros_like(x))) << dtype;
  }
}

TEST(MaxPool2d, DefaultStrideIsTheKernelSize) {
  EXPECT_EQ(nn::MaxPool2d(2)->forward(zeros({2, 3, 28, 28})).sizes(), IntArrayRef({2, 3, 14, 14}));
  EXPECT_EQ(nn::MaxPool2d(nn::MaxPool2dOptions(2).stride(1))->forward(zeros({1, 1, 4, 4})).sizes(),
            IntArrayRef({1, 1, 3, 3}));
}

TEST(AdaptiveMaxPool2d, IndicesAndGradientFollowTheFirstMaximumInRowMajorOrder) {
  // One 3 x 3 window of ties and a 1 x 3 window: the first maximum in row-major order wins.
  const Tensor x = tensor({0.0, 5.0, 5.0, 1.0, 5.0, 2.0, 3.0, 0.0, 4.0}).view({1, 3, 3});
  const Tensor leaf = x.clone().requires_grad_();
  auto [out, indices] = F::adaptive_max_pool2d_with_indices(leaf, {1, 1});
  EXPECT_EQ(out.item<double>(), 5.0);
  EXPECT_EQ(indices.item<int64_t>(), 1);
  out.sum().backward();
  EXPECT_TRUE(
      leaf.grad().equal(tensor({0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}).view({1, 3, 3})));
  auto [rows, row_indices] = F::adaptive_max_pool2d_with_indices(x, {3, 1});
  EXPECT_TRUE(rows.equal(tensor({5.0, 5.0, 4.0}).view({1, 3, 1})));
  EXPECT_TRUE(row_indices.equal(tensor({1, 4, 8}).view({1, 3, 1})));
}

// Every index picks its output's value out of the flattened volume.
void expect_indices_pick_the_values(const Tensor& input, const Tensor& out, const Tensor& indices) {
  EXPECT_EQ(indices.dtype(), kInt64);
  EXPECT_EQ(indices.sizes(), out.sizes());
  EXPECT_TRUE(input.flatten(-3).gather(-1, indices.flatten(-3)).equal(out.flatten(-3)));
}

TEST(MaxPool3d, IndicesAreFlatPositionsWithinEachVolume) {
  // Each 2x2x2 window's maximum is its last element.
  const Tensor x = iota({1, 2, 4, 4, 4});
  const auto [out, indices] = nn::MaxPool3d(2)->forward_with_indices(x);
  EXPECT_EQ(indices.sizes(), IntArrayRef({1, 2, 2, 2, 2}));
  EXPECT_EQ(indices[0][1][1][0][1].item<int64_t>(), (3 * 4 + 1) * 4 + 3);
  expect_indices_pick_the_values(x, out, indices);
  manual_seed(3);
  const Tensor y = randn({2, 5, 6, 7});
  const auto [padded, padded_indices] = F::max_pool3d_with_indices(y, 3, 2, 1, 1, true);
  EXPECT_EQ(padded.sizes(), IntArrayRef({2, 3, 4, 4}));
  expect_indices_pick_the_values(y, padded, padded_indices);
}

TEST(MaxPool3d, TiesGoToTheFirstElementInDepthRowColumnOrder) {
  // Two planes of one window hold the maximum 5 twice each: the first plane's first wins.
  const Tensor x =
      tensor({0.0, 1.0, 1.0, 0.0, 0.0, 5.0, 5.0, 0.0, 5.0, 0.0, 0.0, 5.0}).view({1, 3, 2, 2});
  const Tensor leaf = x.clone().requires_grad_();
  auto [out, indices] = F::max_pool3d_with_indices(leaf, {3, 2, 2});
  EXPECT_EQ(out.item<double>(), 5.0);
  EXPECT_EQ(indices.item<int64_t>(), 5);
  out.sum().backward();
  EXPECT_EQ(leaf.grad().sum().item<double>(), 1.0);
  EXPECT_EQ(leaf.grad().flatten()[5].item<double>(), 1.0);
  auto [adaptive, adaptive_indices] = F::adaptive_max_pool3d_with_indices(x, {1, 1, 1});
  EXPECT_EQ(adaptive.item<double>(), 5.0);
  EXPECT_EQ(adaptive_indices.item<int64_t>(), 5);
}

TEST(Pooling3d, SixteenBitInputsKeepTheirDtype) {
  const Tensor x = ones({1, 2, 4, 4, 4}, kBFloat16);
  EXPECT_EQ(F::avg_pool3d(x, 2).dtype(), kBFloat16);
  EXPECT_TRUE(F::avg_pool3d(x, 3, 1, 1, false, false).equal(ones({1, 2, 4, 4, 4}, kBFloat16)));
  EXPECT_EQ(F::adaptive_avg_pool3d(x, 1).sizes(), IntArrayRef({1, 2, 1, 1, 1}));
  EXPECT_EQ(F::max_pool3d(x, 2).dtype(), kBFloat16);
}

TEST(Pooling3d, ErrorsNameTheThreeDimensionalOp) {
  expect_error_containing(
      [] {
        F::max_pool3d(zeros({2, 3, 4}), 2);
      },
      "max_pool3d: expected a 4-D [C, D, H, W] or 5-D [N, C, D, H, W] input, got [2, 3, 4]");
  expect_error_containing(
      [] {
        F::avg_pool3d(zeros({1, 2, 3, 3}), {2, 2});
      },
      "avg_pool3d: kernel_size must be one or three ints, got [2, 2]");
  expect_error_containing(
      [] {
        F::max_pool3d(zeros({1, 2, 4, 4}), 2, 1, {1, 2, 1});
      },
      "max_pool3d: pad should be non-negative and at most half of kernel size");
  expect_error_containing(
      [] {
        F::avg_pool3d(zeros({1, 1, 4, 4}), 2);
      },
      "avg_pool3d: given input size [1, 1, 4, 4], the calculated output size [0, 2, 2] is too "
      "small");
  expect_error_containing(
      [] {
        F::adaptive_avg_pool3d(zeros({1, 2, 3, 3}), {1, 0, 1});
      },
      "adaptive_avg_pool3d: output_size must be positive, got [1, 0, 1]");
  expect_error_containing(
      [] {
        F::adaptive_max_pool3d(zeros({1, 2, 3}, kInt64), 1);
      },
      "adaptive_max_pool3d: expected a 4-D [C, D, H, W] or 5-D [N, C, D, H, W] input");
  EXPECT_EQ(nn::MaxPool3d(nn::MaxPool3dOptions(2).stride({1, 2, 2}))->extra_repr(),
            "kernel_size=[2, 2, 2], stride=[1, 2, 2], padding=[0, 0, 0], dilation=[1, 1, 1], "
            "ceil_mode=false");
}

TEST(MaxUnpool, PutsEachValueBackAtItsIndex) {
  const Tensor x = tensor({1.0, 5.0, 2.0, 0.0, 7.0, 3.0}).view({1, 1, 6});
  const auto pooling = F::max_pool1d_with_indices(x, {.kernel_size = 2});
  const Tensor& pooled = pooling.first;
  const Tensor& indices = pooling.second;
  EXPECT_TRUE(F::max_unpool1d(pooled, indices, 2)
                  .equal(tensor({0.0, 5.0, 2.0, 0.0, 7.0, 0.0}).view({1, 1, 6})));
  // A size one larger than the default, as an odd input pooled with stride 2 had.
  EXPECT_EQ(F::max_unpool1d(pooled, indices, 2, {}, {0}, {7}).sizes(), IntArrayRef({1, 1, 7}));
  expect_error_containing([&] { F::max_unpool1d(pooled, indices, 2, {}, {0}, {9}); },
                          "max_unpool1d: output_size [9] must be within a stride of the default "
                          "size 6 in dim 0");
  expect_error_containing([&] { F::max_unpool1d(pooled, indices + 10, 2); },
                          "max_unpool1d: found an invalid max index 14 for an output plane of 6 "
                          "elements");
  expect_error_containing([&] { F::max_unpool2d(pooled[0], indices[0], 2); },
                          "max_unpool2d: expected a 3-D or 4-D input");
  EXPECT_EQ(nn::LPPool2d(2, 3)->extra_repr(),
            "norm_type=2, kernel_size=[3], stride=[3], ceil_mode=false");
}

TEST(Pooling1d, IndicesAreAlongTheLength) {
  const Tensor x = tensor({1.0, 3.0, 2.0, 0.0, 4.0, 4.0}).view({1, 6});
  auto [out, indices] = nn::MaxPool1d(nn::MaxPool1dOptions(2))->forward_with_indices(x);
  EXPECT_TRUE(out.equal(tensor({3.0, 2.0, 4.0}).view({1, 3})));
  EXPECT_TRUE(indices.equal(tensor({1, 2, 4}).view({1, 3})));
  auto [adaptive, adaptive_indices] = nn::AdaptiveMaxPool1d(2)->forward_with_indices(x);
  EXPECT_TRUE(adaptive.equal(tensor({3.0, 4.0}).view({1, 2})));
  EXPECT_TRUE(adaptive_indices.equal(tensor({1, 4}).view({1, 2})));
}

TEST(Pooling1d, ErrorsNameTheOneDimensionalOp) {
  expect_error_containing(
      [] {
        F::max_pool1d(zeros({2, 3, 4, 5}), {.kernel_size = 2});
      },
      "max_pool1d: expected a 2-D [C, L] or 3-D [N, C, L] input, got [2, 3, 4, 5]");
  expect_error_containing(
      [] {
        F::max_pool1d(zeros({2, 3}), {.kernel_size = 4});
      },
      "max_pool1d: given input size [2, 3], the calculated output length 0 is "
      "too small");
  expect_error_containing(
      [] {
        F::avg_pool1d(zeros({2, 5}), {.kernel_size = 2, .padding = 2});
      },
      "avg_pool1d: pad should be non-negative and at most half of kernel size");
  expect_error_containing(
      [] {
        F::avg_pool1d(zeros({2, 5}), {.kernel_size = 2, .dilation = 2});
      },
      "avg_pool1d: average pooling takes no dilation, got 2");
  expect_error_containing(
      [] {
        F::adaptive_max_pool1d(zeros({2, 5}), 0);
      },
      "adaptive_max_pool1d: output_size must be positive, got 0");
  expect_error_containing(
      [] {
        F::adaptive_max_pool2d(zeros({2, 5}), {2});
      },
      "adaptive_max_pool2d: expected a 3-D [C, H, W] or 4-D [N, C, H, W] input");
  expect_error_containing(
      [] {
        F::adaptive_avg_pool1d(tensor({1, 2}).view({1, 2}), 1);
      },
      "adaptive_avg_pool1d: expected a floating point input, got int64");
}

}  // namespace
}  // namespace accel
