// Order statistics (median, nanmedian, kthvalue, mode, msort, quantile, nanquantile): the op table
// against PyTorch fixtures (tests/reference/cases_order_statistics.py), then what fixtures cannot
// show: gradients at equal values and NaN, integer, bool and 0-dim inputs, empty inputs, shapes
// and every error.
#include <gtest/gtest.h>

#include <functional>
#include <limits>

#include "accel/accel.h"
#include "support/expect_error.h"
#include "support/gradient.h"
#include "support/op_harness.h"
#include "support/tensor_compare.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::grad_of;
using testing::OpCase;
using V = std::vector<Tensor>;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// The fixtures' NaN masks (0 or NaN, added to the input).
Tensor some_nan(const Tensor& like) {
  return tensor({0., kNan, 0., 0., kNan, 0., 0., 0., 0., 0., kNan, 0., kNan, 0., 0.})
      .reshape({3, 5})
      .to(like.dtype());
}
Tensor all_nan_row(const Tensor& like) {
  return tensor({0., kNan, 0., 0., kNan, kNan, kNan, kNan, 0., 0., 0., 0.})
      .reshape({3, 4})
      .to(like.dtype());
}

// quantile takes float32 and float64 only, as in PyTorch.
const std::vector<ScalarType> kQuantileDtypes = {kFloat32};

