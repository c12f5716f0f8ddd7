// Reductions and softmax: the op table against PyTorch fixtures (tests/reference/
// cases_reduce.py), then what fixtures cannot show: gradients at ties and zeros, stability at
// extreme values, empty inputs, error messages, dtypes, autocast, and that the training hot
// paths allocate nothing but their result.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "support/expect_error.h"
#include "support/gradient.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::grad_of;
using testing::OpCase;
using V = std::vector<Tensor>;

// a with NaN within 0.3 of zero (the nan-reduction cases).
Tensor with_nans(const Tensor& a) { return where(lt(a.abs(), 0.3), std::nan(""), a); }

const std::vector<OpCase> kReduceCases = {
    {"sum_all", [](const V& x) { return x[0].sum(); }},
    {"sum_dim", [](const V& x) { return x[0].sum({1}); }},
    {"sum_neg_dim", [](const V& x) { return x[0].sum({-1}); }},
    {"sum_dims_keepdim",
     [](const V& x) {
       return x[0].sum({0, 2}, true);
     }},
    {"sum_leading_dims",
     [](const V& x) {
       return x[0].sum({0, 1});
     }},
    {"sum_int", [](const V& x) { return x[0].sum({0}); }},
    {"mean_all", [](const V& x) { return x[0].mean(); }},
    {"mean_dims",
     [](const V& x) {
       return x[0].mean({0, 2});
     }},
    {"mean_neg_dim_keepdim", [](const V& x) { return x[0].mean({-2}, true); }},
    {"prod_all", [](const V& x) { return x[0].prod(); }},
    {"prod_dim", [](const V& x) { return x[0].prod(1); }},
    {"prod_dim0_keepdim", [](const V& x) { return x[0].prod(0, true); }},
    {"prod_neg_dim", [](const V& x) { return x[0].prod(-1); }},
    {"prod_int", [](const V& x) { return x[0].prod(1); }},
    {"max_all", [](const V& x) { return x[0].max(); }},
    {"min_all", [](const V& x) { return x[0].min(); }},
    {"max_all_ties", [](const V& x) { return x[0].max(); }},
    {"max_dim_values", [](const V& x) { return std::get<0>(x[0].max(1)); }},
    {"max_dim_indices", [](const V& x) { return std::get<1>(x[0].max(1)); }},
    {"max_dim0_keepdim_values", [](const V& x) { return std::get<0>(x[0].max(0, true)); }},
    {"max_dim0_keepdim_indices", [](const V& x) { return std::get<1>(x[0].max(0, true)); }},
    {"max_dim_ties_values", [](const V& x) { return std::get<0>(x[0].max(1)); }},
    {"max_dim_ties_indices", [](const V& x) { return std::get<1>(x[0].max(1)); }},
    {"min_neg_dim_values", [](const V& x) { return std::get<0>(x[0].min(-1)); }},
    {"min_neg_dim_indices", [](const V& x) { return std::get<1>(x[0].min(-1)); }},
    {"min_dim_ties_indices", [](const V& x) { return std::get<1>(x[0].min(0)); }},
    {"amax_all", [](const V& x) { return amax(x[0]); }},
    {"amax_dim", [](const V& x) { return amax(x[0], {1}); }},
    {"amax_dims_keepdim",
     [](const V& x) {
       return amax(x[0], {0, 2}, true);
     }},
    {"amax_ties",
     [](const V& x) {
       return amax(x[0], {1, 2});
     }},
    {"amin_dims",
     [](const V& x) {
       return amin(x[0], {-1, 0});
     }},
    {"amin_ties", [](const V& x) { return amin(x[0], {0}); }},
    {"argmax_all", [](const V& x) { return argmax(x[0]); }},
    {"argmax_dim", [](const V& x) { return argmax(x[0], 1); }},
    {"argmax_neg_dim_keepdim", [](const V& x) { return argmax(x[0], -1, true); }},
    {"argmax_all_keepdim", [](const V& x) { return argmax(x[0], std::nullopt, true); }},
    {"argmin_dim0", [](const V& x) { return argmin(x[0], 0); }},
    {"argmin_all", [](const V& x) { return argmin(x[0]); }},
    {"var_all", [](const V& x) { return x[0].var(); }},
    {"var_dim_correction0", [](const V& x) { return x[0].var({1}, 0); }},
    {"var_dims_keepdim",
     [](const V& x) {
       return x[0].var({0, 2}, 1, true);
     }},
    {"var_neg_dim", [](const V& x) { return x[0].var({-1}); }},
    {"std_all", [](const V& x) { return x[0].std(); }},
    {"std_dim_correction0", [](const V& x) { return x[0].std({0}, 0); }},
    {"std_dims_keepdim",
     [](const V& x) {
       return x[0].std({1, 2}, 1, true);
     }},
    {"logsumexp_dim", [](const V& x) { return logsumexp(x[0], {1}); }},
    {"logsumexp_dims_keepdim",
     [](const V& x) {
       return logsumexp(x[0], {0, 2}, true);
     }},
    {"logsumexp_neg_dim", [](const V& x) { return x[0].logsumexp({-1}); }},
    {"logsumexp_scaled", [](const V& x) { return logsumexp(x[0] * 40, {1}); }},
    {"softmax_last", [](const V& x) { return softmax(x[0], 1); }},
    {"softmax_dim0", [](const V& x) { return softmax(x[0], 0); }},
    {"softmax_middle", [](const V& x) { return x[0].softmax(-2); }},
    {"softmax_scaled", [](const V& x) { return softmax(x[0] * 40, -1); }},
    {"log_softmax_last", [](const V& x) { return log_softmax(x[0], 1); }},
    {"log_softmax_dim0", [](const V& x) { return log_softmax(x[0], 0); }},
    {"log_softmax_middle", [](const V& x) { return x[0].log_softmax(-2); }},
    {"log_softmax_scaled", [](const V& x) { return log_softmax(x[0] * 40, -1); }},
    {"sum_long_rows", [](const V& x) { return x[0].sum({1}); }},
    {"sum_wide_columns", [](const V& x) { return x[0].sum({0}); }},
    {"prod_long_rows", [](const V& x) { return x[0].prod(1); }},
    {"amax_long_rows", [](const V& x) { return amax(x[0], {1}); }},
    {"max_long_rows_indices", [](const V& x) { return std::get<1>(x[0].max(1)); }},
    {"argmin_wide_columns", [](const V& x) { return argmin(x[0], 0); }},
    {"var_long_rows", [](const V& x) { return x[0].var({1}); }},
    {"std_wide_columns", [](const V& x) { return x[0].std({0}); }},
    {"logsumexp_long_rows", [](const V& x) { return logsumexp(x[0], {1}); }},
    {"logsumexp_wide_columns", [](const V& x) { return logsumexp(x[0], {0}); }},
    {"softmax_long_rows", [](const V& x) { return softmax(x[0], 1); }},
    {"softmax_wide_columns", [](const V& x) { return softmax(x[0], 0); }},
    {"log_softmax_long_rows", [](const V& x) { return log_softmax(x[0], 1); }},
    {"log_softmax_wide_columns", [](const V& x) { return log_softmax(x[0], 0); }},
    {"norm", [](const V& x) { return x[0].norm(); }},
    {"norm_dim_keepdim", [](const V& x) { return norm(x[0], 2, {1}, true); }},
    {"norm_p3_dims",
     [](const V& x) {
       return norm(x[0], 3, {0, 2});
     }},
    {"norm_p1", [](const V& x) { return norm(x[0], 1, {1}); }},
    {"norm_inf", [](const V& x) { return norm(x[0], INFINITY, {0}); }},
    {"norm_zero_row",
     [](const V& x) {
       return norm(x[0] * tensor({0.f, 1.f}).view({2, 1}).to(x[0].dtype()), 2, {1});
     }},
    {"dot", [](const V& x) { return dot(x[0], x[1]); }},
    {"cumsum_dim", [](const V& x) { return x[0].cumsum(1); }},
    {"cumsum_neg_dim", [](const V& x) { return cumsum(x[0], -2); }},
    {"cumsum_wide_columns", [](const V& x) { return x[0].cumsum(0); }},
    {"cumsum_long_rows", [](const V& x) { return x[0].cumsum(1); }},
    {"cumsum_scalar", [](const V& x) { return x[0].cumsum(0); }},
    {"cumsum_int", [](const V& x) { return x[0].cumsum(1); }},
    {"sort_values", [](const V& x) { return std::get<0>(x[0].sort(1)); }},
    {"sort_indices", [](const V& x) { return std::get<1>(sort(x[0], 1)); }},
    {"sort_descending_dim0_values", [](const V& x) { return std::get<0>(x[0].sort(0, true)); }},
    {"sort_descending_dim0_indices", [](const V& x) { return std::get<1>(x[0].sort(0, true)); }},
    {"sort_long_rows_values", [](const V& x) { return std::get<0>(x[0].sort()); }},
    {"sort_ties_indices",
     [](const V& x) {
       return std::get<1>((x[0].to(kFloat64) * 0.5).sort(std::optional<bool>(true), 1));
     }},
    {"sort_ties_descending_indices",
     [](const V& x) { return std::get<1>((x[0].to(kFloat64) * 0.5).sort(0, true)); }},
    {"argsort", [](const V& x) { return x[0].argsort(-1); }},
    {"topk_values", [](const V& x) { return std::get<0>(x[0].topk(2, 1)); }},
    {"topk_indices", [](const V& x) { return std::get<1>(topk(x[0], 2, 1)); }},
    {"topk_smallest_dim0_values", [](const V& x) { return std::get<0>(x[0].topk(3, 0, false)); }},
    {"topk_smallest_dim0_indices", [](const V& x) { return std::get<1>(x[0].topk(3, 0, false)); }},
    {"cumprod_dim", [](const V& x) { return x[0].cumprod(1); }},
    {"cumprod_neg_dim", [](const V& x) { return cumprod(x[0], -2); }},
    {"cumprod_wide_columns", [](const V& x) { return x[0].cumprod(0); }},
    {"cumprod_long_rows", [](const V& x) { return x[0].cumprod(1); }},
    {"cumprod_masked_zeros",
     [](const V& x) {
       const Tensor mask = tensor({1., 0., 1., 1., 0., 1., 0., 1., 1., 1., 1., 1.,
                                   1., 1., 1., 1., 1., 0., 1., 1., 1., 1., 1., 1.})
                               .reshape({4, 6});
       return (x[0] * mask.to(x[0].dtype())).cumprod(1);
     }},
    {"cumprod_scalar", [](const V& x) { return x[0].cumprod(0); }},
    {"cumprod_int", [](const V& x) { return x[0].cumprod(1); }},
    {"logcumsumexp", [](const V& x) { return logcumsumexp(x[0] * 30, 1); }},
    {"logcumsumexp_columns", [](const V& x) { return x[0].logcumsumexp(0); }},
    {"cummax", [](const V& x) { return std::get<0>(cummax(x[0], 1)); }},
    {"cummin_dim0", [](const V& x) { return std::get<0>(cummin(x[0], 0)); }},
    {"cummax_indices_ties", [](const V& x) { return std::get<1>(cummax(x[0], 1)); }},
    {"cummin_int", [](const V& x) { return std::get<0>(cummin(x[0], 1)); }},
    {"nansum", [](const V& x) { return nansum(with_nans(x[0])); }},
    {"nansum_dim", [](const V& x) { return with_nans(x[0]).nansum({1}); }},
    {"nanmean_dims_keepdim", [](const V& x) { return nanmean(with_nans(x[0]), {0, 2}, true); }},
    {"var_mean_var", [](const V& x) { return std::get<0>(var_mean(x[0], {1})); }},
    {"var_mean_mean", [](const V& x) { return std::get<1>(var_mean(x[0], {1})); }},
    {"std_mean_std", [](const V& x) { return std::get<0>(std_mean(x[0], {0, 1}, 0, true)); }},
    {"std_mean_mean", [](const V& x) { return std::get<1>(std_mean(x[0], {0, 1}, 0, true)); }},
    {"aminmax_min", [](const V& x) { return std::get<0>(aminmax(x[0], 1)); }},
    {"aminmax_max", [](const V& x) { return std::get<1>(x[0].aminmax()); }},
    {"aminmax_ties", [](const V& x) { return std::get<1>(aminmax(x[0], 0, true)); }},
};

