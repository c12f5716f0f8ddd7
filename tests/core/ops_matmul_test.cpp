// Op table for matmul, mm and bmm (cases: tests/reference/cases_matmul.py).
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;

Tensor matmul_of(const V& x) { return matmul(x[0], x[1]); }

const std::vector<OpCase> kMatmulCases = {
    {"dot", matmul_of},
    {"matrix_vector", matmul_of},
    {"vector_matrix", matmul_of},
    {"matrix_matrix", matmul_of},
    {"batched_matrix", matmul_of},
    {"batched_vector", matmul_of},
    {"vector_batched", matmul_of},
    {"matrix_batched", matmul_of},
    {"batched_batched", matmul_of},
    {"broadcast_batch", matmul_of},
    {"broadcast_both", matmul_of},
    {"transposed_operands", [](const V& x) { return x[0].t().matmul(x[1].t()); }},
    {"batched_transposed", [](const V& x) { return x[0].transpose(-1, -2).matmul(x[1]); }},
    {"strided_operand",
     [](const V& x) { return x[0].slice(1, std::nullopt, std::nullopt, 2).matmul(x[1]); }},
    {"expanded_operand",
     [](const V& x) {
       return x[0].expand({3, 4}).matmul(x[1]);
     }},
    {"mm", [](const V& x) { return mm(x[0], x[1]); }},
    {"mm_transposed", [](const V& x) { return x[0].mm(x[1].t()); }},
    {"bmm", [](const V& x) { return x[0].bmm(x[1]); }},
    {"integer_matmul", matmul_of},
};

ACCEL_OP_TEST_SUITE(MatmulOps, "ops_matmul.json", kMatmulCases);

}  // namespace
}  // namespace accel
