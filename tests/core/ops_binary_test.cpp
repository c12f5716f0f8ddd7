// Op table for the element-wise binary ops (cases: tests/reference/cases_binary.py).
#include <limits>

#include "support/expect_error.h"
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
    {"atan2", [](const V& x) { return x[0].atan2(x[1]); }},
    {"hypot", [](const V& x) { return hypot(x[0], x[1]); }},
    {"logaddexp", [](const V& x) { return logaddexp(x[0], x[1]); }},
    // fmod and remainder jump where a / b crosses an integer, which bfloat16's rounding of the
    // inputs moves: float32 only.
    {"fmod", [](const V& x) { return fmod(x[0] * 3, x[1]); }, {kFloat32}},
    {"remainder", [](const V& x) { return remainder(x[0] * 3, x[1]); }, {kFloat32}},
    {"fmod_scalar", [](const V& x) { return fmod(x[0] * 5, 1.5); }, {kFloat32}},
    {"remainder_negative_scalar",
     [](const V& x) { return (x[0] * 5).remainder(-1.5); },
     {kFloat32}},
    {"floor_divide", [](const V& x) { return floor_divide(x[0] * 4, x[1]); }},
    {"fmod_int64", [](const V& x) { return fmod(x[0], -x[1]); }},
    {"remainder_int64", [](const V& x) { return remainder(x[0], -x[1]); }},
    {"floor_divide_int64", [](const V& x) { return floor_divide(x[0], -x[1]); }},
};

ACCEL_OP_TEST_SUITE(BinaryOps, "ops_binary.json", kBinaryCases);

TEST(BinaryOps, DivisionsRoundAsPyTorchAndRejectZeroIntegerDivisors) {
  // -7 = 2 * -4 + 1 (floored) = 2 * -3 - 1 (truncated).
  EXPECT_EQ(floor_divide(full({1}, -7, kInt64), 2).item<int64_t>(), -4);
  EXPECT_EQ(remainder(full({1}, -7, kInt64), 2).item<int64_t>(), 1);
  EXPECT_EQ(fmod(full({1}, -7, kInt64), 2).item<int64_t>(), -1);
  EXPECT_EQ(floor_divide(full({1}, -7.0), 2).item<double>(), -4.0);
  EXPECT_EQ(floor_divide(full({1}, 1.0), 0).item<double>(),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(fmod(full({1}, 5, kInt32), 3).dtype(), kInt32);
  EXPECT_EQ(atan2(ones({1}, kInt64), ones({1}, kInt64)).dtype(), kFloat32);
  testing::expect_error_containing([] { fmod(ones({2}, kInt64), zeros({2}, kInt64)); },
                                   "fmod: integer division by zero");
  testing::expect_error_containing([] { floor_divide(ones({2}, kInt64), 0); },
                                   "floor_divide: integer division by zero");
  testing::expect_error_containing([] { remainder(ones({2}, kBool), ones({2}, kBool)); },
                                   "remainder: not supported for two bool tensors");
  // logaddexp of equal infinities is that infinity, not NaN.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(logaddexp(full({1}, -inf), full({1}, -inf)).item<double>(), -inf);
  EXPECT_EQ(hypot(full({1}, 3e30), full({1}, 4e30)).item<double>(), 5e30f);
}

}  // namespace
}  // namespace accel