const std::vector<OpCase> kOrderStatisticsCases = {
    {"median_all", [](const V& x) { return x[0].median(); }},
    {"median_all_even", [](const V& x) { return median(x[0]); }},
    {"median_all_int", [](const V& x) { return x[0].median(); }},
    {"median_dim_values", [](const V& x) { return std::get<0>(x[0].median(1)); }},
    {"median_dim_even_values", [](const V& x) { return std::get<0>(median(x[0], -1)); }},
    {"median_dim_indices", [](const V& x) { return std::get<1>(x[0].median(1)); }},
    {"median_dim0_keepdim_values", [](const V& x) { return std::get<0>(x[0].median(0, true)); }},
    {"median_dim0_keepdim_indices", [](const V& x) { return std::get<1>(x[0].median(0, true)); }},
    {"median_ties_values", [](const V& x) { return std::get<0>(x[0].median(1)); }},
    {"median_ties_indices", [](const V& x) { return std::get<1>(x[0].median(1)); }},
    {"median_nan_values",
     [](const V& x) { return std::get<0>((x[0] + some_nan(x[0])).median(1)); }},
    {"median_nan_indices",
     [](const V& x) { return std::get<1>((x[0] + some_nan(x[0])).median(1)); }},
    {"median_all_nan", [](const V& x) { return (x[0] + some_nan(x[0])).median(); }},
    {"nanmedian_all", [](const V& x) { return (x[0] + some_nan(x[0])).nanmedian(); }},
    {"nanmedian_dim_values",
     [](const V& x) { return std::get<0>(nanmedian(x[0] + some_nan(x[0]), 1)); }},
    {"nanmedian_dim_indices",
     [](const V& x) { return std::get<1>((x[0] + some_nan(x[0])).nanmedian(1)); }},
    {"nanmedian_all_nan_row_values",
     [](const V& x) { return std::get<0>((x[0] + all_nan_row(x[0])).nanmedian(1)); }},
    {"nanmedian_keepdim_values",
     [](const V& x) { return std::get<0>((x[0] + some_nan(x[0])).t().nanmedian(0, true)); }},
    {"kthvalue_values", [](const V& x) { return std::get<0>(x[0].kthvalue(2, 1)); }},
    {"kthvalue_indices", [](const V& x) { return std::get<1>(kthvalue(x[0], 2, 1)); }},
    {"kthvalue_last_dim_default", [](const V& x) { return std::get<0>(x[0].kthvalue(4)); }},
    {"kthvalue_dim0_keepdim_values",
     [](const V& x) { return std::get<0>(x[0].kthvalue(1, 0, true)); }},
    {"kthvalue_dim0_keepdim_indices",
     [](const V& x) { return std::get<1>(x[0].kthvalue(3, 0, true)); }},
    {"kthvalue_int", [](const V& x) { return std::get<0>(x[0].kthvalue(3, 1)); }},
    {"kthvalue_nan",
     [](const V& x) { return std::get<0>((x[0] + some_nan(x[0])).kthvalue(4, 1)); }},
    {"mode_values", [](const V& x) { return std::get<0>(x[0].mode(1)); }},
    {"mode_indices", [](const V& x) { return std::get<1>(mode(x[0], 1)); }},
    {"mode_dim0_keepdim_values", [](const V& x) { return std::get<0>(x[0].mode(0, true)); }},
    {"mode_dim0_keepdim_indices", [](const V& x) { return std::get<1>(x[0].mode(0, true)); }},
    {"mode_float_ties_indices",
     [](const V& x) { return std::get<1>((x[0].to(kFloat64) * 0.5).mode()); }},
    {"mode_distinct_values", [](const V& x) { return std::get<0>(x[0].mode(-1)); }},
    {"msort", [](const V& x) { return x[0].msort(); }},
    {"msort_int", [](const V& x) { return msort(x[0]); }},
    {"quantile_all", [](const V& x) { return x[0].quantile(0.3); }, kQuantileDtypes},
    {"quantile_dim", [](const V& x) { return x[0].quantile(0.75, 1); }, kQuantileDtypes},
    {"quantile_dim0_keepdim", [](const V& x) { return quantile(x[0], 0.5, 0, true); },
     kQuantileDtypes},
    {"quantile_all_keepdim", [](const V& x) { return x[0].quantile(0.6, std::nullopt, true); },
     kQuantileDtypes},
    {"quantile_q0", [](const V& x) { return x[0].quantile(0.0, -1); }, kQuantileDtypes},
    {"quantile_q1", [](const V& x) { return x[0].quantile(1.0, -1); }, kQuantileDtypes},
    {"quantile_q_tensor", [](const V& x) { return x[0].quantile(x[1]); }, kQuantileDtypes},
    {"quantile_q_tensor_dim_keepdim", [](const V& x) { return quantile(x[0], x[1], 1, true); },
     kQuantileDtypes},
    {"quantile_q_0dim", [](const V& x) { return x[0].quantile(x[1], 0); }, kQuantileDtypes},
    {"quantile_lower", [](const V& x) { return x[0].quantile(x[1], 1, false, "lower"); },
     kQuantileDtypes},
    {"quantile_higher", [](const V& x) { return x[0].quantile(x[1], 1, false, "higher"); },
     kQuantileDtypes},
    {"quantile_midpoint", [](const V& x) { return x[0].quantile(x[1], 1, false, "midpoint"); },
     kQuantileDtypes},
    {"quantile_nearest", [](const V& x) { return x[0].quantile(x[1], 1, false, "nearest"); },
     kQuantileDtypes},
    {"quantile_nan", [](const V& x) { return (x[0] + some_nan(x[0])).quantile(0.4, 1); },
     kQuantileDtypes},
    {"nanquantile_dim", [](const V& x) { return (x[0] + some_nan(x[0])).nanquantile(x[1], 1); },
     kQuantileDtypes},
    {"nanquantile_all", [](const V& x) { return nanquantile(x[0] + some_nan(x[0]), 0.35); },
     kQuantileDtypes},
    {"nanquantile_all_nan_row",
     [](const V& x) { return (x[0] + all_nan_row(x[0])).nanquantile(0.5, 1); }, kQuantileDtypes},
    {"nanquantile_nearest",
     [](const V& x) { return (x[0] + some_nan(x[0])).nanquantile(0.625, 1, false, "nearest"); },
     kQuantileDtypes},
};

ACCEL_OP_TEST_SUITE(OrderStatisticsOps, "ops_order_statistics.json", kOrderStatisticsCases);

void expect_equal(const Tensor& actual, const Tensor& expected) {
  testing::expect_tensors_close(actual, expected, {}, "result");
}

// ---- median and nanmedian ----