ACCEL_OP_TEST_SUITE(ReduceOps, "ops_reduce.json", kReduceCases);

constexpr double kInf = std::numeric_limits<double>::infinity();

void expect_values(const Tensor& actual, std::initializer_list<double> expected) {
  const Tensor a = actual.to(kFloat64).contiguous();
  ASSERT_EQ(a.numel(), static_cast<int64_t>(expected.size()));
  int64_t i = 0;
  for (double e : expected) {
    const double v = a.data_ptr<double>()[i++];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(v)) << "element " << i - 1 << " is " << v << ", expected nan";
    } else {
      EXPECT_DOUBLE_EQ(v, e) << "element " << i - 1;
    }
  }
}

// Runs f and expects an accel::Error whose message contains each of `parts`.
void expect_error(const std::function<void()>& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "expected an accel::Error";
  } catch (const Error& e) {
    const std::string message = e.what();
    for (const std::string& part : parts) {
      EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
    }
  }
}

// ---- gradients at ties and zeros ----

TEST(Cumulative, CummaxKeepsTheFirstNanAndTakesTheLastTie) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor x = tensor({1.0, 3.0, 3.0, nan, 5.0, nan});
  const auto [values, indices] = cummax(x, 0);
  EXPECT_TRUE(values.narrow(0, 0, 3).equal(tensor({1.0, 3.0, 3.0})));
  EXPECT_TRUE(values.narrow(0, 3, 3).isnan().all().item<bool>());
  EXPECT_TRUE(indices.equal(tensor({0, 1, 2, 3, 3, 3})));
  const auto [low, low_at] = cummin(tensor({2, 1, 1, 3}), 0);
  EXPECT_TRUE(low.equal(tensor({2, 1, 1, 1})));
  EXPECT_TRUE(low_at.equal(tensor({0, 1, 2, 2})));
  // Large terms neither overflow nor lose the smaller ones.
  EXPECT_TRUE(logcumsumexp(tensor({1000.0, 1000.0, -1e308}), 0)
                  .allclose(tensor({1000.0, 1000.0 + std::log(2.0), 1000.0 + std::log(2.0)})));
  testing::expect_error_containing(
      [] {
        logcumsumexp(tensor({1, 2}), 0);
      },
      "logcumsumexp: expected a floating point tensor, got int64");
}

