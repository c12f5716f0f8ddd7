// The fused layer_norm kernels beyond the small PyTorch fixtures (normalization_test.cpp): rows
// long enough to span several fold chunks and enough rows for several blocks of the weight and
// bias column sums, checked against the same normalization composed of core ops in float64
// (autograd giving its gradients); every combination of affine parameters; bits independent of
// the thread count; mixed and 16-bit dtypes; empty inputs; bad arguments.
#include <gtest/gtest.h>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/random.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/nn/functional/normalization.h"
#include "support/expect_error.h"

namespace accel {
namespace {

// The output and the gradients of the input, weight and bias (undefined where absent) for
// `g` flowing back.
struct Result {
  Tensor out, grad_input, grad_weight, grad_bias;
};

using Normalize = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, double);

Result run(Normalize normalize, const Tensor& x, const Tensor& w, const Tensor& b,
           const Tensor& g) {
  Tensor xi = x.detach().requires_grad_(true);
  Tensor wi = w.defined() ? w.detach().requires_grad_(true) : Tensor();
  Tensor bi = b.defined() ? b.detach().requires_grad_(true) : Tensor();
  Tensor out = normalize(xi, wi, bi, 1e-5);
  out.backward(g);
  return {out.detach(), xi.grad(), wi.defined() ? wi.grad() : Tensor(),
          bi.defined() ? bi.grad() : Tensor()};
}

// Normalizing over the last dim, fused or composed of core ops.
Tensor fused(const Tensor& x, const Tensor& w, const Tensor& b, double eps) {
  return F::layer_norm(x, {x.size(-1)}, w, b, eps);
}
Tensor composed(const Tensor& x, const Tensor& w, const Tensor& b, double eps) {
  const Tensor mean = x.mean({-1}, /*keepdim=*/true);
  const Tensor var = x.var({-1}, /*correction=*/0, /*keepdim=*/true);
  Tensor out = (x - mean) * rsqrt(var + eps);
  if (w.defined()) out = out * w;
  if (b.defined()) out = out + b;
  return out;
}

void expect_close(const Tensor& actual, const Tensor& expected, double tolerance,
                  const char* what) {
  ASSERT_EQ(actual.defined(), expected.defined()) << what;
  if (!actual.defined()) return;
  EXPECT_EQ(actual.sizes(), expected.sizes()) << what;
  const double error = (actual.to(kFloat64) - expected.to(kFloat64)).abs().max().item<double>();
  EXPECT_LE(error, tolerance) << what;
}

void expect_equal(const Tensor& a, const Tensor& b, const char* what) {
  ASSERT_EQ(a.defined(), b.defined()) << what;
  if (a.defined()) EXPECT_TRUE(equal(a, b)) << what;
}

// 70 rows (three blocks of column sums) of 4500 elements (two fold chunks), shifted off zero so
// that the mean matters.
struct Data {
  Tensor x, w, b, g;
};
Data draw(ScalarType dtype) {
  Generator generator(11);
  return {randn({70, 4500}, kFloat64, &generator).mul(3.0).add(5.0).to(dtype),
          randn({4500}, kFloat64, &generator).to(dtype),
          randn({4500}, kFloat64, &generator).to(dtype),
          randn({70, 4500}, kFloat64, &generator).to(dtype)};
}

TEST(LayerNorm, MatchesTheComposedFormulaForEveryAffineCombination) {
  const Data d64 = draw(kFloat64);
  const Data d32 = draw(kFloat32);
  for (int mask = 0; mask < 4; ++mask) {
    const bool has_weight = mask & 1, has_bias = mask & 2;
    const Tensor w64 = has_weight ? d64.w : Tensor(), b64 = has_bias ? d64.b : Tensor();
    const Result reference = run(composed, d64.x, w64, b64, d64.g);
    // float64: the same numbers up to rounding.
    const Result r64 = run(fused, d64.x, w64, b64, d64.g);
    expect_close(r64.out, reference.out, 1e-12, "float64 out");
    expect_close(r64.grad_input, reference.grad_input, 1e-11, "float64 grad_input");
    expect_close(r64.grad_weight, reference.grad_weight, 1e-10, "float64 grad_weight");
    expect_close(r64.grad_bias, reference.grad_bias, 1e-10, "float64 grad_bias");
    // float32: a few ulp per element; the column sums over 70 rows, relative to their size.
    const Result r32 =
        run(fused, d32.x, has_weight ? d32.w : Tensor(), has_bias ? d32.b : Tensor(), d32.g);
    expect_close(r32.out, reference.out, 1e-5, "float32 out");
    expect_close(r32.grad_input, reference.grad_input, 1e-5, "float32 grad_input");
    expect_close(r32.grad_weight, reference.grad_weight, 1e-4, "float32 grad_weight");
    expect_close(r32.grad_bias, reference.grad_bias, 1e-4, "float32 grad_bias");
  }
}

TEST(LayerNorm, GivesTheSameBitsForAnyThreadCount) {
  const Data d = draw(kFloat32);
  const int threads = get_num_threads();
  set_num_threads(1);
  const Result one = run(fused, d.x, d.w, d.b, d.g);
  set_num_threads(std::max(threads, 2));
  const Result several = run(fused, d.x, d.w, d.b, d.g);
  set_num_threads(threads);
  expect_equal(one.out, several.out, "out");
  expect_equal(one.grad_input, several.grad_input, "grad_input");
  expect_equal(one.grad_weight, several.grad_weight, "grad_weight");
  expect_equal(one.grad_bias, several.grad_bias, "grad_bias");
}

TEST(LayerNorm, NormalizesOverSeveralTrailingDims) {
  const Data d = draw(kFloat64);
  const Tensor x = d.x.reshape({7, 10, 45, 100});
  const Tensor y = F::layer_norm(x, {45, 100}, d.w.reshape({45, 100}), d.b.reshape({45, 100}));
  const Tensor reference = composed(d.x.reshape({70, 4500}), d.w, d.b, 1e-5);
  expect_close(y, reference.reshape({7, 10, 45, 100}), 1e-12, "out");
}

TEST(LayerNorm, SixteenBitInputsComputeInFloatAndKeepTheirDtype) {
  const Data d = draw(kFloat32);
  const Tensor reference = fused(d.x, d.w, d.b, 1e-5);
  for (ScalarType dtype : {kBFloat16, kFloat16}) {
    // One rounding of the input, then of the output (|values| up to about 25).
    const double step = dtype == kBFloat16 ? 1.0 / 128 : 1.0 / 1024;
    const Tensor x = d.x.to(dtype);
    const Tensor same_type = fused(x, d.w.to(dtype), d.b.to(dtype), 1e-5);
    EXPECT_EQ(same_type.dtype(), dtype);
    // float32 parameters, as autocast leaves them: computed in float32, rounded once.
    const Tensor mixed = fused(x, d.w, d.b, 1e-5);
    EXPECT_EQ(mixed.dtype(), dtype);
    const Tensor rounded_input = fused(x.to(kFloat32), d.w, d.b, 1e-5);
    expect_close(mixed, rounded_input.to(dtype), 32 * step, "mixed");
    expect_close(same_type, reference, 64 * step, "16-bit");
  }
}

TEST(LayerNorm, EmptyInputsGiveEmptyOutputsAndZeroParameterGradients) {
  const Tensor x = zeros({0, 8});
  const Result r = run(fused, x, ones({8}), zeros({8}), zeros({0, 8}));
  EXPECT_EQ(r.out.size(0), 0);
  EXPECT_EQ(r.out.size(1), 8);
  EXPECT_TRUE(equal(r.grad_weight, zeros({8})));
  EXPECT_TRUE(equal(r.grad_bias, zeros({8})));
}

TEST(LayerNorm, BadArgumentsNameTheOpAndValues) {
  using testing::expect_error_containing;
  expect_error_containing([] { F::layer_norm(zeros({2, 4}, kInt64), {4}); }, "floating-point");
  expect_error_containing(
      [] {
        F::layer_norm(zeros({2, 4}), {4}, zeros({4}, kInt32));
      },
      "floating-point weight and bias");
  expect_error_containing([] { F::layer_norm(zeros({2, 4}), {4}, zeros({3})); }, "[3]");
  expect_error_containing([] { F::layer_norm(zeros({2, 4}), {}); }, "layer_norm");
}

}  // namespace
}  // namespace accel