TEST(Median, OfAllElementsSharesTheGradientAmongEqualElements) {
  const Tensor x = tensor({3.0, 1.0, 2.0, 2.0, 5.0, 2.0});
  expect_equal(x.median(), scalar_tensor(2.0, kFloat64));
  expect_equal(grad_of([](const Tensor& t) { return t.median(); }, x),
               tensor({0.0, 0.0, 1.0 / 3, 1.0 / 3, 0.0, 1.0 / 3}));
  expect_equal(grad_of([](const Tensor& t) { return t.nanmedian(); }, x),
               tensor({0.0, 0.0, 1.0 / 3, 1.0 / 3, 0.0, 1.0 / 3}));
  // A NaN median shares it among the NaNs; nanmedian among the numbers equal to it.
  const Tensor with_nan = tensor({1.0, kNan, 2.0, kNan});
  expect_equal(with_nan.median(), scalar_tensor(kNan, kFloat64));
  expect_equal(grad_of([](const Tensor& t) { return t.median(); }, with_nan, scalar_tensor(4.0)),
               tensor({0.0, 2.0, 0.0, 2.0}));
  const Tensor one_nan = tensor({1.0, kNan, 2.0, 1.0});
  expect_equal(one_nan.nanmedian(), scalar_tensor(1.0, kFloat64));
  expect_equal(grad_of([](const Tensor& t) { return t.nanmedian(); }, one_nan),
               tensor({0.5, 0.0, 0.0, 0.5}));
  expect_equal(tensor({kNan, kNan}).nanmedian(), scalar_tensor(kNan, kFloat64));
  // A row of NaN only gives its first NaN (PyTorch's CPU index there is std::nth_element's pick
  // among elements that all compare equal: 2 of these 4).
  const auto [v, i] = full({4}, kNan).nanmedian(0);
  expect_equal(v, scalar_tensor(kNan, kFloat32));
  expect_equal(i, scalar_tensor(0, kInt64));
}

TEST(Median, EvenCountsTakeTheLowerMiddleValue) {
  expect_equal(tensor({4.0, 1.0, 3.0, 2.0}).median(), scalar_tensor(2.0, kFloat64));
  expect_equal(std::get<0>(tensor({4, 1, 3, 2}).reshape({2, 2}).median(1)), tensor({1, 2}));
}

TEST(Median, AlongADimTiesAndNaN) {
  const Tensor x =
      tensor({2.0, 1.0, 2.0, 2.0, 0.0, 2.0, kNan, 1.0, kNan, 0.0, 3.0, 3.0}).reshape({2, 6});
  const auto [values, indices] = x.median(1);
  expect_equal(values, tensor({2.0, kNan}));
  expect_equal(indices, tensor({0, 0}));  // the first of the tied 2s; the first NaN
  const auto [numbers, at] = x.nanmedian(1);
  expect_equal(numbers, tensor({2.0, 1.0}));
  expect_equal(at, tensor({0, 1}));
  // The gradient goes to the returned index only.
  expect_equal(
      grad_of([](const Tensor& t) { return std::get<0>(t.median(1)); }, x, tensor({5.0, 7.0})),
      tensor({5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0, 0.0, 0.0, 0.0, 0.0, 0.0}).reshape({2, 6}));
  expect_equal(
      grad_of([](const Tensor& t) { return std::get<0>(t.nanmedian(1)); }, x),
      tensor({1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0}).reshape({2, 6}));
  EXPECT_FALSE(indices.requires_grad());
}

TEST(Median, KeepdimNegativeDimsAndZeroDim) {
  const Tensor x = arange(24, kFloat32).reshape({2, 3, 4});
  EXPECT_EQ(std::get<0>(x.median(-2, true)).sizes(), IntArrayRef({2, 1, 4}));
  EXPECT_EQ(std::get<1>(x.median(-2, true)).sizes(), IntArrayRef({2, 1, 4}));
  EXPECT_EQ(std::get<0>(x.median(-1)).sizes(), IntArrayRef({2, 3}));
  expect_equal(std::get<0>(x.median(-2)), std::get<0>(x.median(1)));
  EXPECT_EQ(std::get<0>(x.median(0)).dtype(), kFloat32);
  const Tensor s = scalar_tensor(3.0);
  for (bool keepdim : {false, true}) {
    const auto [v, i] = s.median(0, keepdim);
    expect_equal(v, scalar_tensor(3.0));
    expect_equal(i, scalar_tensor(0, kInt64));
  }
  expect_equal(std::get<0>(s.nanmedian(-1)), scalar_tensor(3.0));
}

TEST(Median, IntegerInputsKeepTheirDtype) {
  expect_equal(tensor({5, 1, 5, 5, 1, 1, 3}).median(), scalar_tensor(3, kInt64));
  const auto [v, i] = tensor({5, 1, 5, 5, 1, 1, 3}).median(0);
  expect_equal(v, scalar_tensor(3, kInt64));
  expect_equal(i, scalar_tensor(6, kInt64));
  expect_equal(tensor({7, 2, 9}).to(kUInt8).nanmedian(), scalar_tensor(7, kUInt8));
  expect_equal(std::get<0>(tensor({7, 2, 9, 4}).to(kInt32).median(0)), scalar_tensor(4, kInt32));
  expect_equal(tensor({3.0, 1.0, 2.0}).to(kBFloat16).median(), scalar_tensor(2.0, kBFloat16));
}

