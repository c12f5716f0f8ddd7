// Ops composed from other ops against PyTorch fixtures (tests/reference/cases_composed.py):
// diagonal, movedim, roll, tile, diag_embed/diag, trace, meshgrid; outer, addmm, baddbmm,
// tensordot, cross, einsum; lerp, addcmul, addcdiv, square, reciprocal, nan_to_num, logit,
// xlogy, frac, deg2rad/rad2deg, float_power, logaddexp2, sinc, heaviside, isclose. Then their
// argument errors and the details fixtures do not show (views, dtypes).
#include <cmath>
#include <limits>

#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;

// a with +inf above 1, -inf below -1 and NaN within 0.2 of zero.
Tensor with_specials(const Tensor& a) {
  const double inf = std::numeric_limits<double>::infinity();
  return where(gt(a, 1), inf, where(lt(a, -1), -inf, where(lt(a.abs(), 0.2), std::nan(""), a)));
}

const std::vector<OpCase> kComposedCases = {
    {"diagonal", [](const V& x) { return x[0].diagonal(); }},
    {"diagonal_offset_dims", [](const V& x) { return diagonal(x[0], -1, 2, 0); }},
    {"diagonal_past_the_edge", [](const V& x) { return diagonal(x[0], 5); }},
    {"movedim",
     [](const V& x) {
       return x[0].movedim({0, 1}, {3, 0});
     }},
    {"broadcast_to",
     [](const V& x) {
       return broadcast_to(x[0], {2, 3, 4});
     }},
    {"roll",
     [](const V& x) {
       return roll(x[0], {1, -5}, {0, 2});
     }},
    {"roll_flattened", [](const V& x) { return x[0].roll({4}); }},
    {"tile", [](const V& x) { return x[0].tile({2}); }},
    {"diag_embed", [](const V& x) { return diag_embed(x[0], 1, 0, 2); }},
    {"diag_of_vector", [](const V& x) { return diag(x[0], -1); }},
    {"diag_of_matrix", [](const V& x) { return diag(x[0], 1); }},
    {"trace", [](const V& x) { return trace(x[0]); }},
    {"meshgrid_xy",
     [](const V& x) {
       return stack(meshgrid({x[0], x[1], x[2]}, "xy"));
     }},
    {"outer", [](const V& x) { return outer(x[0], x[1]); }},
    {"addmm", [](const V& x) { return addmm(x[0], x[1], x[2], 0.5, 2); }},
    {"addmm_beta_zero", [](const V& x) { return addmm(x[0], x[1], x[2], 0); }},
    {"baddbmm", [](const V& x) { return baddbmm(x[0], x[1], x[2], 1, -1); }},
    {"tensordot", [](const V& x) { return tensordot(x[0], x[1], 2); }},
    {"tensordot_dims",
     [](const V& x) {
       return tensordot(x[0], x[1], {0, 2}, {2, 1});
     }},
    {"cross", [](const V& x) { return cross(x[0], x[1]); }},
    {"cross_dim", [](const V& x) { return cross(x[0], x[1], 0); }},
    {"einsum_matmul", [](const V& x) { return einsum("ij,jk->ik", x); }},
    {"einsum_batched_implicit", [](const V& x) { return einsum("bij,bjk", x); }},
    {"einsum_attention", [](const V& x) { return einsum("bhqd, bhkd -> bhqk", x); }},
    {"einsum_diagonal", [](const V& x) { return einsum("bii->bi", x); }},
    {"einsum_trace", [](const V& x) { return einsum("ii", x); }},
    {"einsum_ellipsis_broadcast", [](const V& x) { return einsum("...ij,...jk->...ik", x); }},
    {"einsum_three_operands", [](const V& x) { return einsum("ij,jk,kl->il", x); }},
    {"einsum_outer_then_sum", [](const V& x) { return einsum("i,j->", x); }},
    {"einsum_implicit_upper_case_first", [](const V& x) { return einsum("Ab,ab", x); }},
    {"einsum_size_one_broadcasts", [](const V& x) { return einsum("ij,jk", x); }},
    {"einsum_sum_broadcast_dims", [](const V& x) { return einsum("...ij->ji", x); }},
    {"lerp_scalar_low",
     [](const V& x) {
       return lerp(x[0], x[1].expand({3, 4}), 0.25);
     }},
    {"lerp_scalar_high", [](const V& x) { return x[0].lerp(x[1], 0.75); }},
    {"lerp_tensor", [](const V& x) { return lerp(x[0], x[1], x[2]); }},
    {"addcmul", [](const V& x) { return addcmul(x[0], x[1], x[2], -0.5); }},
    {"addcdiv", [](const V& x) { return addcdiv(x[0], x[1], x[2], 2); }},
    {"square", [](const V& x) { return x[0].square(); }},
    {"reciprocal", [](const V& x) { return reciprocal(x[0]); }},
    {"nan_to_num", [](const V& x) { return nan_to_num(with_specials(x[0]), 0.5, 2.0, -3.0); }},
    {"nan_to_num_default_nan",
     [](const V& x) { return nan_to_num(where(lt(x[0].abs(), 0.2), std::nan(""), x[0])); }},
    {"logit", [](const V& x) { return logit(x[0]); }},
    {"logit_eps", [](const V& x) { return x[0].logit(0.25); }},
    {"xlogy", [](const V& x) { return xlogy(x[0], x[1]); }},
    {"index_add",
     [](const V& x) {
       return x[0].index_add(0, tensor({1, 3, 1}), x[1], -2);
     }},
    {"index_copy",
     [](const V& x) {
       return index_copy(x[0], 1, tensor({2, 0}), x[1]);
     }},
    {"index_fill",
     [](const V& x) {
       return x[0].index_fill(1, tensor({0, 2, 0}), -1.5);
     }},
    {"frac", [](const V& x) { return frac(x[0]); }},
    {"deg2rad", [](const V& x) { return deg2rad(x[0]); }},
    {"rad2deg", [](const V& x) { return x[0].rad2deg(); }},
    // float_power computes in float64 whatever its operands.
    {"float_power", [](const V& x) { return float_power(x[0], x[1]); }, {}},
    {"float_power_scalar", [](const V& x) { return x[0].float_power(3); }, {}},
    {"logaddexp2", [](const V& x) { return logaddexp2(x[0], x[1]); }},
    {"sinc", [](const V& x) { return sinc(x[0]); }},
    {"heaviside", [](const V& x) { return heaviside(where(lt(x[0].abs(), 0.5), 0, x[0]), x[1]); }},
    // Differences at rtol's scale, which rounding in low precision would change.
    {"isclose", [](const V& x) { return isclose(x[0], x[0] + x[1] * 1e-5); }, {}},
    {"isclose_tolerances", [](const V& x) { return x[0].isclose(x[1], 0.5, 0.1); }},
    {"cdist", [](const V& x) { return cdist(x[0], x[1]); }},
    {"cdist_batched_p1", [](const V& x) { return cdist(x[0], x[1], 1); }},
    {"cdist_p_half_and_inf",
     [](const V& x) {
       return cdist(x[0], x[1], 0.5) + cdist(x[0], x[1], std::numeric_limits<double>::infinity());
     }},
    {"cdist_by_products", [](const V& x) { return cdist(x[0], x[1]); }},
    {"cdist_products_forced", [](const V& x) { return cdist(x[0], x[1], 2, 1); }},
    {"cov", [](const V& x) { return cov(x[0]); }},
    {"cov_vector_no_correction", [](const V& x) { return x[0].cov(0); }},
    {"cov_weights",
     [](const V& x) {
       return cov(x[0], 1, tensor({1, 2, 0, 3, 1}), x[1]);
     }},
    {"corrcoef", [](const V& x) { return corrcoef(x[0]); }},
};

