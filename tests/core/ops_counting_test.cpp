// bincount, histc, count_nonzero, searchsorted, bucketize, unique, unique_consecutive and isin:
// the PyTorch-fixture table (tests/reference/cases_counting.py) plus dtypes, ties, NaN, empty
// inputs, gradients and every error.
#include <cmath>
#include <limits>

#include "support/expect_error.h"
#include "support/op_harness.h"
#include "support/thread_count.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;

Tensor sorted_last(const Tensor& t) { return std::get<0>(sort(t, -1)); }

// Index results do not depend on the dtype, but values drawn apart may round to one 16-bit
// float, so the searches among drawn values check float32 only. Weighted bincount sums weights
// other than float32 in float64, histc bins values rounded to the dtype, and integer inputs halved
// give float32: those cases check float32 only.
const std::vector<ScalarType> kFloat32Only = {kFloat32};

const std::vector<OpCase> kCountingCases = {
    {"bincount", [](const V& x) { return bincount(x[0]); }},
    {"bincount_minlength", [](const V& x) { return x[0].bincount({}, 9); }},
    {"bincount_weights", [](const V& x) { return bincount(x[0], x[1]); }, kFloat32Only},
    {"histc", [](const V& x) { return histc(x[0], 5, -1, 1.5); }, kFloat32Only},
    {"histc_data_range", [](const V& x) { return x[0].histc(6); }, kFloat32Only},
    {"histc_on_edges", [](const V& x) { return histc(x[0], 4, -1, 1); }},
    {"count_nonzero", [](const V& x) { return count_nonzero(x[0]); }},
    {"count_nonzero_dims",
     [](const V& x) {
       return (x[0] * 0.5).count_nonzero({0, 2});
     }},
    {"searchsorted", [](const V& x) { return searchsorted(sorted_last(x[0]), x[1]); },
     kFloat32Only},
    {"searchsorted_ties_left", [](const V& x) { return searchsorted(sorted_last(x[0]), x[1]); }},
    {"searchsorted_ties_right",
     [](const V& x) { return searchsorted(sorted_last(x[0]), x[1], false, true); }},
    {"searchsorted_batched",
     [](const V& x) { return searchsorted(sorted_last(x[0]), x[1], false, false, "right"); },
     kFloat32Only},
    {"searchsorted_sorter",
     [](const V& x) { return searchsorted(x[0], x[1], false, false, std::nullopt, argsort(x[0])); },
     kFloat32Only},
    {"bucketize", [](const V& x) { return bucketize(x[0], sorted_last(x[1])); }, kFloat32Only},
    {"bucketize_right",
     [](const V& x) { return bucketize(x[0] * 0.5, sorted_last(x[1]) * 0.5, false, true); }},
    {"unique", [](const V& x) { return std::get<0>(unique(x[0] * 0.5)); }, kFloat32Only},
    {"unique_inverse", [](const V& x) { return std::get<1>(unique(x[0] * 0.5, true, true)); }},
    {"unique_counts",
     [](const V& x) { return std::get<2>(unique(x[0] * 0.5, true, false, true)); }},
    {"unique_dim0", [](const V& x) { return std::get<0>(unique(x[0], true, false, false, 0)); }},
    {"unique_dim0_inverse",
     [](const V& x) { return std::get<1>(unique(x[0], true, true, false, 0)); }},
    {"unique_dim0_counts",
     [](const V& x) { return std::get<2>(x[0].unique(true, false, true, 0)); }},
    {"unique_dim1",
     [](const V& x) { return std::get<0>(unique(x[0] * 0.5, true, false, false, 1)); },
     kFloat32Only},
    {"unique_consecutive", [](const V& x) { return std::get<0>(unique_consecutive(x[0] * 0.5)); },
     kFloat32Only},
    {"unique_consecutive_inverse",
     [](const V& x) { return std::get<1>(unique_consecutive(x[0], true)); }},
    {"unique_consecutive_counts",
     [](const V& x) { return std::get<2>(x[0].unique_consecutive(false, true)); }},
    {"unique_consecutive_dim0",
     [](const V& x) { return std::get<0>(unique_consecutive(x[0], false, false, 0)); }},
    {"isin", [](const V& x) { return isin(x[0], x[1]); }},
    {"isin_invert", [](const V& x) { return isin(x[0] * 0.5, x[1] * 0.5, false, true); }},
    {"bincount_long", [](const V& x) { return bincount(x[0]); }},
    {"histc_long", [](const V& x) { return histc(x[0], 13, -2, 2); }, kFloat32Only},
    {"searchsorted_batched_ties_left",
     [](const V& x) { return searchsorted(sorted_last(x[0]), x[1]); }},
    {"searchsorted_batched_ties_right",
     [](const V& x) { return searchsorted(sorted_last(x[0]), x[1], false, true); }},
    {"unique_long_inverse", [](const V& x) { return std::get<1>(unique(x[0], true, true)); }},
    {"unique_long_counts", [](const V& x) { return std::get<2>(unique(x[0], true, false, true)); }},
    {"unique_dim0_long_inverse",
     [](const V& x) { return std::get<1>(unique(x[0], true, true, false, 0)); }},
    {"isin_long", [](const V& x) { return isin(x[0], x[1]); }},
};