TEST(Median, EmptyInputs) {
  // Over all elements: NaN for a floating tensor, as in PyTorch; an integer one has no NaN.
  expect_equal(zeros({0, 3}).median(), scalar_tensor(kNan, kFloat32));
  expect_equal(zeros({0}).nanmedian(), scalar_tensor(kNan, kFloat32));
  expect_error_containing([] { zeros({0}, kInt64).median(); },
                          "median: cannot compute on an empty int64 tensor (shape [0])");
  // Along an empty dim: an error; along another dim: an empty result.
  expect_error_containing(
      [] {
        zeros({0, 3}).median(0);
      },
      "median: expected reduction dim 0 to have non-zero size, got shape [0, 3]");
  expect_error_containing(
      [] {
        zeros({2, 0}).nanmedian(-1);
      },
      "nanmedian: expected reduction dim 1 to have non-zero size");
  const auto [v, i] = zeros({0, 3}).median(1);
  EXPECT_EQ(v.sizes(), IntArrayRef({0}));
  EXPECT_EQ(i.sizes(), IntArrayRef({0}));
  EXPECT_EQ(i.dtype(), kInt64);
}

TEST(Median, Errors) {
  const Tensor b = tensor({1, 0, 1}).to(kBool);
  expect_error_containing([&] { b.median(); }, "median: expected a numeric tensor, got bool");
  expect_error_containing([&] { b.nanmedian(0); },
                          "nanmedian: expected a numeric tensor, got bool");
  expect_error_containing([] { ones({2, 3}).median(2); }, "got 2");
  expect_error_containing([] { ones({2, 3}).nanmedian(-3); }, "got -3");
  expect_error_containing([] { median(Tensor()); }, "median: the tensor is undefined");
}

// ---- kthvalue ----

TEST(Kthvalue, SelectsTheKthSmallestWithTheGradientAtItsIndex) {
  // The equal 1s rank in order of index (PyTorch's CPU quickselect swaps them: 4, then 1).
  const Tensor x = tensor({5.0, 1.0, kNan, 3.0, 1.0});
  const double expected[] = {1.0, 1.0, 3.0, 5.0, kNan};
  const int64_t expected_index[] = {1, 4, 3, 0, 2};
  for (int64_t k = 1; k <= 5; ++k) {
    const auto [v, i] = x.kthvalue(k);
    expect_equal(v, scalar_tensor(expected[k - 1], kFloat64));
    expect_equal(i, scalar_tensor(expected_index[k - 1], kInt64));
  }
  expect_equal(grad_of([](const Tensor& t) { return std::get<0>(t.kthvalue(2)); }, x),
               tensor({0.0, 0.0, 0.0, 0.0, 1.0}));
  const Tensor m = arange(12, kInt64).reshape({3, 4}).flip({1});
  const auto [v, i] = m.kthvalue(1, 0, true);
  expect_equal(v, tensor({3, 2, 1, 0}).reshape({1, 4}));
  expect_equal(i, tensor({0, 0, 0, 0}).reshape({1, 4}));
  expect_equal(std::get<0>(scalar_tensor(3.0).kthvalue(1)), scalar_tensor(3.0));
}

TEST(Kthvalue, Errors) {
  const Tensor x = ones({2, 5});
  expect_error_containing([&] { x.kthvalue(0); },
                          "kthvalue: k (0) is out of range for dimension 1 of size 5 ([2, 5])");
  expect_error_containing([&] { x.kthvalue(3, 0); },
                          "kthvalue: k (3) is out of range for dimension 0 of size 2");
  expect_error_containing([] { scalar_tensor(1.0).kthvalue(2); }, "k (2) is out of range");
  expect_error_containing([&] { x.kthvalue(1, 2); }, "got 2");
  expect_error_containing(
      [] {
        zeros({2, 0}).kthvalue(1);
      },
      "kthvalue: expected reduction dim 1 to have non-zero size");
  expect_error_containing(
      [] {
        tensor({1, 0}).to(kBool).kthvalue(1);
      },
      "kthvalue: expected a numeric tensor, got bool");
  EXPECT_EQ(std::get<0>(zeros({0, 3}).kthvalue(2, 1)).sizes(), IntArrayRef({0}));
}

// ---- mode ----