TEST(ReduceGradients, AmaxAndMaxAllSplitTiesEvenly) {
  const Tensor x = tensor({1.0, 3.0, 3.0, 2.0, 3.0});
  expect_values(grad_of([](const Tensor& t) { return amax(t); }, x),
                {0, 1.0 / 3, 1.0 / 3, 0, 1.0 / 3});
  expect_values(grad_of([](const Tensor& t) { return t.max(); }, x),
                {0, 1.0 / 3, 1.0 / 3, 0, 1.0 / 3});
  expect_values(grad_of([](const Tensor& t) { return t.min(); }, tensor({2.0, 1.0, 1.0})),
                {0, 0.5, 0.5});
  // Per output: row 0 ties twice, row 1 has one maximum.
  const Tensor m = tensor({4.0, 1.0, 4.0, 0.0, 2.0, 5.0}).reshape({2, 3});
  expect_values(grad_of([](const Tensor& t) { return amax(t, {1}); }, m, tensor({2.0, 3.0})),
                {1, 0, 1, 0, 0, 3});
  expect_values(
      grad_of([](const Tensor& t) { return amin(t, {0}); }, tensor({1.0, 1.0}).reshape({2, 1})),
      {0.5, 0.5});
}

TEST(ReduceGradients, MaxAlongDimSendsGradientToTheFirstTiedIndex) {
  const Tensor x = tensor({1.0, 3.0, 3.0, 2.0, 2.0, 0.0}).reshape({2, 3});
  const auto [values, indices] = x.max(1);
  expect_values(values, {3, 2});
  EXPECT_TRUE(indices.equal(tensor({1, 0})));
  EXPECT_FALSE(indices.requires_grad());
  expect_values(
      grad_of([](const Tensor& t) { return std::get<0>(t.max(1)); }, x, tensor({5.0, 7.0})),
      {0, 5, 0, 7, 0, 0});
  expect_values(grad_of([](const Tensor& t) { return std::get<0>(t.min(0, true)); }, x),
                {1, 0, 0, 0, 1, 1});
}

