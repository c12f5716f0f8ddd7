// Op table for the element-wise binary ops (cases: tests/reference/cases_binary.py).
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;

const std::vector<OpCase> kBinaryCases = {
    {"add", [](const V& x) { return x[0] + x[1]; }},
    {"add_broadcast", [](const V& x) { return add(x[0], x[1], 0.5); }},
    {"add_scalar", [](const V& x) { return x[0] + 2.5; }},
    {"sub", [](const V& x) { return x[0] - x[1]; }},
    {"sub_alpha", [](const V& x) { return sub(x[0], x[1], 3); }},
    {"rsub_scalar", [](const V& x) { return 1.5 - x[0]; }},
    {"mul", [](const V& x) { return x[0] * x[1]; }},
    {"mul_scalar", [](const V& x) { return x[0] * -1.25; }},
    {"div", [](const V& x) { return x[0] / x[1]; }},
    {"div_scalar", [](const V& x) { return x[0] / 4.0; }},
    {"rdiv_scalar", [](const V& x) { return 2.0 / x[0]; }},
    {"pow", [](const V& x) { return pow(x[0], x[1]); }},
    {"pow_scalar", [](const V& x) { return x[0].pow(3); }},
    {"pow_fractional", [](const V& x) { return x[0].pow(0.5); }},
    {"rpow_scalar", [](const V& x) { return pow(2.0, x[0]); }},
    {"maximum", [](const V& x) { return maximum(x[0], x[1]); }},
    {"minimum", [](const V& x) { return minimum(x[0], x[1]); }},
    {"neg", [](const V& x) { return -x[0]; }},
    {"eq", [](const V& x) { return x[0] == x[1]; }},
    {"lt", [](const V& x) { return x[0] < x[1]; }},
    {"ge_scalar", [](const V& x) { return x[0] >= 0.0; }},
};

ACCEL_OP_TEST_SUITE(BinaryOps, "ops_binary.json", kBinaryCases);

}  // namespace
}  // namespace accel
