// where, masked_fill, allclose and equal: the PyTorch-fixture table
// (tests/reference/cases_where.py) plus promotion, broadcasting and error cases.
#include <string>

#include "support/op_harness.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;

const std::vector<OpCase> kWhereCases = {
    {"where", [](const V& x) { return where(x[0], x[1], x[2]); }},
    {"where_broadcast", [](const V& x) { return x[1].where(x[0], x[2]); }},
    {"where_scalar_other", [](const V& x) { return where(x[0], x[1], 0.5); }},
    {"where_scalar_self", [](const V& x) { return where(x[0], -1.5, x[1]); }},
    {"where_int64", [](const V& x) { return where(x[0], x[1], x[2]); }},
    {"masked_fill", [](const V& x) { return x[0].masked_fill(x[1], -2.0); }},
    {"masked_fill_broadcast_mask", [](const V& x) { return masked_fill(x[0], x[1], 3.0); }},
    {"masked_fill_broadcast_self", [](const V& x) { return masked_fill(x[0], x[1], 0.0); }},
};

ACCEL_OP_TEST_SUITE(WhereOps, "ops_where.json", kWhereCases);

const Tensor kCond = tensor({true, false});

TEST(Where, PromotesLikePyTorch) {
  const Tensor i = tensor({-1, 2});
  EXPECT_EQ(where(kCond, i, 2.5).dtype(), kFloat32);
  EXPECT_FLOAT_EQ(where(kCond, i, 2.5)[1].item<float>(), 2.5f);
  EXPECT_EQ(where(kCond, 2.5, i).dtype(), kFloat32);
  EXPECT_EQ(where(kCond, i, 3).dtype(), kInt64);
  EXPECT_EQ(where(kCond, i.to(kFloat32), i.to(kFloat64)).dtype(), kFloat64);
  // A 0-dim tensor does not promote within its category.
  EXPECT_EQ(where(kCond, i.to(kFloat32), scalar_tensor(1.0, kFloat64)).dtype(), kFloat32);
  EXPECT_EQ(where(kCond, kCond, tensor({true, true})).dtype(), kBool);
}

TEST(Where, ConditionMustBeBool) {
  try {
    (void)where(tensor({1, 0}), ones({2}), zeros({2}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("where"), std::string::npos) << msg;
    EXPECT_NE(msg.find("int64"), std::string::npos) << msg;
  }
  EXPECT_THROW((void)where(kCond, ones({3}), zeros({3})), Error);  // shapes don't broadcast
}

TEST(MaskedFill, KeepsDtypeAndBroadcasts) {
  const Tensor i = tensor({-1, 2});
  const Tensor r = i.masked_fill(kCond, 2.5);
  EXPECT_EQ(r.dtype(), kInt64);
  EXPECT_EQ(r[0].item<int64_t>(), 2);
  const Tensor wide = zeros({3}).masked_fill(ones({2, 3}, kBool), 1);
  EXPECT_EQ(wide.sizes(), IntArrayRef({2, 3}));
  EXPECT_TRUE(wide.equal(ones({2, 3})));
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(zeros({2}).masked_fill(kCond, -inf)[0].item<float>(), -inf);
}

TEST(MaskedFill, NonBoolMaskNamesOpAndDtype) {
  try {
    (void)zeros({3}).masked_fill(ones({3}), 1);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("masked_fill"), std::string::npos) << msg;
    EXPECT_NE(msg.find("float32"), std::string::npos) << msg;
  }
}

TEST(AllClose, ToleranceNanAndBroadcasting) {
  const Tensor a = tensor({1.0, 2.0});
  EXPECT_TRUE(allclose(a, a + 1e-9));
  EXPECT_FALSE(allclose(a, a + 1e-3));
  EXPECT_TRUE(allclose(a, a + 1e-3, 0, 1e-2));
  EXPECT_TRUE(allclose(a, tensor({1.0, 2.0 + 1.5e-5}), 1e-5, 0));  // rtol scales with |b|
  EXPECT_FALSE(allclose(a, tensor({1.0, 2.0 + 3e-5}), 1e-5, 0));
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(allclose(tensor({nan}), tensor({nan})));
  EXPECT_TRUE(allclose(tensor({nan}), tensor({nan}), 1e-5, 1e-8, true));
  EXPECT_TRUE(allclose(tensor({inf}), tensor({inf})));
  EXPECT_FALSE(allclose(tensor({inf}), tensor({-inf})));
  EXPECT_TRUE(ones({3}).allclose(ones({2, 3})));  // broadcasts, as torch.allclose
  EXPECT_THROW((void)allclose(ones({3}), ones({2})), Error);
  EXPECT_TRUE(allclose(tensor({1, 2}), tensor({1, 2})));
  EXPECT_FALSE(allclose(tensor({1, 2}), tensor({1, 3})));
  // Large enough to be split across threads: one differing element anywhere is found.
  const int64_t n = 1 << 18;
  const Tensor big = zeros({n});
  EXPECT_TRUE(allclose(big, big.clone()));
  EXPECT_FALSE(allclose(big, big.masked_fill(arange(n) == n - 1, 1.0)));
  // Strided operands.
  const Tensor m = arange(6, kFloat64).view({2, 3});
  EXPECT_TRUE(allclose(m.t(), m.t().contiguous()));
}

TEST(AllClose, DtypesMustMatch) {
  try {
    (void)allclose(ones({2}), ones({2}, kFloat64));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("allclose"), std::string::npos) << msg;
    EXPECT_NE(msg.find("float64"), std::string::npos) << msg;
  }
}

TEST(Equal, SizesAndValues) {
  const Tensor a = tensor({1.f, 2.f, 3.f});
  EXPECT_TRUE(equal(a, a.clone()));
  EXPECT_FALSE(equal(a, tensor({1.f, 2.f, 4.f})));
  EXPECT_FALSE(a.equal(a.view({1, 3})));  // same values, different sizes
  EXPECT_FALSE(a.equal(ones({2})));       // shape mismatch is false, not an error
  EXPECT_TRUE(a.equal(a.to(kFloat64)));   // dtypes may differ, as torch.equal
  EXPECT_TRUE(a.equal(tensor({1, 2, 3})));
  EXPECT_FALSE(equal(a, a + 1e-6));  // exact: no tolerance
  const double nan = std::nan("");
  EXPECT_FALSE(equal(tensor({nan}), tensor({nan})));
  EXPECT_TRUE(equal(zeros({0}), zeros({0})));
}

}  // namespace
}  // namespace accel