TEST(ReduceGradients, ArgmaxPicksTheFirstOccurrence) {
  const Tensor x = tensor({1, 5, 5, 0, 5});
  EXPECT_EQ(argmax(x).item<int64_t>(), 1);
  EXPECT_EQ(argmin(tensor({3, 0, 0})).item<int64_t>(), 1);
  // NaN is the maximum and the minimum, as in PyTorch.
  const Tensor n = tensor({1.0, std::nan(""), 7.0});
  EXPECT_EQ(argmax(n).item<int64_t>(), 1);
  EXPECT_EQ(argmin(n).item<int64_t>(), 1);
  EXPECT_TRUE(std::isnan(n.max().item<double>()));
}

// The first index of a row's maximum (Max) or minimum, NaN counting as one: the plain loop.
template <typename T>
int64_t first_extremum(const std::vector<T>& row, bool max) {
  int64_t best = 0;
  for (size_t i = 1; i < row.size(); ++i) {
    const T v = row[i], b = row[static_cast<size_t>(best)];
    if (std::isnan(b)) break;
    if (std::isnan(v) || (max ? v > b : v < b)) best = static_cast<int64_t>(i);
  }
  return best;
}

// Rows long enough for the vector pass (which keeps an extremum per lane): many ties across
// lanes, -0 beside +0, NaNs in the first lane, mid-row and past the last whole vector.
template <typename T>
void check_long_rows() {
  for (const int64_t n : {16, 17, 31, 32, 33, 100, 1000}) {
    std::vector<std::vector<T>> rows;
    for (int pattern = 0; pattern < 6; ++pattern) {
      std::vector<T> row(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) row[static_cast<size_t>(i)] = T((i * 7 + pattern) % 5) - T(2);
      if (pattern == 1) row[static_cast<size_t>(n / 2)] = std::numeric_limits<T>::quiet_NaN();
      if (pattern == 2) row[0] = std::numeric_limits<T>::quiet_NaN();
      if (pattern == 3) row[static_cast<size_t>(n - 1)] = std::numeric_limits<T>::quiet_NaN();
      if (pattern == 4) {
        for (int64_t i = 0; i < n; ++i) row[static_cast<size_t>(i)] = i % 3 == 0 ? T(-0.0) : T(0);
      }
      if (pattern == 5) row[static_cast<size_t>(n - 1)] = T(9);  // past the last whole vector
      rows.push_back(row);
    }
    std::vector<T> flat;
    for (const auto& row : rows) flat.insert(flat.end(), row.begin(), row.end());
    const Tensor x = from_blob(flat.data(), {static_cast<int64_t>(rows.size()), n},
                               std::is_same_v<T, float> ? kFloat32 : kFloat64)
                         .clone();
    for (const bool max : {true, false}) {
      const auto [values, indices] = max ? x.max(1) : x.min(1);
      const Tensor arg = max ? x.argmax(1) : x.argmin(1);
      for (size_t r = 0; r < rows.size(); ++r) {
        const int64_t expected = first_extremum(rows[r], max);
        const auto at = static_cast<int64_t>(r);
        EXPECT_EQ(indices[at].item<int64_t>(), expected) << n << " pattern " << r << " max " << max;
        EXPECT_EQ(arg[at].item<int64_t>(), expected) << n << " pattern " << r << " max " << max;
        const T value = values[at].item<T>(), want = rows[r][static_cast<size_t>(expected)];
        EXPECT_TRUE(std::memcmp(&value, &want, sizeof(T)) == 0) << n << " pattern " << r;
      }
    }
  }
}

