// Op table for the view ops (cases: tests/reference/cases_view.py).
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;

const std::vector<OpCase> kViewCases = {
    {"view",
     [](const V& x) {
       return x[0].view({4, 6});
     }},
    {"view_infer",
     [](const V& x) {
       return x[0].view({-1, 2});
     }},
    {"view_of_slice", [](const V& x) { return x[0].slice(0, 1, 3).view({-1}); }},
    {"reshape",
     [](const V& x) {
       return x[0].reshape({3, 8});
     }},
    {"reshape_transposed_copy", [](const V& x) { return x[0].t().reshape({-1}); }},
    {"reshape_transposed_view",
     [](const V& x) {
       return x[0].transpose(0, 1).reshape({2, 2, 3});
     }},
    {"flatten", [](const V& x) { return x[0].flatten(); }},
    {"flatten_range", [](const V& x) { return x[0].flatten(1, 2); }},
    {"flatten_negative", [](const V& x) { return x[0].flatten(-2, -1); }},
    {"squeeze", [](const V& x) { return x[0].squeeze(); }},
    {"squeeze_dim", [](const V& x) { return x[0].squeeze(1); }},
    {"squeeze_negative_dim", [](const V& x) { return x[0].squeeze(-1); }},
    {"squeeze_dim_not_one", [](const V& x) { return x[0].squeeze(0); }},
    {"unsqueeze", [](const V& x) { return x[0].unsqueeze(1); }},
    {"unsqueeze_negative", [](const V& x) { return x[0].unsqueeze(-1); }},
    {"permute",
     [](const V& x) {
       return x[0].permute({2, 0, 1});
     }},
    {"permute_negative",
     [](const V& x) {
       return x[0].permute({-1, 0, -2});
     }},
    {"transpose", [](const V& x) { return x[0].transpose(0, 2); }},
    {"transpose_negative", [](const V& x) { return x[0].transpose(-1, -2); }},
    {"t", [](const V& x) { return x[0].t(); }},
    {"t_1d", [](const V& x) { return x[0].t(); }},
    {"expand",
     [](const V& x) {
       return x[0].expand({2, 3, 4});
     }},
    {"expand_minus_one",
     [](const V& x) {
       return x[0].expand({-1, 5});
     }},
    {"narrow", [](const V& x) { return x[0].narrow(1, 1, 3); }},
    {"narrow_negative_start", [](const V& x) { return x[0].narrow(0, -3, 2); }},
    {"slice", [](const V& x) { return x[0].slice(0, 1, 3); }},
    {"slice_step", [](const V& x) { return x[0].slice(1, 1, std::nullopt, 2); }},
    {"slice_negative", [](const V& x) { return x[0].slice(0, -3, -1); }},
    {"select", [](const V& x) { return x[0].select(1, 2); }},
    {"select_negative_index", [](const V& x) { return x[0].select(0, -1); }},
    {"chain",
     [](const V& x) {
       return x[0].transpose(0, 1).slice(0, 1).unsqueeze(0).expand({2, -1, -1}).reshape({2, -1});
     }},
    {"flip",
     [](const V& x) {
       return x[0].flip({0, -1});
     }},
    {"repeat",
     [](const V& x) {
       return x[0].repeat({2, 1, 3});
     }},
    {"tril", [](const V& x) { return x[0].tril(); }},
    {"triu_offset", [](const V& x) { return triu(x[0], 1); }},
    {"tril_negative_offset", [](const V& x) { return tril(x[0], -1); }},
    {"atleast_3d_vector", [](const V& x) { return atleast_3d(x[0]); }},
    {"atleast_2d_scalar", [](const V& x) { return atleast_2d(x[0]) * 2; }},
    {"hstack_vectors",
     [](const V& x) {
       return hstack({x[0], x[1]});
     }},
    {"hstack_matrices",
     [](const V& x) {
       return hstack({x[0], x[1]});
     }},
    {"vstack",
     [](const V& x) {
       return vstack({x[0], x[1]});
     }},
    {"dstack",
     [](const V& x) {
       return dstack({x[0], x[1]});
     }},
    {"column_stack",
     [](const V& x) {
       return column_stack({x[0], x[1], x[2]});
     }},
    {"block_diag",
     [](const V& x) {
       return block_diag({x[0], x[1], x[2]});
     }},
    {"cartesian_prod",
     [](const V& x) {
       return cartesian_prod({x[0], x[1], x[2]});
     }},
    {"fliplr", [](const V& x) { return fliplr(x[0]); }},
    {"flipud", [](const V& x) { return x[0].flipud(); }},
    {"rot90", [](const V& x) { return x[0].rot90(); }},
    {"rot90_twice_last_dims",
     [](const V& x) {
       return rot90(x[0], 2, {1, 2});
     }},
    {"rot90_back_reversed_dims",
     [](const V& x) {
       return rot90(x[0], -1, {1, 0});
     }},
    {"rot90_three", [](const V& x) { return rot90(x[0], 3); }},
    {"diff", [](const V& x) { return diff(x[0]); }},
    {"diff_second_order_dim0", [](const V& x) { return x[0].diff(2, 0); }},
    {"diff_prepend_append", [](const V& x) { return diff(x[0], 1, 1, x[1], x[2]); }},
    {"diff_int", [](const V& x) { return diff(x[0], 3); }},
    {"take_along_dim", [](const V& x) { return take_along_dim(x[0], x[1], 1); }},
    {"take_along_dim_broadcast", [](const V& x) { return x[0].take_along_dim(x[1], 0); }},
    {"take_along_dim_flat", [](const V& x) { return take_along_dim(x[0], x[1]); }},
    {"kron", [](const V& x) { return kron(x[0], x[1]); }},
    {"kron_fewer_dims", [](const V& x) { return x[0].kron(x[1]); }},
};

ACCEL_OP_TEST_SUITE(ViewOps, "ops_view.json", kViewCases);

}  // namespace
}  // namespace accel
