// Order statistics (median, nanmedian, kthvalue, mode, msort, quantile, nanquantile): the op table
// against PyTorch fixtures (tests/reference/cases_order_statistics.py). What fixtures cannot show
// is in order_statistics_test.cpp.
#include <limits>

#include "support/op_harness.h"

namespace accel {
namespace {

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

}  // namespace
}  // namespace accel