TEST(ReduceNumerics, LongRowsGiveTheFirstIndexOfTheirExtremum) {
  check_long_rows<float>();
  check_long_rows<double>();
}

TEST(ReduceGradients, ProdWithZerosUsesTheProductOfTheOthers) {
  // One zero: only the zero gets a gradient, the product of the rest.
  expect_values(grad_of([](const Tensor& t) { return t.prod(); }, tensor({2.0, 0.0, 3.0})),
                {0, 6, 0});
  // Two zeros: every gradient is zero.
  expect_values(grad_of([](const Tensor& t) { return t.prod(); }, tensor({0.0, 0.0, 3.0})),
                {0, 0, 0});
  // No zeros: prod / x.
  expect_values(grad_of([](const Tensor& t) { return t.prod(); }, tensor({2.0, 4.0, 3.0})),
                {12, 6, 8});
  // Along a dim, each row on its own: [2, 0], [0, 0], [5, 3].
  const Tensor x = tensor({2.0, 0.0, 0.0, 0.0, 5.0, 3.0}).reshape({3, 2});
  expect_values(grad_of([](const Tensor& t) { return t.prod(1); }, x), {0, 2, 0, 0, 3, 5});
  // Along dim 0 (strided rows): columns [2, 0, 5] and [0, 0, 3].
  expect_values(grad_of([](const Tensor& t) { return t.prod(0); }, x), {0, 0, 10, 0, 0, 0});
}