ACCEL_OP_TEST_SUITE(CountingOps, "ops_counting.json", kCountingCases);

const double kNan = std::nan("");
const double kInf = std::numeric_limits<double>::infinity();

void expect_values(const Tensor& actual, const Tensor& expected) {
  EXPECT_EQ(actual.dtype(), expected.dtype());
  EXPECT_EQ(actual.sizes(), expected.sizes());
  EXPECT_TRUE(actual.equal(expected)) << actual << "\nexpected\n" << expected;
}

TEST(Bincount, DtypesAndLengths) {
  expect_values(bincount(tensor({0, 1, 1, 3})), tensor({1, 2, 0, 1}));
  expect_values(bincount(tensor({1, 2}).to(kInt32)), tensor({0, 1, 1}));
  expect_values(bincount(tensor({1, 2}).to(kUInt8), {}, 4), tensor({0, 1, 1, 0}));
  expect_values(bincount(zeros({0}, kInt64)), zeros({0}, kInt64));
  expect_values(bincount(zeros({0}, kInt64), {}, 3), zeros({3}, kInt64));
  const Tensor x = tensor({0, 1, 1, 3});
  expect_values(bincount(x, tensor({1.f, 2.f, 3.f, 4.f})), tensor({1.f, 5.f, 0.f, 4.f}));
  // Weights of any dtype but float32 are summed in float64, as PyTorch does.
  expect_values(bincount(x, tensor({1, 2, 3, 4})), tensor({1.0, 5.0, 0.0, 4.0}));
  expect_values(bincount(x, tensor({1.f, 2.f, 3.f, 4.f}).to(kBFloat16)),
                tensor({1.0, 5.0, 0.0, 4.0}));
}

// Long inputs into few bins count on every thread, each into its own copy of the bins.
TEST(Bincount, LongInputsCountTheSameOnAnyThreadCount) {
  manual_seed(9);
  const Tensor labels = randint(0, 50, {200000});
  std::vector<int64_t> expected(50, 0);
  for (int64_t i = 0; i < labels.numel(); ++i) expected[labels.data_ptr<int64_t>()[i]] += 1;
  for (int threads : {1, 4}) {
    testing::ThreadCount scope(threads);
    EXPECT_TRUE(labels.bincount().equal(tensor(expected))) << threads << " threads";
    EXPECT_TRUE(zeros({50}, kInt32)
                    .index_add(0, labels, ones({200000}, kInt32))
                    .equal(tensor(expected).to(kInt32)))
        << threads << " threads";
  }
}

