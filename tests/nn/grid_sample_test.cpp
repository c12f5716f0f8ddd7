// grid_sample and affine_grid against PyTorch fixtures (tests/reference/cases_nn_grid_sample.py):
// every mode and padding mode with and without align_corners, 4-D and 5-D, and a spatial
// transformer; plus identities (an identity transform samples the input exactly), nearest's
// zero grid gradient, and the errors for misuse.
#include "accel/nn/functional/grid_sample.h"

#include "accel/accel.h"
#include "support/expect_error.h"
#include "support/op_harness.h"
#include "support/thread_count.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;
using F::GridSampleFuncOptions;
using F::GridSampleMode;
using F::GridSamplePaddingMode;

OpCase sample(const std::string& name, GridSampleMode mode, GridSamplePaddingMode padding,
              bool align_corners, double scale = 1.0) {
  return {
      name,
      [=](const V& x) {
        return F::grid_sample(
            x[0], x[1] * scale,
            GridSampleFuncOptions().mode(mode).padding_mode(padding).align_corners(align_corners));
      },
      {kFloat32}};
}

OpCase affine(const std::string& name, std::vector<int64_t> size, bool align_corners) {
  return {name, [=](const V& x) { return F::affine_grid(x[0], size, align_corners); }, {kFloat32}};
}

constexpr auto kBilinear = GridSampleMode::Bilinear;
constexpr auto kNearest = GridSampleMode::Nearest;
constexpr auto kBicubic = GridSampleMode::Bicubic;
constexpr auto kZeros = GridSamplePaddingMode::Zeros;
constexpr auto kBorder = GridSamplePaddingMode::Border;
constexpr auto kReflection = GridSamplePaddingMode::Reflection;

const std::vector<OpCase> kGridSampleCases = {
    sample("grid_sample_bilinear_zeros", kBilinear, kZeros, false),
    sample("grid_sample_bilinear_zeros_align", kBilinear, kZeros, true),
    sample("grid_sample_bilinear_border", kBilinear, kBorder, false, 1.5),
    sample("grid_sample_bilinear_border_align", kBilinear, kBorder, true, 1.5),
    sample("grid_sample_bilinear_reflection", kBilinear, kReflection, false, 3.0),
    sample("grid_sample_bilinear_reflection_align", kBilinear, kReflection, true, 3.0),
    sample("grid_sample_nearest_zeros", kNearest, kZeros, false),
    sample("grid_sample_nearest_border_align", kNearest, kBorder, true, 1.5),
    sample("grid_sample_nearest_reflection", kNearest, kReflection, false, 3.0),
    sample("grid_sample_bicubic_zeros", kBicubic, kZeros, false),
    sample("grid_sample_bicubic_zeros_align", kBicubic, kZeros, true),
    sample("grid_sample_bicubic_border", kBicubic, kBorder, false, 1.5),
    sample("grid_sample_bicubic_reflection", kBicubic, kReflection, false, 2.5),
    sample("grid_sample_bicubic_reflection_align", kBicubic, kReflection, true, 2.5),
    sample("grid_sample_trilinear_zeros", kBilinear, kZeros, false),
    sample("grid_sample_trilinear_border_align", kBilinear, kBorder, true, 1.5),
    sample("grid_sample_trilinear_reflection", kBilinear, kReflection, false, 2.5),
    sample("grid_sample_nearest_3d", kNearest, kZeros, true),
    sample("grid_sample_single_row_reflection_align", kBilinear, kReflection, true, 2.0),
    affine("affine_grid_2d", {2, 3, 4, 5}, false),
    affine("affine_grid_2d_align", {2, 1, 3, 4}, true),
    affine("affine_grid_3d", {1, 2, 3, 4, 5}, false),
    affine("affine_grid_3d_align", {2, 1, 2, 3, 2}, true),
    affine("affine_grid_single_column", {1, 1, 3, 1}, false),
    {"spatial_transformer",
     [](const V& x) { return F::grid_sample(x[0], F::affine_grid(x[1], x[0].sizes())); },
     {kFloat32}},
};

ACCEL_OP_TEST_SUITE(GridSampleOps, "ops_nn_grid_sample.json", kGridSampleCases);