TEST(ReduceGradients, StdOfAConstantHasZeroGradient) {
  expect_values(grad_of([](const Tensor& t) { return t.std(); }, tensor({2.0, 2.0, 2.0})),
                {0, 0, 0});
  expect_values(grad_of([](const Tensor& t) { return t.var({}, 0); }, tensor({1.0, 3.0})), {-1, 1});
}

// ---- numerics at extreme values ----

TEST(ReduceNumerics, SoftmaxAndLogsumexpAreStable) {
  const Tensor big = tensor({1000.f, 1000.f});
  EXPECT_FLOAT_EQ(logsumexp(big, {0}).item<float>(), 1000.f + std::log(2.f));
  expect_values(softmax(big, 0), {0.5, 0.5});
  expect_values(log_softmax(tensor({1000.f, 0.f}), 0), {0, -1000});
  expect_values(log_softmax(tensor({-1000.0, 0.0}), 0), {-1000, 0});
  EXPECT_EQ(logsumexp(tensor({-kInf, -kInf}), {0}).item<double>(), -kInf);
  EXPECT_EQ(logsumexp(tensor({kInf, 1.0}), {0}).item<double>(), kInf);
  expect_values(softmax(tensor({-kInf, 0.0}), 0), {0, 1});
}

TEST(ReduceNumerics, LongFloat32RowsAndColumnsMatchFloat64) {
  // Rows span several kReduceChunk chunks; transposed, the same values form wide columns.
  Tensor x = empty({3, 10000}, kFloat32);
  float* p = x.data_ptr<float>();
  for (int64_t i = 0; i < x.numel(); ++i) p[i] = static_cast<float>(std::sin(0.37 * i) * 3.0);
  p[2 * 10000 + 9000] = 5.f;  // a unique maximum in row 2, past the second chunk
  const Tensor xt = x.t().contiguous();
  const Tensor x64 = x.to(kFloat64);
  auto expect_near = [](const Tensor& actual, const Tensor& expected, double tol) {
    EXPECT_TRUE(allclose(actual.to(kFloat64), expected, tol, tol)) << actual << expected;
  };
  for (const Tensor& t : {x, xt}) {
    const int64_t dim = t.is_same(x) ? 1 : 0;
    expect_near(t.sum({dim}), x64.sum({1}), 1e-4);
    expect_near(logsumexp(t, {dim}), logsumexp(x64, {1}), 1e-5);
    expect_near(t.var({dim}), x64.var({1}), 1e-5);
    expect_near(amax(t, {dim}), amax(x64, {1}), 0);
    EXPECT_TRUE(argmax(t, dim).equal(argmax(x64, 1)));
    EXPECT_EQ(argmax(t, dim)[2].item<int64_t>(), 9000);
    const Tensor sm = softmax(t, dim);
    expect_near(dim == 1 ? sm : sm.t(), softmax(x64, 1), 1e-6);
    const Tensor lsm = log_softmax(t, dim);
    expect_near(dim == 1 ? lsm : lsm.t(), log_softmax(x64, 1), 1e-5);
  }
}

TEST(ReduceNumerics, VarianceEdgeCases) {
  EXPECT_TRUE(std::isnan(tensor({3.0}).var().item<double>()));  // one element, correction 1
  EXPECT_EQ(tensor({3.0}).var({}, 0).item<double>(), 0.0);
  // Two passes keep precision where sum-of-squares formulas cancel catastrophically.
  EXPECT_EQ(tensor({10001.f, 10003.f, 10005.f}).var().item<float>(), 4.f);
}

TEST(ReduceNumerics, NanReductionsAndAminmax) {
  const double nan = std::nan("");
  EXPECT_EQ(nansum(tensor({1, 2, 3})).dtype(), kInt64);
  EXPECT_EQ(nansum(tensor({1, 2, 3})).item<int64_t>(), 6);
  EXPECT_TRUE(std::isnan(nanmean(tensor({nan, nan})).item<double>()));
  EXPECT_EQ(nanmean(tensor({nan, 1.0, 3.0})).item<double>(), 2.0);
  // NaN elements get no gradient; the others share the mean's.
  const Tensor x = tensor({nan, 1.0, 3.0}).requires_grad_();
  nanmean(x).backward();
  EXPECT_TRUE(equal(x.grad(), tensor({0.0, 0.5, 0.5})));
  const auto [low, high] = aminmax(tensor({{true, false}}), 1);
  EXPECT_EQ(low.dtype(), kBool);
  EXPECT_FALSE(low.item<bool>());
  EXPECT_TRUE(high.item<bool>());
  const auto [v, m] = var_mean(tensor({{1.0, 5.0}, {3.0, 2.0}}), {1}, 0);
  EXPECT_TRUE(equal(v, tensor({4.0, 0.25})));
  EXPECT_TRUE(equal(m, tensor({3.0, 2.5})));
  expect_error_containing([] { nanmean(arange(3)); },
                          "nanmean: expected a floating-point input, got int64");
  expect_error_containing([] { aminmax(zeros({0})); },
                          "aminmax: cannot reduce an empty tensor [0] over all its elements");
}