TEST(Bincount, Errors) {
  expect_error_containing([] { (void)bincount(tensor({1.f, 2.f})); }, "float32");
  expect_error_containing([] { (void)bincount(tensor({true, false})); }, "bool");
  expect_error_containing([] { (void)bincount(tensor({{1, 2}})); }, "[1, 2]");
  expect_error_containing([] { (void)bincount(scalar_tensor(1, kInt64)); }, "bincount");
  expect_error_containing([] { (void)bincount(tensor({-1, 2})); }, "-1");
  expect_error_containing([] { (void)bincount(tensor({1, 2}), ones({3})); }, "[3]");
  expect_error_containing([] { (void)bincount(tensor({1, 2}), ones({2, 1})); }, "[2, 1]");
  expect_error_containing([] { (void)bincount(tensor({1, 2}), {}, -1); }, "minlength");
}

TEST(Histc, RangeRules) {
  const Tensor h = tensor({1.f, 2.f, 1.f, 4.f, 2.5f, -1.f, 7.f});
  expect_values(histc(h, 4, 0, 4), tensor({0.f, 2.f, 2.f, 1.f}));  // max in the last bin
  expect_values(histc(h, 4), tensor({1.f, 4.f, 1.f, 1.f}));        // the data's range
  expect_values(histc(tensor({3.f, 3.f, 3.f}), 4), tensor({0.f, 0.f, 3.f, 0.f}));  // widened
  expect_values(histc(tensor({1.f, 2.f, 3.f}), 2, 5, 5), tensor({1.f, 2.f}));
  expect_values(histc(zeros({0}), 4), zeros({4}));
  expect_values(histc(scalar_tensor(2.0, kFloat32), 3), tensor({0.f, 1.f, 0.f}));
  // NaN and infinities outside a given range are ignored.
  expect_values(histc(tensor({1.f, float(kNan), float(kInf), -float(kInf)}), 4, 0, 2),
                tensor({0.f, 0.f, 1.f, 0.f}));
  for (ScalarType t : {kFloat64, kBFloat16, kFloat16}) {
    expect_values(histc(h.to(t), 4), tensor({1.f, 4.f, 1.f, 1.f}).to(t));
  }
}

TEST(Histc, Errors) {
  const Tensor h = tensor({1.f, 2.f});
  expect_error_containing([] { (void)histc(tensor({1, 2}), 4); }, "int64");
  expect_error_containing([&] { (void)histc(h, 0); }, "bins");
  expect_error_containing([&] { (void)histc(h, 4, 3, 1); }, "max must be larger than min");
  expect_error_containing([] { (void)histc(tensor({1.f, float(kNan)}), 4); }, "not finite");
  expect_error_containing([] { (void)histc(tensor({1.f, float(kInf)}), 4); }, "not finite");
  expect_error_containing([&] { (void)histc(h, 4, 0, kInf); }, "not finite");
}

TEST(CountNonzero, DimsAndDtypes) {
  const Tensor a = tensor({{0.0, 1.5}, {0.0, kNan}});
  expect_values(count_nonzero(a), scalar_tensor(2, kInt64));
  expect_values(count_nonzero(a, 1), tensor({1, 1}));
  expect_values(count_nonzero(a, {-1, 0}), scalar_tensor(2, kInt64));
  expect_values(scalar_tensor(true, kBool).count_nonzero(), scalar_tensor(1, kInt64));
  expect_error_containing([&] { (void)count_nonzero(a, 2); }, "2");
}