TEST(Mode, TheSmallestOfTheMostFrequentAtItsLastOccurrence) {
  auto expect_mode = [](const Tensor& x, const Tensor& value, int64_t index) {
    const auto [v, i] = x.mode();
    expect_equal(v, value);
    expect_equal(i, scalar_tensor(index, kInt64));
  };
  expect_mode(tensor({1, 2, 2, 3, 3, 1}), scalar_tensor(1, kInt64), 5);
  expect_mode(tensor({3.0, 2.0, 2.0, 3.0, 1.0}), scalar_tensor(2.0, kFloat64), 2);
  expect_mode(tensor({3.0, 2.0, 1.0}), scalar_tensor(1.0, kFloat64), 2);
  // NaN equals nothing: each NaN counts once.
  expect_mode(tensor({kNan, kNan, 1.0, 1.0}), scalar_tensor(1.0, kFloat64), 3);
  expect_mode(tensor({1, 0, 1}).to(kBool), scalar_tensor(true, kBool), 2);
  expect_mode(scalar_tensor(4.0), scalar_tensor(4.0), 0);
  // The gradient goes to the returned occurrence.
  expect_equal(grad_of([](const Tensor& t) { return std::get<0>(t.mode()); },
                       tensor({1.0, 2.0, 2.0, 3.0, 3.0, 1.0})),
               tensor({0.0, 0.0, 0.0, 0.0, 0.0, 1.0}));
}

TEST(Mode, AlongDimsWithKeepdim) {
  const Tensor x = tensor({1, 2, 2, 1, 3, 3, 1, 1}).reshape({2, 4});
  const auto [v, i] = x.mode(1);
  expect_equal(v, tensor({1, 1}));
  expect_equal(i, tensor({3, 3}));
  const auto [v0, i0] = x.mode(-2, true);
  expect_equal(v0, tensor({1, 2, 1, 1}).reshape({1, 4}));
  expect_equal(i0, tensor({0, 0, 1, 1}).reshape({1, 4}));
  expect_error_containing([] { zeros({0}).mode(); },
                          "mode: expected reduction dim 0 to have non-zero size");
  EXPECT_EQ(std::get<1>(zeros({0, 3}).mode(1)).sizes(), IntArrayRef({0}));
  expect_error_containing([&] { x.mode(2); }, "got 2");
}

// ---- msort ----

TEST(Msort, SortsAlongTheFirstDim) {
  const Tensor x = tensor({3, 1, 2, 5, 1, 0}).reshape({3, 2});
  expect_equal(x.msort(), tensor({1, 0, 2, 1, 3, 5}).reshape({3, 2}));
  expect_equal(msort(tensor({1, 0, 1}).to(kBool)), tensor({0, 1, 1}).to(kBool));
  expect_equal(grad_of([](const Tensor& t) { return t.msort(); }, tensor({2.0, 1.0, 2.0, 2.0}),
                       tensor({1.0, 2.0, 3.0, 4.0})),
               tensor({2.0, 1.0, 3.0, 4.0}));
  expect_equal(msort(scalar_tensor(2.0)), scalar_tensor(2.0));
  EXPECT_EQ(msort(zeros({0, 3})).sizes(), IntArrayRef({0, 3}));
}

// ---- quantile and nanquantile ----

TEST(Quantile, InterpolationsAndNearestRoundsHalvesToEven) {
  const Tensor x = arange(5, kFloat64);
  const Tensor q = tensor({0.125, 0.375, 0.625, 0.875});
  expect_equal(x.quantile(q), tensor({0.5, 1.5, 2.5, 3.5}));
  expect_equal(x.quantile(q, 0, false, "lower"), tensor({0.0, 1.0, 2.0, 3.0}));
  expect_equal(x.quantile(q, 0, false, "higher"), tensor({1.0, 2.0, 3.0, 4.0}));
  expect_equal(x.quantile(q, 0, false, "midpoint"), tensor({0.5, 1.5, 2.5, 3.5}));
  expect_equal(x.quantile(q, 0, false, "nearest"), tensor({0.0, 2.0, 2.0, 4.0}));
  expect_equal(arange(5, kFloat32).quantile(0.375, std::nullopt, false, "nearest"),
               scalar_tensor(2.0, kFloat32));
}