TEST(ReduceNumerics, EmptyInputs) {
  const Tensor e = zeros({0, 3});
  expect_values(e.sum({0}), {0, 0, 0});
  expect_values(e.prod(0), {1, 1, 1});
  EXPECT_EQ(e.sum().item<double>(), 0.0);
  expect_values(logsumexp(e, {0}), {-kInf, -kInf, -kInf});
  expect_values(e.mean({0}), {NAN, NAN, NAN});
  // Reducing a non-empty dim of an empty tensor gives an empty result.
  EXPECT_EQ(std::get<0>(e.max(1)).sizes(), IntArrayRef({0}));
  EXPECT_EQ(amax(e, {1}).sizes(), IntArrayRef({0}));
  EXPECT_EQ(softmax(e, 0).sizes(), e.sizes());
}

// ---- errors ----

TEST(ReduceErrors, ReducingNothingIsAnError) {
  const Tensor e = zeros({0, 3});
  expect_error([&] { e.max(); }, {"max", "cannot compute on an empty tensor", "[0, 3]"});
  expect_error([&] { e.min(0); }, {"min", "cannot compute on an empty tensor", "[0]"});
  expect_error([&] { argmax(e); }, {"argmax", "cannot compute on an empty tensor"});
  expect_error([&] { argmin(e, 0); }, {"argmin", "cannot compute on an empty tensor"});
  expect_error([&] { amax(e, {0, 1}); }, {"amax", "cannot compute on an empty tensor"});
}

TEST(ReduceErrors, DimOutOfRangeNamesTheOpAndTheDim) {
  const Tensor x = ones({2, 3});
  expect_error([&] { x.sum({2}); }, {"sum", "[-2, 1]", "got 2"});
  expect_error([&] { x.mean({-3}); }, {"mean", "got -3"});
  expect_error([&] { x.prod(5); }, {"prod", "got 5"});
  expect_error([&] { x.max(2); }, {"max", "got 2"});
  expect_error([&] { amin(x, {0, 7}); }, {"amin", "got 7"});
  expect_error([&] { argmax(x, -4); }, {"argmax", "got -4"});
  expect_error([&] { x.var({9}); }, {"var", "got 9"});
  expect_error([&] { x.std({9}); }, {"std", "got 9"});
  expect_error([&] { logsumexp(x, {3}); }, {"logsumexp", "got 3"});
  expect_error([&] { softmax(x, 2); }, {"softmax", "got 2"});
  expect_error([&] { log_softmax(x, -3); }, {"log_softmax", "got -3"});
}

TEST(ReduceErrors, RepeatedDims) {
  const Tensor x = ones({2, 3});
  expect_error([&] { x.sum({1, -1}); }, {"sum", "dim 1 appears multiple times", "[1, -1]"});
  expect_error([&] { amax(x, {0, 0}); }, {"amax", "dim 0 appears multiple times"});
  expect_error([&] { x.var({0, -2}); }, {"var", "dim 0 appears multiple times"});
  expect_error([&] { logsumexp(x, {1, 1}); }, {"logsumexp", "appears multiple times"});
}

TEST(ReduceErrors, DtypesThatCannotBeReduced) {
  expect_error([] { tensor({1, 2}).var(); }, {"var", "floating point", "int64"});
  expect_error([] { tensor({1, 2}).std(); }, {"std", "floating point"});
  expect_error([] { softmax(tensor({1, 2}), 0); }, {"softmax", "floating point", "int64"});
  expect_error([] { tensor({1, 2}).mean(); }, {"mean", "floating point"});
}

// ---- dtypes ----