TEST(Searchsorted, SidesTiesAndNan) {
  const Tensor s = tensor({1.0, 3.0, 3.0, 5.0});
  const Tensor v = tensor({{0.0, 3.0, 6.0, kNan, 5.0}});
  expect_values(searchsorted(s, v), tensor({{0, 1, 4, 4, 3}}));
  expect_values(searchsorted(s, v, false, true), tensor({{0, 3, 4, 4, 4}}));
  expect_values(searchsorted(s, v, false, false, "right"), tensor({{0, 3, 4, 4, 4}}));
  expect_values(searchsorted(s, v, false, true, "right"), tensor({{0, 3, 4, 4, 4}}));
  expect_values(searchsorted(s, v, true), tensor({{0, 1, 4, 4, 3}}).to(kInt32));
  expect_values(searchsorted(s, 3.0), scalar_tensor(1, kInt64));
  expect_values(searchsorted(s, 3, false, true), scalar_tensor(3, kInt64));
  expect_values(searchsorted(s, scalar_tensor(2.0, kFloat64)), scalar_tensor(1, kInt64));
  // The two dtypes promote before comparing.
  expect_values(searchsorted(tensor({1, 2, 3}), tensor({2.5, 5.0})), tensor({2, 3}));
  expect_values(searchsorted(s.to(kBFloat16), tensor({2, 3})), tensor({1, 1}));
  expect_values(searchsorted(zeros({0}), tensor({2.5f})), tensor({0}));
  expect_values(searchsorted(s, zeros({0}, kFloat64)), zeros({0}, kInt64));
  // Batched: each row of values searches its own row of the sequence.
  expect_values(searchsorted(tensor({{1, 2, 3}, {4, 5, 6}}), tensor({{2, 5}, {5, 7}})),
                tensor({{1, 3}, {1, 3}}));
  expect_values(searchsorted(tensor({3.0, 1.0, 2.0}), tensor({2.5}), false, false, std::nullopt,
                             tensor({1, 2, 0})),
                tensor({2}));
}

TEST(Searchsorted, Errors) {
  const Tensor s = tensor({1.0, 2.0, 3.0});
  const Tensor v = tensor({2.0});
  expect_error_containing([&] { (void)searchsorted(s, v, false, true, "left"); }, "opposites");
  expect_error_containing([&] { (void)searchsorted(s, v, false, false, "middle"); }, "middle");
  expect_error_containing(
      [] {
        (void)searchsorted(tensor({{1, 2, 3}, {4, 5, 6}}), tensor({{2, 5}}));
      },
      "[1, 2]");
  expect_error_containing(
      [] {
        (void)searchsorted(tensor({{1, 2, 3}, {4, 5, 6}}), tensor({2, 5}));
      },
      "[2, 3]");
  expect_error_containing([&] { (void)searchsorted(scalar_tensor(1.0, kFloat64), v); }, "0-dim");
  expect_error_containing([] { (void)searchsorted(tensor({true}), tensor({true})); },
                          "searchsorted: bool tensors are not supported");
  const auto with_sorter = [&](const Tensor& sorter) {
    return [&, sorter] { (void)searchsorted(s, v, false, false, std::nullopt, sorter); };
  };
  expect_error_containing(with_sorter(tensor({1, 2})), "[2]");
  expect_error_containing(with_sorter(tensor({{0, 1, 2}})), "[1, 3]");
  expect_error_containing(with_sorter(tensor({0, 1, 3})), "[0, 3)");
  expect_error_containing(with_sorter(tensor({0, 1, 2}).to(kInt32)), "int32");
}

TEST(Bucketize, ScalarsAndErrors) {
  const Tensor b = tensor({1.0, 3.0, 3.0, 5.0});
  expect_values(bucketize(3.0, b, false, true), scalar_tensor(3, kInt64));
  expect_values(bucketize(scalar_tensor(3.0, kFloat64), b), scalar_tensor(1, kInt64));
  expect_values(bucketize(tensor({0.0, 9.0}), b, true), tensor({0, 4}).to(kInt32));
  expect_error_containing([&] { (void)bucketize(tensor({1.0}), b.view({1, 4})); }, "[1, 4]");
  expect_error_containing([] { (void)bucketize(1.0, scalar_tensor(1.0, kFloat64)); }, "1-D");
}