// The identity transform's grid lands on the element centers: every mode and padding mode then
// reads the input exactly.
TEST(GridSample, IdentityTransformReadsTheInput) {
  manual_seed(5);
  const Tensor image = randn({2, 3, 4, 5}, kFloat64);
  const Tensor identity = tensor({1.0, 0.0, 0.0, 0.0, 1.0, 0.0}).view({1, 2, 3}).expand({2, 2, 3});
  for (const bool align_corners : {false, true}) {
    const Tensor grid = F::affine_grid(identity, image.sizes(), align_corners);
    for (const GridSampleMode mode : {kBilinear, kNearest, kBicubic}) {
      for (const GridSamplePaddingMode padding : {kZeros, kBorder, kReflection}) {
        const Tensor out = F::grid_sample(
            image, grid,
            GridSampleFuncOptions().mode(mode).padding_mode(padding).align_corners(align_corners));
        EXPECT_TRUE(out.allclose(image, 1e-12, 1e-12))
            << "mode " << static_cast<int>(mode) << " padding " << static_cast<int>(padding)
            << " align_corners " << align_corners;
      }
    }
  }
}

// As PyTorch: nearest gives the grid a gradient of zeros (defined, not missing).
TEST(GridSample, NearestGivesTheGridZeroGradient) {
  Tensor image = randn({1, 2, 3, 3}, kFloat64).requires_grad_();
  Tensor grid =
      tensor({-0.6, 0.2, 0.1, 0.7, 0.4, -0.3, 0.9, 0.5}).view({1, 2, 2, 2}).requires_grad_();
  F::grid_sample(image, grid, GridSampleFuncOptions().mode(kNearest)).sum().backward();
  ASSERT_TRUE(grid.grad().defined());
  EXPECT_TRUE(grid.grad().equal(zeros({1, 2, 2, 2}, kFloat64)));
  EXPECT_GT(image.grad().abs().sum().item<double>(), 0.0);
}

// Zeros padding reads zero outside the input whatever the input holds: non-finite elements at
// the first position of a channel do not leak into outside locations or their gradients.
TEST(GridSample, OutsideLocationsReadZeroWhateverTheInputHolds) {
  Tensor image = zeros({1, 2, 3, 3}, kFloat64);
  image.select(1, 0).select(1, 0).select(1, 0).fill_(INFINITY);
  image.select(1, 1).select(1, 0).select(1, 0).fill_(NAN);
  image.requires_grad_();
  Tensor grid = tensor({5.0, 5.0, -4.0, 0.5}).view({1, 1, 2, 2}).requires_grad_();
  for (const GridSampleMode mode : {kBilinear, kNearest, kBicubic}) {
    image.mutable_grad() = Tensor();
    grid.mutable_grad() = Tensor();
    const Tensor out = F::grid_sample(image, grid, GridSampleFuncOptions().mode(mode));
    EXPECT_TRUE(out.equal(zeros({1, 2, 1, 2}, kFloat64))) << static_cast<int>(mode) << out;
    out.sum().backward();
    EXPECT_TRUE(grid.grad().equal(zeros({1, 1, 2, 2}, kFloat64))) << static_cast<int>(mode);
    EXPECT_TRUE(image.grad().equal(zeros({1, 2, 3, 3}, kFloat64))) << static_cast<int>(mode);
  }
}

// Output and both gradients, for sizes that split rows and location blocks among threads.
std::vector<Tensor> sample_with_gradients(const Tensor& image, const Tensor& grid,
                                          const GridSampleFuncOptions& options) {
  Tensor x = image.detach().clone().requires_grad_();
  Tensor g = grid.detach().clone().requires_grad_();
  Tensor out = F::grid_sample(x, g, options);
  out.backward(ones_like(out));
  return {out.detach(), x.grad(), g.grad()};
}

TEST(GridSample, SameBitsOnAnyThreadCount) {
  manual_seed(9);
  const Tensor image = randn({3, 40, 20, 30});
  const Tensor grid = randn({3, 25, 41, 2}) * 1.5;  // 1025 locations: blocks of 512 and a rest
  for (const GridSampleMode mode : {kBilinear, kBicubic}) {
    const auto options = GridSampleFuncOptions().mode(mode).padding_mode(kReflection);
    std::vector<Tensor> single;
    {
      testing::ThreadCount one(1);
      single = sample_with_gradients(image, grid, options);
    }
    // Two threads take a batch element each in the backward, four split it by channels and
    // by blocks of locations.
    for (const int threads : {2, 4}) {
      testing::ThreadCount several_threads(threads);
      const std::vector<Tensor> several = sample_with_gradients(image, grid, options);
      for (size_t i = 0; i < single.size(); ++i) {
        EXPECT_TRUE(single[i].equal(several[i]))
            << "mode " << static_cast<int>(mode) << " threads " << threads << " result " << i;
      }
    }
  }
}