TEST(Quantile, GradientReachesTheInputAndALinearQ) {
  Tensor x = tensor({1.0, 5.0, 2.0, 4.0}).requires_grad_();
  Tensor q = tensor({0.25, 0.6}).requires_grad_();
  const Tensor out = x.quantile(q);
  testing::expect_tensors_close(out.detach(), tensor({1.75, 3.6}), {.atol = 1e-15}, "quantile");
  out.sum().backward();
  testing::expect_tensors_close(x.grad(), tensor({0.25, 0.0, 0.95, 0.8}), {.atol = 1e-15},
                                "input gradient");
  testing::expect_tensors_close(q.grad(), tensor({3.0, 6.0}), {.atol = 1e-14}, "q gradient");
  // Equal values take the gradients of the ranks the stable sort gives them (as PyTorch's sort
  // does for rows this short).
  testing::expect_tensors_close(grad_of(
                                    [](const Tensor& t) {
                                      return t.quantile(tensor({0.5, 0.9}));
                                    },
                                    tensor({2.0, 1.0, 2.0, 2.0}), tensor({1.0, 10.0})),
                                tensor({0.5, 0.0, 3.5, 7.0}), {.atol = 1e-14}, "gradient at ties");
}

TEST(Quantile, Shapes) {
  const Tensor x = randn({2, 3, 4});
  const Tensor q = tensor({0.5, 0.2}).to(kFloat32);
  EXPECT_EQ(x.quantile(q, 1, true).sizes(), IntArrayRef({2, 2, 1, 4}));
  EXPECT_EQ(x.quantile(q, -1).sizes(), IntArrayRef({2, 2, 3}));
  EXPECT_EQ(x.quantile(q, std::nullopt, true).sizes(), IntArrayRef({2, 1, 1, 1}));
  EXPECT_EQ(x.quantile(scalar_tensor(0.5, kFloat32), std::nullopt, true).sizes(),
            IntArrayRef({1, 1, 1}));
  EXPECT_EQ(x.quantile(0.3).sizes(), IntArrayRef({}));
  EXPECT_EQ(x.nanquantile(empty({0}, kFloat32), 0).sizes(), IntArrayRef({0, 3, 4}));
  const Tensor s = scalar_tensor(3.0, kFloat64);
  expect_equal(s.quantile(0.2, 0, true), scalar_tensor(3.0, kFloat64));
  expect_equal(s.quantile(tensor({0.5, 0.2}), 0, true), tensor({3.0, 3.0}));
}

TEST(Quantile, NaN) {
  const Tensor x = tensor({kNan, 1.0, 3.0});
  expect_equal(x.quantile(0.5), scalar_tensor(kNan, kFloat64));
  expect_equal(x.nanquantile(0.5), scalar_tensor(2.0, kFloat64));
  expect_equal(tensor({kNan, kNan}).nanquantile(0.5), scalar_tensor(kNan, kFloat64));
}

TEST(Quantile, Errors) {
  const Tensor x = tensor({1.0, 2.0, 3.0});
  expect_error_containing([&] { x.quantile(1.5); },
                          "quantile: expected q in the range [0, 1], got 1.5");
  expect_error_containing([&] { x.nanquantile(-0.1); },
                          "nanquantile: expected q in the range [0, 1], got -0.1");
  expect_error_containing([&] { x.quantile(kNan); }, "got nan");
  expect_error_containing(
      [&] {
        x.quantile(tensor({0.5, 1.5}));
      },
      "quantile: expected q values in the range [0, 1], got values from 0.5 to 1.5");
  expect_error_containing(
      [&] {
        x.quantile(tensor({0.5}).reshape({1, 1}));
      },
      "quantile: expected q to be a number, a 0-dim or a 1-D tensor, got shape [1, 1]");
  expect_error_containing([&] { x.quantile(tensor({0.5}).to(kFloat32)); },
                          "quantile: expected q of the input's dtype float64, got float32");
  expect_error_containing([&] { x.quantile(0.5, std::nullopt, false, "foo"); },
                          "quantile: expected interpolation linear, lower, higher, midpoint or "
                          "nearest, got 'foo'");
  expect_error_containing(
      [] {
        tensor({1, 2}).quantile(0.5);
      },
      "quantile: expected a float32 or float64 input tensor, got int64");
  expect_error_containing([] { ones({2}, kBFloat16).nanquantile(0.5); },
                          "nanquantile: expected a float32 or float64 input tensor, got bfloat16");
  expect_error_containing(
      [] {
        zeros({0, 3}).quantile(0.5, 1);
      },
      "quantile: expected a non-empty input tensor, got shape [0, 3]");
  expect_error_containing([&] { x.quantile(0.5, 1); }, "got 1");
  expect_error_containing([] { zeros({(int64_t{1} << 24) + 1}).quantile(0.5); },
                          "quantile: expected at most 16777216 elements to reduce, got 16777217");
}

}  // namespace
}  // namespace accel