ACCEL_OP_TEST_SUITE(ComposedOps, "ops_composed.json", kComposedCases);

TEST(ComposedOps, DiagonalIsAViewAndMeshgridExpands) {
  Tensor m = zeros({3, 3});
  diagonal(m).fill_(1);
  EXPECT_TRUE(equal(m, eye(3)));
  const std::vector<Tensor> grid = meshgrid({arange(2.0), arange(3.0)});
  EXPECT_EQ(grid[0].sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(grid[1][1][2].item<double>(), 2.0);
  EXPECT_EQ(diagonal(zeros({2, 2}), -3).numel(), 0);
}

TEST(ComposedOps, DtypeRulesFollowPyTorch) {
  EXPECT_EQ(square(tensor({true, false})).dtype(), kInt64);
  EXPECT_EQ(reciprocal(arange(1, 4)).dtype(), kFloat32);
  EXPECT_EQ(reciprocal(ones({2}, kFloat64)).dtype(), kFloat64);
  EXPECT_TRUE(equal(nan_to_num(arange(3)), arange(3)));
  // Infinities become the dtype's extremes.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(nan_to_num(full({1}, inf, kFloat16)).item<double>(), 65504.0);
  EXPECT_EQ(nan_to_num(full({1}, -inf, kFloat64)).item<double>(),
            std::numeric_limits<double>::lowest());
  EXPECT_EQ(nan_to_num(full({1}, inf)).item<double>(), std::numeric_limits<float>::max());
  // xlogy(0, y) is 0 even for y = 0, but NaN for y = NaN.
  EXPECT_EQ(xlogy(zeros({1}), zeros({1})).item<double>(), 0.0);
  EXPECT_TRUE(std::isnan(xlogy(zeros({1}), full({1}, std::nan(""))).item<double>()));
}

TEST(ComposedOps, IscloseAndTheStepFunctionsAtSpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::nan("");
  const Tensor a = tensor({inf, -inf, nan, 1.0, 1.0});
  const Tensor b = tensor({inf, inf, nan, 1.0 + 1e-6, 1.1});
  EXPECT_TRUE(equal(isclose(a, b), tensor({true, false, false, true, false})));
  EXPECT_TRUE(equal(isclose(a, b, 1e-5, 1e-8, true), tensor({true, false, true, true, false})));
  EXPECT_TRUE(equal(isclose(a, b, 0, 0), tensor({true, false, false, false, false})));
  // Integers compare in the default float type: |3 - 4| <= 0.3 * 4.
  EXPECT_TRUE(equal(isclose(tensor({1, 3}), tensor({2, 4}), 0.3), tensor({false, true})));
  EXPECT_FALSE(isclose(zeros({2}).requires_grad_(), zeros({2})).requires_grad());
  // heaviside and sinc at 0; sinc's gradient there is 0.
  EXPECT_TRUE(equal(heaviside(tensor({-1.0, 0.0, 2.0}), tensor({0.5})), tensor({0.0, 0.5, 1.0})));
  EXPECT_FALSE(heaviside(ones({2}).requires_grad_(), ones({2})).requires_grad());
  const Tensor x = zeros({1}, kFloat64).requires_grad_();
  const Tensor y = sinc(x);
  y.sum().backward();
  EXPECT_EQ(y.item<double>(), 1.0);
  EXPECT_EQ(x.grad().item<double>(), 0.0);
  EXPECT_EQ(sinc(tensor({1})).dtype(), kFloat32);
}

TEST(ComposedOps, DistancesAndCovarianceEdgeCases) {
  // Equal rows: distance 0 and a zero gradient, by differences and by products alike.
  for (int64_t mode : {1, 2}) {
    const Tensor x = ones({2, 3}, kFloat64).requires_grad_();
    const Tensor d = cdist(x, ones({4, 3}, kFloat64), 2, mode);
    d.sum().backward();
    EXPECT_EQ(d.abs().max().item<double>(), 0.0) << "mode " << mode;
    EXPECT_EQ(x.grad().abs().max().item<double>(), 0.0) << "mode " << mode;
  }
  EXPECT_EQ(cdist(zeros({0, 3}), zeros({2, 3})).sizes(), IntArrayRef({0, 2}));
  // p = 0 counts the differing coordinates.
  EXPECT_EQ(cdist(tensor({0.f, 1.f, 2.f}).reshape({1, 3}), zeros({1, 3}), 0).item<float>(), 2.0f);
  // One variable gives a 0-dim covariance; integers give floats.
  EXPECT_EQ(cov(tensor({1, 2, 3, 4})).dim(), 0);
  EXPECT_NEAR(cov(tensor({1, 2, 3, 4})).item<float>(), 5.0f / 3.0f, 1e-6);
  EXPECT_EQ(corrcoef(tensor({1.0, 2.0, 4.0})).item<double>(), 1.0);
  // Too few observations: a warning, then inf or NaN as PyTorch's.
  std::string warning;
  const WarningHandler previous =
      set_warning_handler([&](const std::string& message) { warning = message; });
  EXPECT_TRUE(std::isinf(cov(tensor({1.0, 2.0}), 2).item<double>()));
  set_warning_handler(previous);
  EXPECT_NE(warning.find("cov: degrees of freedom <= 0"), std::string::npos) << warning;
}

TEST(ComposedOps, AddedElementwiseDtypes) {
  EXPECT_EQ(deg2rad(tensor({180})).dtype(), kFloat32);
  EXPECT_NEAR(deg2rad(tensor({180})).item<double>(), 3.14159265, 1e-6);
  EXPECT_EQ(rad2deg(ones({1}, kFloat64)).dtype(), kFloat64);
  EXPECT_EQ(float_power(ones({1}), 2).dtype(), kFloat64);
  EXPECT_EQ(float_power(tensor({2}), tensor({0.5f})).dtype(), kFloat64);
  EXPECT_TRUE(equal(frac(tensor({-1.5, 2.25})), tensor({-0.5, 0.25})));
  EXPECT_TRUE(equal(clip(tensor({-2.0, 0.5, 3.0}), 0, 1), tensor({0.0, 0.5, 1.0})));
  EXPECT_NEAR(logaddexp2(tensor({1.0}), tensor({3.0})).item<double>(), std::log2(10.0), 1e-12);
}

TEST(ComposedOps, ErrorsNameTheOpAndOperands) {
  expect_error_containing(
      [] {
        einsum("ij,jk->ik", {zeros({2, 3})});
      },
      "einsum: the equation \"ij,jk->ik\" has 2 operand terms, but 1 operands");
  expect_error_containing(
      [] {
        einsum("ijk->i", {zeros({2, 3})});
      },
      "einsum: operand 0 has 2 dims (shape [2, 3]), but its term");
  expect_error_containing(
      [] {
        einsum("ij,jk->ik", {zeros({2, 3}), zeros({4, 2})});
      },
      "do not broadcast");
  expect_error_containing([] { einsum("ii->i", {zeros({2, 3})}); }, "repeated in one operand");
  expect_error_containing([] { einsum("ij->k", {zeros({2, 3})}); }, "appears in no operand");
  expect_error_containing([] { einsum("ij->ii", {zeros({2, 3})}); }, "must not repeat");
  expect_error_containing([] { einsum("i1->i", {zeros({2, 3})}); }, "invalid subscript '1'");
  expect_error_containing([] { einsum("..i.->i", {zeros({2, 3})}); }, "three dots");
  expect_error_containing(
      [] {
        tensordot(zeros({2, 3}), zeros({4, 2}), 1);
      },
      "tensordot: contracted dims must match in size");
  expect_error_containing(
      [] {
        cross(zeros({2, 4}), zeros({2, 4}));
      },
      "cross: expected dim -1 to have size 3");
  expect_error_containing(
      [] {
        addmm(zeros({4, 4}), zeros({3, 2}), zeros({2, 4}));
      },
      "addmm: shapes [4, 4] and [3, 4] cannot be broadcast");
  expect_error_containing(
      [] {
        addmm(zeros({2, 1, 4}), zeros({3, 2}), zeros({2, 4}));
      },
      "addmm: expected the input [2, 1, 4] to broadcast to the product's "
      "shape [3, 4]");
  expect_error_containing([] { diagonal(zeros({2, 2}), 0, 1, -1); }, "dim1 and dim2 must differ");
  expect_error_containing([] { roll(zeros({2, 2}), {1, 2}); }, "without dims, expected one shift");
  expect_error_containing([] { meshgrid({zeros({2, 2})}); }, "expected 0-D or 1-D tensors");
  expect_error_containing([] { lerp(zeros({2}), zeros({2}, kFloat64), 0.5); },
                          "lerp: expected start, end of one dtype");
  expect_error_containing(
      [] {
        index_add(zeros({3, 2}), 0, arange(2), zeros({3, 2}));
      },
      "index_add: expected source [3, 2] to match self [3, 2] apart from dim "
      "0, which must hold the index's 2 entries");
  expect_error_containing([] { index_fill(zeros({3, 2}), 1, arange(3), 1); }, "index_fill");
  expect_error_containing([] { index_copy(zeros({3}), 0, arange(1), zeros({1}, kFloat64)); },
                          "index_copy: expected source of dtype float32");
  expect_error_containing([] { addcdiv(zeros({2}), arange(2), arange(1, 3)); },
                          "addcdiv: integer division is not supported");
  expect_error_containing([] { isclose(zeros({2}), zeros({2}, kFloat64)); },
                          "isclose: expected tensors of one dtype, got float32 and float64");
  expect_error_containing([] { isclose(zeros({2}), zeros({2}), -1); },
                          "isclose: rtol and atol must be at least zero, got rtol=-1");
  expect_error_containing(
      [] { heaviside(zeros({2}), zeros({1}, kInt64)); },
      "heaviside: expected input and values of one dtype, got float32 and int64");
  expect_error_containing([] { frac(arange(2)); },
                          "frac: expected a floating-point tensor, got int64");
  expect_error_containing([] { logaddexp2(arange(2), arange(2)); },
                          "logaddexp2: expected a floating-point tensor, got int64");
  expect_error_containing(
      [] {
        cdist(zeros({3}), zeros({2, 3}));
      },
      "cdist: expected x1 and x2 of at least 2 dims, got shapes [3] and [2, 3]");
  expect_error_containing(
      [] {
        cdist(zeros({2, 3}), zeros({2, 4}));
      },
      "cdist: expected x1 and x2 with as many columns");
  expect_error_containing(
      [] {
        cdist(zeros({2, 3}), zeros({2, 3}), -1);
      },
      "cdist: p must be non-negative, got -1");
  expect_error_containing(
      [] {
        cdist(zeros({2, 3}), zeros({2, 3}), 2, 3);
      },
      "cdist: compute_mode must be 0 or unset");
  expect_error_containing(
      [] {
        cdist(arange(4).reshape({2, 2}), zeros({2, 2}));
      },
      "cdist: expected floating-point tensors, got int64 and float32");
  expect_error_containing(
      [] {
        cov(zeros({2, 2, 2}));
      },
      "cov: expected an input of at most 2 dims, got shape [2, 2, 2]");
  expect_error_containing(
      [] {
        cov(zeros({2, 3}), 1, ones({3}));
      },
      "cov: fweights must be integers, got float32");
  expect_error_containing(
      [] {
        cov(zeros({2, 3}), 1, tensor({1, -1, 1}));
      },
      "cov: fweights must be non-negative");
  expect_error_containing(
      [] {
        cov(zeros({2, 3}), 1, {}, ones({2}));
      },
      "cov: expected aweights of one dim with the 3 observations, got shape [2]");
  expect_error_containing(
      [] {
        cov(zeros({2, 3}), 1, {}, zeros({3}));
      },
      "cov: the weights sum to zero");
}

}  // namespace
}  // namespace accel