TEST(Unique, NanNegativeZeroAndInverse) {
  const Tensor x = tensor({2.0, kNan, 1.0, 2.0, kNan, -0.0, 0.0, 1.0});
  const auto [values, inverse, counts] = unique(x, true, true, true);
  ASSERT_EQ(values.sizes(), IntArrayRef({5}));
  EXPECT_TRUE(values.narrow(0, 0, 3).equal(tensor({0.0, 1.0, 2.0})));
  EXPECT_TRUE(std::signbit(values[0].item<double>()));  // the first of -0 and 0, as PyTorch
  EXPECT_TRUE(isnan(values.narrow(0, 3, 2)).all().item<bool>());  // each NaN is distinct
  expect_values(inverse, tensor({2, 3, 1, 2, 4, 0, 0, 1}));
  expect_values(counts, tensor({2, 2, 2, 1, 1}));
}

TEST(Unique, ShapesDtypesAndEmpty) {
  const auto [values, inverse, counts] = unique(tensor({{3, 1}, {1, 3}}), false, true);
  expect_values(values, tensor({1, 3}));
  expect_values(inverse, tensor({{1, 0}, {0, 1}}));
  expect_values(counts, zeros({0}, kInt64));  // not asked for
  const auto [b, b_inverse, b_counts] = unique(tensor({true, false, true}), true, false, true);
  expect_values(b, tensor({false, true}));
  expect_values(b_inverse, zeros({0}, kInt64));
  expect_values(b_counts, tensor({1, 2}));
  const auto [s, s_inverse, s_counts] = unique(scalar_tensor(3.0, kFloat64), true, true, true);
  expect_values(s, tensor({3.0}));
  expect_values(s_inverse, scalar_tensor(0, kInt64));
  expect_values(s_counts, tensor({1}));
  const auto [e, e_inverse, e_counts] = unique(zeros({0}), true, true, true);
  expect_values(e, zeros({0}));
  expect_values(e_inverse, zeros({0}, kInt64));
  expect_values(e_counts, zeros({0}, kInt64));
}

// Integers of a narrow range are counted, not sorted: the same values, inverse and counts as
// the sort gives their float64 copies, for several integer dtypes, negative values, a 0-dim
// input and a shaped one; a range too wide to count (the int64 extremes) still sorts.
TEST(Unique, CountedIntegersMatchSortedOnes) {
  manual_seed(3);
  const Tensor long_values = randint(-40, 60, {5000});
  const Tensor cases[] = {long_values,
                          long_values.to(kInt32).reshape({50, 100}),
                          randint(0, 256, {3000}).to(kUInt8),
                          randint(-300, 300, {700}).to(kInt32),
                          scalar_tensor(7, kInt64),
                          tensor({5, 5, 5})};
  for (const Tensor& x : cases) {
    const auto [values, inverse, counts] = unique(x, true, true, true);
    const auto [sorted_values, sorted_inverse, sorted_counts] =
        unique(x.to(kFloat64), true, true, true);
    expect_values(values, sorted_values.to(x.dtype()));
    expect_values(inverse, sorted_inverse);
    expect_values(counts, sorted_counts);
  }
  const int64_t lowest = std::numeric_limits<int64_t>::min();
  const int64_t highest = std::numeric_limits<int64_t>::max();
  const auto [values, inverse, counts] =
      unique(tensor({highest, lowest, int64_t(0), highest}), true, true, true);
  expect_values(values, tensor({lowest, int64_t(0), highest}));
  expect_values(inverse, tensor({2, 0, 1, 2}));
  expect_values(counts, tensor({1, 1, 2}));
}

TEST(Unique, AlongDims) {
  const auto [rows, inverse, counts] =
      unique(tensor({{1, 2}, {1, 2}, {0, 5}}), true, true, true, 0);
  expect_values(rows, tensor({{0, 5}, {1, 2}}));
  expect_values(inverse, tensor({1, 1, 0}));
  expect_values(counts, tensor({1, 2}));
  const auto [cols, col_inverse, col_counts] =
      unique(tensor({{1, 2, 1}, {3, 4, 3}}), true, true, true, -1);
  expect_values(cols, tensor({{1, 2}, {3, 4}}));
  expect_values(col_inverse, tensor({0, 1, 0}));
  expect_values(col_counts, tensor({2, 1}));
  // Rows holding NaN never equal each other.
  const Tensor nan_rows = tensor({{1.0, kNan}, {1.0, kNan}});
  EXPECT_EQ(std::get<0>(unique(nan_rows, true, false, false, 0)).size(0), 2);
  expect_values(std::get<0>(unique(zeros({0, 3}), true, false, false, 0)), zeros({0, 3}));
  expect_values(std::get<0>(unique(zeros({2, 0}), true, false, false, 1)), zeros({2, 0}));
}

