// Element-wise binary ops: values, broadcasting, type promotion, in-place forms, errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "accel/accel.h"
#include "support/expect_error.h"
#include "support/integer_division.h"

namespace accel {
namespace {

using testing::expect_error_containing;

TEST(Binary, AddBroadcastsAndPromotes) {
  Tensor a = tensor({1.f, 2.f, 3.f}).view({3, 1});
  Tensor b = tensor({10.0, 20.0});
  Tensor c = a + b;
  EXPECT_EQ(c.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(c.dtype(), kFloat64);
  EXPECT_DOUBLE_EQ(c[2][1].item<double>(), 23.0);
}

// Integer quotients (only the kernel table divides integers) truncate toward zero, and the one
// that overflows, the minimum over -1, wraps to the minimum instead of trapping.
TEST(Binary, IntegerQuotientsTruncateAndTheOverflowingOneWraps) {
  for (ScalarType dtype : {kInt64, kInt32}) {
    const int64_t lowest =
        dtype == kInt64 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int32_t>::min();
    const Tensor a = tensor(std::vector<int64_t>{7, -7, 9, lowest, lowest}).to(dtype);
    const Tensor b = tensor(std::vector<int64_t>{2, 2, -4, -1, 1}).to(dtype);
    const Tensor expected = tensor(std::vector<int64_t>{3, -3, -2, lowest, lowest}).to(dtype);
    EXPECT_TRUE(testing::divide_integers(a, b).equal(expected)) << dtype;
  }
}

// Outputs beyond kStreamingOutputBytes take the streaming-store path: check every element,
// for an output that starts off a 16-byte boundary and has a ragged tail, and a bool output.
TEST(Binary, LargeResultsAreExactOnTheStreamingPath) {
  const int64_t n = (int64_t{9} << 20) + 7;            // 36 MiB of float32
  Tensor a = arange(n + 1, kFloat32).narrow(0, 1, n);  // 1, 2, ..., n: integers exact below 2^24
  Tensor b = full({n}, 2.0f);
  Tensor sum = a + b;
  Tensor twos = sum - a;
  EXPECT_TRUE(equal(twos, b));
  const float* s = sum.data_ptr<float>();
  EXPECT_EQ(s[0], 3.0f);
  EXPECT_EQ(s[n - 1], static_cast<float>(n) + 2.0f);
  Tensor flags = gt(sum, a);  // bool, 9 MiB: below the threshold at 1 byte per element
  EXPECT_TRUE(equal(flags, ones({n}, kBool)));
  Tensor wide = arange(n, kFloat64) * 2.0;  // float64, 72 MiB
  EXPECT_EQ(wide.data_ptr<double>()[n - 1], 2.0 * static_cast<double>(n - 1));
}

TEST(Binary, ScalarKeepsTensorDtype) {
  Tensor a = tensor({1.f, 2.f});
  EXPECT_EQ((a * 2.5).dtype(), kFloat32);
  Tensor i = tensor({1, 2});
  EXPECT_EQ((i * 2).dtype(), kInt64);
  EXPECT_EQ((i * 2.5).dtype(), kFloat32);
  EXPECT_EQ((i / 2).dtype(), kFloat32);
  EXPECT_FLOAT_EQ((i / 2)[0].item<float>(), 0.5f);
}

TEST(Binary, ZeroDimTensorDoesNotPromoteSameCategory) {
  Tensor a = tensor({1.f, 2.f});
  Tensor s = scalar_tensor(2.0, kFloat64);
  EXPECT_EQ((a + s).dtype(), kFloat32);
  Tensor i = tensor({1, 2});
  EXPECT_EQ((i + s).dtype(), kFloat64);
}

TEST(Binary, InPlaceKeepsStorageAndBumpsVersion) {
  Tensor a = ones({4});
  void* before = a.data_ptr();
  const uint32_t v = a.version();
  a.add_(tensor({1.f, 2.f, 3.f, 4.f}), 2);
  EXPECT_EQ(a.data_ptr(), before);
  EXPECT_EQ(a.version(), v + 1);
  EXPECT_FLOAT_EQ(a[3].item<float>(), 9.f);
}

TEST(Binary, InPlaceRejectsUnsafeCast) {
  Tensor i = tensor({1, 2});
  EXPECT_THROW(i.add_(tensor({0.5f, 1.f})), Error);
}

TEST(Binary, ShapeMismatchNamesOpAndShapes) {
  try {
    (void)(ones({2, 3}) + ones({4}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("add"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("[2, 3]"), std::string::npos) << e.what();
  }
}

// Misuse PyTorch refuses: subtracting masks, integers to negative integer powers, and writing
// element-wise into a broadcast view (whose elements share memory).
TEST(Binary, RefusesWhatPyTorchRefuses) {
  const Tensor mask = tensor({true, false});
  expect_error_containing([&] { (void)(mask - mask); },
                          "sub: subtraction of two bool tensors is not supported");
  expect_error_containing([&] { (void)(mask - 1); }, "sub: subtraction with a bool tensor");
  const Tensor numbers = tensor({1, 2});
  expect_error_containing([&] { (void)(numbers - mask); }, "sub: subtraction with a bool tensor");
  Tensor copy = mask.clone();
  expect_error_containing([&] { copy.sub_(mask); }, "sub_: subtraction of two bool tensors");
  expect_error_containing([] { (void)tensor({2}).pow(-1); },
                          "pow: integers to negative integer powers are not allowed (int64 tensor "
                          "to the power -1)");
  EXPECT_TRUE(tensor({2.0}).pow(-1).equal(tensor({0.5})));
  EXPECT_TRUE(tensor({2}).pow(-1.0).equal(tensor({0.5f})));
  Tensor shared = zeros({1}).expand({3});
  expect_error_containing([&] { shared.add_(1); },
                          "add_: more than one element of the written-to tensor (shape [3], "
                          "strides [0]) refers to a single memory location");
  expect_error_containing([&] { shared.copy_(ones({3})); }, "refers to a single memory location");
  shared.fill_(2);  // one value written everywhere: allowed, as PyTorch
  EXPECT_TRUE(shared.equal(full({3}, 2.f)));
}

TEST(Binary, ComparisonsGiveBool) {
  Tensor a = tensor({1.f, 2.f, 3.f});
  Tensor m = a > 1.5;
  EXPECT_EQ(m.dtype(), kBool);
  EXPECT_FALSE(m[0].item<bool>());
  EXPECT_TRUE(m[2].item<bool>());
}

TEST(Binary, MulGradient) {
  Tensor a = tensor({1.0, 2.0}).requires_grad_();
  Tensor b = tensor({3.0, 4.0}).requires_grad_();
  Tensor c = a * b;
  c.backward(ones({2}, kFloat64));
  EXPECT_DOUBLE_EQ(a.grad()[1].item<double>(), 4.0);
  EXPECT_DOUBLE_EQ(b.grad()[0].item<double>(), 1.0);
}

}  // namespace
}  // namespace accel