// The backward computes the input's and the grid's gradients in one pass or either alone (the
// grid's alone splits a batch element's locations among threads): the same values each way.
TEST(GridSample, EitherGradientAloneMatchesBoth) {
  manual_seed(4);
  const Tensor image = randn({2, 5, 9, 11});
  const Tensor grid = randn({2, 30, 40, 2});  // 1200 locations: three blocks per element
  testing::ThreadCount two(2);
  for (const GridSampleMode mode : {kBilinear, kNearest, kBicubic}) {
    const auto options = GridSampleFuncOptions().mode(mode).padding_mode(kBorder);
    const std::vector<Tensor> both = sample_with_gradients(image, grid, options);
    Tensor x = image.detach().clone().requires_grad_();
    F::grid_sample(x, grid, options).sum().backward();
    EXPECT_TRUE(x.grad().equal(both[1])) << static_cast<int>(mode);
    Tensor g = grid.detach().clone().requires_grad_();
    F::grid_sample(image, g, options).sum().backward();
    EXPECT_TRUE(g.grad().equal(both[2])) << static_cast<int>(mode);
  }
}

TEST(GridSample, MisuseIsAClearError) {
  const Tensor image = zeros({2, 3, 4, 5});
  expect_error_containing(
      [&] {
        F::grid_sample(zeros({3, 4, 5}), zeros({3, 2, 2}));
      },
      "grid_sample: expected a 4-D [N, C, H, W] or 5-D [N, C, D, H, W] "
      "input, got shape [3, 4, 5]");
  expect_error_containing(
      [&] {
        F::grid_sample(image, zeros({3, 2, 2, 2}));
      },
      "expected a grid of shape [2, ..., 2] with 4 dims for the input [2, 3, "
      "4, 5]; got [3, 2, 2, 2]");
  expect_error_containing([&] { F::grid_sample(image, zeros({2, 2, 2, 3})); }, "got [2, 2, 2, 3]");
  expect_error_containing(
      [&] {
        F::grid_sample(image, zeros({2, 2, 2, 2}, kFloat64));
      },
      "expected a floating point input and a grid of its dtype, got float32 "
      "and float64");
  expect_error_containing(
      [&] {
        F::grid_sample(zeros({2, 3, 0, 5}), zeros({2, 2, 2, 2}));
      },
      "expected non-empty spatial dims, got input shape [2, 3, 0, 5]");
  // 2^31 elements per channel (an expanded view: nothing allocated).
  expect_error_containing(
      [&] {
        F::grid_sample(zeros({1, 1, 1, 1}).expand({1, 1, 65536, 32768}), zeros({1, 1, 1, 2}));
      },
      "grid_sample: expected at most 2^31 - 1 elements per channel, got input shape [1, 1, "
      "65536, 32768]");
  expect_error_containing(
      [&] {
        F::grid_sample(zeros({1, 1, 2, 2, 2}), zeros({1, 1, 1, 1, 3}),
                       GridSampleFuncOptions().mode(kBicubic));
      },
      "grid_sample: bicubic interpolation takes 4-D inputs, got shape [1, 1, 2, 2, 2]");
  expect_error_containing(
      [&] {
        F::affine_grid(zeros({2, 2, 3}), {2, 3});
      },
      "affine_grid: expected the size of a 4-D [N, C, H, W] or 5-D [N, C, D, "
      "H, W] tensor, got [2, 3]");
  expect_error_containing(
      [&] {
        F::affine_grid(zeros({2, 3, 4}), {2, 1, 4, 4});
      },
      "affine_grid: expected floating point affine matrices of shape [2, 2, "
      "3] for size [2, 1, 4, 4]; got float32 of shape [2, 3, 4]");
  expect_error_containing(
      [&] {
        F::affine_grid(zeros({1, 2, 3}), {1, 1, 0, 4});
      },
      "affine_grid: expected positive spatial sizes, got [1, 1, 0, 4]");
}

}  // namespace
}  // namespace accel