TEST(Unique, Errors) {
  expect_error_containing([] { (void)unique(zeros({2, 0}), true, false, false, 0); }, "[2, 0]");
  expect_error_containing([] { (void)unique(zeros({2, 2}), true, false, false, 2); }, "unique");
  expect_error_containing([] { (void)unique(scalar_tensor(1.0, kFloat64), true, false, false, 0); },
                          "0-dim");
  expect_error_containing(
      [] {
        (void)unique_consecutive(zeros({2, 0}), false, false, 0);
      },
      "unique_consecutive");
}

TEST(UniqueConsecutive, RunsOnly) {
  const Tensor x = tensor({2.0, kNan, kNan, 1.0, 1.0, -0.0, 0.0, 2.0});
  const auto [values, inverse, counts] = unique_consecutive(x, true, true);
  EXPECT_EQ(values.size(0), 6);
  expect_values(inverse, tensor({0, 1, 2, 3, 3, 4, 4, 5}));
  expect_values(counts, tensor({1, 1, 1, 2, 2, 1}));
  const auto [rows, row_inverse, row_counts] =
      unique_consecutive(tensor({{1, 2}, {1, 2}, {0, 5}, {1, 2}}), true, true, 0);
  expect_values(rows, tensor({{1, 2}, {0, 5}, {1, 2}}));
  expect_values(row_inverse, tensor({0, 0, 1, 2}));
  expect_values(row_counts, tensor({2, 1, 1}));
  const auto [m, m_inverse, m_counts] = tensor({{1, 2}, {2, 2}}).unique_consecutive(true);
  expect_values(m, tensor({1, 2}));
  expect_values(m_inverse, tensor({{0, 1}, {1, 1}}));
  expect_values(m_counts, zeros({0}, kInt64));
}

TEST(Isin, PromotionNanAndScalars) {
  expect_values(isin(tensor({1, 2, 3}), tensor({2.0, 2.5})), tensor({false, true, false}));
  expect_values(isin(tensor({1.5, kNan, 0.0}), tensor({1.5, kNan, -0.0})),
                tensor({true, false, true}));
  expect_values(isin(tensor({{1, 2}, {3, 4}}), 2, false, true),
                tensor({{true, false}, {true, true}}));
  expect_values(isin(3, tensor({3}).view({1, 1})), scalar_tensor(true, kBool));
  expect_values(isin(tensor({1.f, 2.f}), zeros({0})), tensor({false, false}));
  expect_values(isin(tensor({1.f, 2.f}), zeros({0}), true, true), tensor({true, true}));
  expect_error_containing([] { (void)isin(tensor({true}), tensor({true})); },
                          "isin: bool tensors are not supported");
}

// None of these ops has a gradient: a result never requires grad.
TEST(CountingOps, ResultsDoNotRequireGrad) {
  const Tensor x = tensor({1.0, 2.0, 1.0}).requires_grad_();
  EXPECT_FALSE(histc(x, 3).requires_grad());
  EXPECT_FALSE(bincount(tensor({0, 1, 1}), x).requires_grad());
  EXPECT_FALSE(std::get<0>(unique(x)).requires_grad());
  EXPECT_FALSE(std::get<0>(unique_consecutive(x)).requires_grad());
  EXPECT_FALSE(std::get<0>(unique(x.view({3, 1}), true, false, false, 0)).requires_grad());
  EXPECT_FALSE(searchsorted(x, x).requires_grad());
  EXPECT_FALSE(isin(x, x).requires_grad());
  EXPECT_FALSE(count_nonzero(x).requires_grad());
}

}  // namespace
}  // namespace accel