TEST(ReduceDtypes, IntegerAndBoolInputs) {
  const Tensor i = tensor({3, -2, 4});
  EXPECT_EQ(i.prod().dtype(), kInt64);
  EXPECT_EQ(i.prod().item<int64_t>(), -24);
  // Integer overflow wraps around, as in PyTorch: 2^80 mod 2^64.
  EXPECT_EQ(tensor({int64_t{1} << 40, int64_t{1} << 40}).prod().item<int64_t>(), 0);
  EXPECT_EQ(tensor({1, 2}, kInt32).sum().dtype(), kInt64);
  EXPECT_EQ(i.max().item<int64_t>(), 4);
  EXPECT_EQ(amin(i).dtype(), kInt64);
  EXPECT_EQ(tensor({true, false, true}).sum().item<int64_t>(), 2);
  EXPECT_EQ(tensor({false, true}).max().item<bool>(), true);
  const Tensor l = logsumexp(i, {0});
  EXPECT_EQ(l.dtype(), kDefaultFloat);
  EXPECT_NEAR(l.item<double>(), std::log(std::exp(3.0) + std::exp(-2.0) + std::exp(4.0)), 1e-6);
}

TEST(ReduceDtypes, SoftmaxDtypeArgumentConvertsFirst) {
  const Tensor x = tensor({0.5f, -1.f, 2.f});
  const Tensor y = softmax(x, 0, kFloat64);
  EXPECT_EQ(y.dtype(), kFloat64);
  EXPECT_TRUE(y.equal(softmax(x.to(kFloat64), 0)));
  Tensor leaf = x.clone().requires_grad_();
  log_softmax(leaf, 0, kFloat64).sum().backward();
  EXPECT_EQ(leaf.grad().dtype(), kFloat32);
}

TEST(ReduceDtypes, ReducedPrecisionAccumulatesInFloat) {
  // 4096 ones in bfloat16: a bfloat16 accumulator would stop at 256.
  EXPECT_EQ(ones({4096}, kBFloat16).sum().item<double>(), 4096.0);
  const Tensor p = softmax(zeros({300}, kBFloat16), 0);
  EXPECT_EQ(p.dtype(), kBFloat16);
  EXPECT_NEAR(p.to(kFloat32).sum().item<double>(), 1.0, 1e-2);
  // The 2-norm squares in float: 300^2 would overflow float16 (torch.full((4,), 300.,
  // dtype=torch.float16).norm() is 600).
  EXPECT_EQ(full({4}, 300, kFloat16).norm().item<double>(), 600.0);
}

TEST(ReduceDtypes, AutocastRunsSoftmaxAndSumsInFloat32) {
  const Tensor h = tensor({0.5f, 2.f, -1.f}).to(kBFloat16);
  AutocastGuard guard(kCPU, kBFloat16);
  EXPECT_EQ(softmax(h, 0).dtype(), kFloat32);
  EXPECT_EQ(log_softmax(h, 0).dtype(), kFloat32);
  EXPECT_EQ(logsumexp(h, {0}).dtype(), kFloat32);
  EXPECT_EQ(h.sum().dtype(), kFloat32);
  EXPECT_EQ(h.mean().dtype(), kFloat32);
  EXPECT_EQ(amax(h).dtype(), kBFloat16);
  Tensor leaf = h.clone().requires_grad_();
  log_softmax(leaf, 0).sum().backward();
  EXPECT_EQ(leaf.grad().dtype(), kBFloat16);
}

// ---- hot paths ----

// Allocations made by f (the CPU allocator's count, cached or not).
int64_t allocations_during(const std::function<void()>& f) {
  const int64_t before = cpu_allocator().stats().num_allocations;
  f();
  return cpu_allocator().stats().num_allocations - before;
}

TEST(ReduceHotPaths, BiasGradientAndLogSoftmaxAllocateOnlyTheirResult) {
  const Tensor grad = ones({32, 128});
  EXPECT_EQ(allocations_during([&] { grad.sum({0}); }), 1);
  EXPECT_EQ(allocations_during([&] { sum_to(grad, {128}); }), 1);
  const Tensor logits = ones({32, 10}).requires_grad_();
  Tensor y;
  EXPECT_EQ(allocations_during([&] { y = log_softmax(logits, 1); }), 1);
  const Tensor g = ones({32, 10});
  EXPECT_EQ(allocations_during([&] { y.backward(g); }), 1);  // the input gradient itself
}

}  // namespace
}  // namespace accel
