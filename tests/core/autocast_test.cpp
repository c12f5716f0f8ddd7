// Autocast: per-thread, per-device state set by AutocastGuard, and the casts autocast_input
// applies (differentiably) under each policy.
#include <gtest/gtest.h>

#include <thread>

#include "accel/accel.h"

namespace accel {
namespace {

TEST(Autocast, OffByDefaultSoInputsPassThrough) {
  EXPECT_FALSE(is_autocast_enabled(kCPU));
  EXPECT_FALSE(is_autocast_enabled(kCUDA));
  EXPECT_EQ(get_autocast_dtype(kCPU), kBFloat16);
  EXPECT_EQ(get_autocast_dtype(kCUDA), kFloat16);
  Tensor x = ones({2});
  EXPECT_TRUE(autocast_input(x, CastPolicy::LowerPrecision).is_same(x));
  Tensor h = ones({2}, kBFloat16);
  EXPECT_TRUE(autocast_input(h, CastPolicy::Float32).is_same(h));
}

TEST(Autocast, LowerPrecisionRunsInBFloat16AndGradientsReachFloat32Leaf) {
  Tensor w = tensor({1.5f, -2.f, 3.25f}).requires_grad_();
  Tensor loss;
  {
    AutocastGuard guard(kCPU);
    EXPECT_TRUE(is_autocast_enabled(kCPU));
    Tensor low = autocast_input(w, CastPolicy::LowerPrecision);
    EXPECT_EQ(low.dtype(), kBFloat16);
    EXPECT_TRUE(low.requires_grad());
    loss = (low * low).sum();
  }
  EXPECT_FALSE(is_autocast_enabled(kCPU));
  loss.backward();
  ASSERT_TRUE(w.grad().defined());
  EXPECT_EQ(w.grad().dtype(), kFloat32);
  EXPECT_TRUE(w.grad().equal(tensor({3.f, -4.f, 6.5f})));
}

TEST(Autocast, Float32PolicyWidensHalfPrecisionInputs) {
  AutocastGuard guard(kCPU, kBFloat16);
  Tensor h = tensor({0.5f, 2.f}).to(kBFloat16);
  Tensor wide = autocast_input(h, CastPolicy::Float32);
  EXPECT_EQ(wide.dtype(), kFloat32);
  EXPECT_TRUE(wide.equal(tensor({0.5f, 2.f})));
  Tensor f = ones({2});
  EXPECT_TRUE(autocast_input(f, CastPolicy::Float32).is_same(f));
}

TEST(Autocast, IntegerAndDoubleTensorsPassThrough) {
  AutocastGuard guard(kCPU);
  Tensor i = tensor({1, 2, 3});
  EXPECT_TRUE(autocast_input(i, CastPolicy::LowerPrecision).is_same(i));
  EXPECT_TRUE(autocast_input(i, CastPolicy::Float32).is_same(i));
  Tensor b = tensor({true, false});
  EXPECT_TRUE(autocast_input(b, CastPolicy::LowerPrecision).is_same(b));
  Tensor d = ones({2}, kFloat64);  // PyTorch leaves float64 alone under autocast
  EXPECT_TRUE(autocast_input(d, CastPolicy::LowerPrecision).is_same(d));
  EXPECT_TRUE(autocast_input(Tensor(), CastPolicy::LowerPrecision).defined() == false);
}

TEST(Autocast, NestedGuardsRestoreState) {
  {
    AutocastGuard outer(kCPU);
    {
      AutocastGuard inner(kCPU, kBFloat16, /*enabled=*/false);
      EXPECT_FALSE(is_autocast_enabled(kCPU));
      Tensor x = ones({2});
      EXPECT_TRUE(autocast_input(x, CastPolicy::LowerPrecision).is_same(x));
    }
    EXPECT_TRUE(is_autocast_enabled(kCPU));
    EXPECT_EQ(autocast_input(ones({2}), CastPolicy::LowerPrecision).dtype(), kBFloat16);
    {
      AutocastGuard cuda(kCUDA, kBFloat16);
      EXPECT_EQ(get_autocast_dtype(kCUDA), kBFloat16);
    }
    EXPECT_FALSE(is_autocast_enabled(kCUDA));
    EXPECT_EQ(get_autocast_dtype(kCUDA), kFloat16);
  }
  EXPECT_FALSE(is_autocast_enabled(kCPU));
}

TEST(Autocast, StateIsPerThread) {
  AutocastGuard guard(kCPU);
  bool other_thread_enabled = true;
  std::thread([&] { other_thread_enabled = is_autocast_enabled(kCPU); }).join();
  EXPECT_FALSE(other_thread_enabled);
  EXPECT_TRUE(is_autocast_enabled(kCPU));
}

TEST(Autocast, RejectsUnsupportedDtypes) {
  EXPECT_THROW(AutocastGuard(kCPU, kFloat64), Error);
  EXPECT_THROW(AutocastGuard(kCUDA, kFloat32), Error);
  try {
    AutocastGuard guard(kCPU, kInt64);
    ADD_FAILURE() << "expected accel::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("int64"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(is_autocast_enabled(kCPU));
}

}  // namespace
}  // namespace accel
