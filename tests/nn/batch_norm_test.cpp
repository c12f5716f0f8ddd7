// The fused batch_norm kernels beyond the small PyTorch fixtures (normalization_test.cpp):
// channels whose runs span several fold chunks, [N, C] inputs (spatial size 1), training and
// evaluation, with and without the affine parameters, checked against the same normalization
// composed of core ops in float64 (autograd giving its gradients); bits independent of the
// thread count; running statistics saved by the backward.
#include <gtest/gtest.h>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/random.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/nn/functional/normalization.h"
#include "support/expect_error.h"

namespace accel {
namespace {

struct Result {
  Tensor out, grad_input, grad_weight, grad_bias;
};

// [1, C, 1, ...] for input x.
DimVector channel_shape(const Tensor& x) {
  DimVector shape(static_cast<size_t>(x.dim()), 1);
  shape[1] = x.size(1);
  return shape;
}

// batch_norm's output and gradients for upstream gradient g, fused or composed of ops; the
// running statistics are copies, so that each call starts from the same ones.
Result run(bool fused, bool training, const Tensor& x, const Tensor& w, const Tensor& b,
           const Tensor& running_mean, const Tensor& running_var, const Tensor& g) {
  Tensor xi = x.detach().requires_grad_(true);
  Tensor wi = w.defined() ? w.detach().requires_grad_(true) : Tensor();
  Tensor bi = b.defined() ? b.detach().requires_grad_(true) : Tensor();
  Tensor out;
  if (fused) {
    out = F::batch_norm(xi, running_mean.clone(), running_var.clone(), wi, bi, training, 0.1, 1e-5);
  } else {
    DimVector dims;
    for (int64_t d = 0; d < x.dim(); ++d) {
      if (d != 1) dims.push_back(d);
    }
    const DimVector channels = channel_shape(x);
    const IntArrayRef shape = as_ref(channels);
    const Tensor mean = training ? xi.mean(as_ref(dims), true) : running_mean.reshape(shape);
    const Tensor var = training ? xi.var(as_ref(dims), 0, true) : running_var.reshape(shape);
    out = (xi - mean) * rsqrt(var + 1e-5);
    if (wi.defined()) out = out * wi.reshape(shape);
    if (bi.defined()) out = out + bi.reshape(shape);
  }
  out.backward(g);
  return {out.detach(), xi.grad(), wi.defined() ? wi.grad() : Tensor(),
          bi.defined() ? bi.grad() : Tensor()};
}

void expect_close(const Tensor& actual, const Tensor& expected, double tolerance,
                  const std::string& what) {
  ASSERT_EQ(actual.defined(), expected.defined()) << what;
  if (!actual.defined()) return;
  const double error = (actual.to(kFloat64) - expected.to(kFloat64)).abs().max().item<double>();
  EXPECT_LE(error, tolerance) << what;
}

// Every output of `actual` within `values` of the reference's output and input gradient and
// within `sums` of its parameter gradients (sums over a channel's elements).
void expect_results_close(const Result& actual, const Result& expected, double values, double sums,
                          const std::string& what) {
  expect_close(actual.out, expected.out, values, what + " out");
  expect_close(actual.grad_input, expected.grad_input, values, what + " grad_input");
  expect_close(actual.grad_weight, expected.grad_weight, sums, what + " grad_weight");
  expect_close(actual.grad_bias, expected.grad_bias, sums, what + " grad_bias");
}

struct Data {
  Tensor x, w, b, running_mean, running_var, g;
};
Data draw(std::vector<int64_t> sizes, ScalarType dtype) {
  Generator generator(5);
  const int64_t channels = sizes[1];
  return {randn(sizes, kFloat64, &generator).mul(2.0).add(3.0).to(dtype),
          randn({channels}, kFloat64, &generator).to(dtype),
          randn({channels}, kFloat64, &generator).to(dtype),
          randn({channels}, kFloat64, &generator).to(dtype),
          rand({channels}, kFloat64, &generator).add(0.5).to(dtype),
          randn(sizes, kFloat64, &generator).to(dtype)};
}

const std::vector<std::vector<int64_t>> kShapes = {{3, 4, 70, 70}, {64, 12}, {5, 3, 7}};

TEST(BatchNormFused, MatchesTheComposedFormulaInTrainingAndEvaluation) {
  for (const auto& sizes : kShapes) {
    const Data d64 = draw(sizes, kFloat64);
    const Data d32 = draw(sizes, kFloat32);
    for (bool training : {true, false}) {
      for (int mask = 0; mask < 4; ++mask) {
        const bool has_weight = mask & 1, has_bias = mask & 2;
        const std::string what = "sizes " + std::to_string(sizes.size()) + "-d, " +
                                 (training ? "training" : "eval") + ", affine " +
                                 std::to_string(mask);
        auto affine = [&](const Data& d) {
          return std::pair{has_weight ? d.w : Tensor(), has_bias ? d.b : Tensor()};
        };
        const auto [w64, b64] = affine(d64);
        const Result reference =
            run(false, training, d64.x, w64, b64, d64.running_mean, d64.running_var, d64.g);
        const Result r64 =
            run(true, training, d64.x, w64, b64, d64.running_mean, d64.running_var, d64.g);
        expect_results_close(r64, reference, 1e-12, 1e-9, what + " float64");
        const auto [w32, b32] = affine(d32);
        const Result r32 =
            run(true, training, d32.x, w32, b32, d32.running_mean, d32.running_var, d32.g);
        // Sums over up to 14,700 elements per channel, relative to their size (~100).
        expect_results_close(r32, reference, 1e-4, 2e-3, what + " float32");
      }
    }
  }
}

TEST(BatchNormFused, GivesTheSameBitsForAnyThreadCount) {
  const Data d = draw(kShapes[0], kFloat32);
  const int threads = get_num_threads();
  set_num_threads(1);
  const Result one = run(true, true, d.x, d.w, d.b, d.running_mean, d.running_var, d.g);
  set_num_threads(std::max(threads, 2));
  const Result several = run(true, true, d.x, d.w, d.b, d.running_mean, d.running_var, d.g);
  set_num_threads(threads);
  EXPECT_TRUE(equal(one.out, several.out));
  EXPECT_TRUE(equal(one.grad_input, several.grad_input));
  EXPECT_TRUE(equal(one.grad_weight, several.grad_weight));
  EXPECT_TRUE(equal(one.grad_bias, several.grad_bias));
}

TEST(BatchNormFused, RunningStatisticsChangedBeforeBackwardAreAnError) {
  Tensor running_mean = zeros({3}), running_var = ones({3});
  const Tensor x = randn({4, 3}).requires_grad_(true);
  const Tensor y = F::batch_norm(x, running_mean, running_var, {}, {}, /*training=*/false);
  running_mean.add_(1.0);
  testing::expect_error_containing([&] { y.sum().backward(); }, "modified");
}

TEST(BatchNormFused, IntegerInputIsAnError) {
  testing::expect_error_containing(
      [] {
        F::batch_norm(zeros({4, 3}, kInt64), {}, {}, {}, {}, /*training=*/true);
      },
      "floating-point");
}

}  // namespace
}  // namespace accel
