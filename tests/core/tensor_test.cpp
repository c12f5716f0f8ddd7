// Tensor basics: factories, from_blob, element access and its errors, assignment to views,
// dtype conversion (Half/BFloat16 rounding), PyTorch's promotion table, the allocator and
// geometry types.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using testing::expect_error_containing;

TEST(Factories, ShapesDtypesAndValues) {
  Tensor z = zeros({2, 3});
  EXPECT_EQ(z.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(z.dtype(), kFloat32);
  EXPECT_EQ(z.numel(), 6);
  EXPECT_TRUE(z.is_contiguous());
  EXPECT_EQ(ones({2}, kInt64)[1].item<int64_t>(), 1);
  EXPECT_DOUBLE_EQ(full({2, 2}, 2.5, kFloat64)[1][1].item<double>(), 2.5);
  EXPECT_EQ(zeros_like(z, kFloat64).dtype(), kFloat64);
  EXPECT_TRUE(ones({3}, TensorOptions().requires_grad(true)).requires_grad());
  EXPECT_THROW(zeros({2, -1}), Error);
}

TEST(Factories, ArangeInfersDtype) {
  Tensor i = arange(5);
  EXPECT_EQ(i.dtype(), kInt64);
  EXPECT_EQ(i[4].item<int64_t>(), 4);
  Tensor f = arange(0, 1, 0.25);
  EXPECT_EQ(f.dtype(), kFloat32);
  EXPECT_EQ(f.numel(), 4);
  EXPECT_FLOAT_EQ(f[3].item<float>(), 0.75f);
  EXPECT_EQ(arange(10, 0, -3).numel(), 4);
  EXPECT_THROW(arange(0, 5, 0), Error);
  EXPECT_THROW(arange(5, 0, 1), Error);
}

TEST(Factories, LinspaceAndEye) {
  Tensor l = linspace(-1, 1, 5, kFloat64);
  EXPECT_DOUBLE_EQ(l[0].item<double>(), -1.0);
  EXPECT_DOUBLE_EQ(l[2].item<double>(), 0.0);
  EXPECT_DOUBLE_EQ(l[4].item<double>(), 1.0);
  EXPECT_TRUE(linspace(2, 7, 1).equal(tensor({2.f})));  // one step is the start, as PyTorch
  EXPECT_EQ(linspace(2, 7, 0).numel(), 0);
  Tensor e = eye(2, 3);
  EXPECT_EQ(e.sizes(), IntArrayRef({2, 3}));
  EXPECT_FLOAT_EQ(e[1][1].item<float>(), 1.f);
  EXPECT_FLOAT_EQ(e[1][2].item<float>(), 0.f);
}

TEST(Factories, TensorFromValues) {
  EXPECT_EQ(tensor({1.f, 2.f}).dtype(), kFloat32);
  EXPECT_EQ(tensor({1.0, 2.0}).dtype(), kFloat64);
  EXPECT_EQ(tensor({1, 2}).dtype(), kInt64);
  EXPECT_EQ(tensor({true, false}).dtype(), kBool);
  EXPECT_EQ(tensor({1, 2}, kFloat32).dtype(), kFloat32);
  EXPECT_EQ(scalar_tensor(3).dim(), 0);
  // Options without a dtype keep the values' type.
  EXPECT_EQ(tensor({1, 2}, TensorOptions().requires_grad(false)).dtype(), kInt64);
  EXPECT_EQ(tensor({1.0, 2.0}, TensorOptions().device(kCPU)).dtype(), kFloat64);
}

TEST(Factories, TensorFromNestedLists) {
  const Tensor matrix = tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  EXPECT_EQ(matrix.dtype(), kFloat32);
  EXPECT_EQ(matrix.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(matrix.index({1, 2}).item<float>(), 6.f);
  const Tensor cube = tensor({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}});
  EXPECT_EQ(cube.dtype(), kInt64);
  EXPECT_EQ(cube.sizes(), IntArrayRef({2, 2, 2}));
  EXPECT_EQ(cube.index({1, 0, 1}).item<int64_t>(), 6);
  EXPECT_EQ(tensor({{1.0, 2.0}}).dtype(), kFloat64);
  EXPECT_EQ(tensor({{true, false}, {false, true}}).sum().item<int64_t>(), 2);
  EXPECT_EQ(tensor({{1, 2}, {3, 4}}, kFloat32).dtype(), kFloat32);
  expect_error_containing(
      [] {
        (void)tensor({{1.f, 2.f}, {3.f}});
      },
      "expected 2 at level 1, got 1");
}

TEST(Factories, FullTakesTheValuesTypeWithoutADtype) {
  EXPECT_EQ(full({2}, 3).dtype(), kInt64);
  EXPECT_EQ(full({2}, true).dtype(), kBool);
  EXPECT_EQ(full({2}, 0.5).dtype(), kFloat32);
  EXPECT_EQ(full({2}, 3, kFloat64).dtype(), kFloat64);
  EXPECT_EQ(full({2}, 3, TensorOptions().requires_grad(false)).dtype(), kInt64);
  EXPECT_EQ(zeros({2}).dtype(), kFloat32);
  EXPECT_EQ(ones({2}, TensorOptions().requires_grad(true)).dtype(), kFloat32);
  EXPECT_EQ(scalar_tensor(3).dtype(), kInt64);
  EXPECT_EQ(scalar_tensor(2.5).dtype(), kFloat32);
}

TEST(FromBlob, ViewsCallerMemoryWithoutCopy) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  Tensor t = from_blob(data, {2, 3});
  EXPECT_EQ(t.data_ptr<float>(), data);
  EXPECT_FLOAT_EQ(t[1][2].item<float>(), 5.f);
  data[0] = 42;
  EXPECT_FLOAT_EQ(t[0][0].item<float>(), 42.f);
  Tensor strided = from_blob(data, {3}, {2});
  EXPECT_FLOAT_EQ(strided[2].item<float>(), 4.f);
}

TEST(FromBlob, DeleterRunsWhenLastViewDies) {
  bool deleted = false;
  {
    auto* data = new float[4]{};
    Tensor t = from_blob(data, {4}, [&](void* p) {
      delete[] static_cast<float*>(p);
      deleted = true;
    });
    Tensor view = t.view({2, 2});
    t = Tensor();
    EXPECT_FALSE(deleted);
  }
  EXPECT_TRUE(deleted);
}

TEST(FromBlob, InvalidArgumentsAreErrors) {
  float data[4];
  EXPECT_THROW(from_blob(nullptr, {2}), Error);
  EXPECT_THROW(from_blob(data, {-1}), Error);
  EXPECT_THROW(from_blob(data, {2, 2}, IntArrayRef{1}), Error);
}

// Sizes may come from files: a shape whose element count, strides or bytes overflow int64 is an
// error naming the op and the shape, never a wrapped-around (and too small) allocation.
TEST(Factories, ShapesBeyondInt64AreErrors) {
  const int64_t big = int64_t{1} << 40;
  testing::expect_error_containing(
      [&] {
        empty({big, big});
      },
      "empty: shape [1099511627776, 1099511627776] has more "
      "elements than int64 can count");
  // Empty, but its strides (PyTorch counts size 0 as 1 there) would not fit.
  testing::expect_error_containing(
      [&] {
        empty({0, big, big});
      },
      "empty: the strides of shape [0, 1099511627776, "
      "1099511627776] do not fit int64");
  testing::expect_error_containing(
      [&] {
        empty({int64_t{1} << 60, 4}, kFloat64);
      },
      "needs more bytes than int64 can count");
  testing::expect_error_containing(
      [&] {
        empty_strided({big, 2}, {int64_t{1} << 62, 1});
      },
      "reaches beyond what int64 can count");
  EXPECT_EQ(empty({0, int64_t{1} << 31, int64_t{1} << 31}).numel(), 0);
}

TEST(Item, RequiresOneElement) {
  try {
    (void)zeros({2, 2}).item<float>();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("item"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("[2, 2]"), std::string::npos);
  }
  EXPECT_THROW(zeros({2}).data_ptr<double>(), Error);
  expect_error_containing([] { (void)(Tensor() + 1); }, "the tensor is undefined");
}

// item<T>() and fills check that the value fits T, as LibTorch's Scalar::to: a plain cast was
// undefined behaviour (1e20 as int32 gave INT32_MIN, NaN as int64 gave INT64_MIN).
TEST(Item, ValuesThatDoNotFitTheRequestedTypeAreErrors) {
  expect_error_containing([] { (void)scalar_tensor(1e20, kFloat64).item<int32_t>(); },
                          "item: value 1e+20 cannot be converted to int32 without overflow");
  expect_error_containing([] { (void)scalar_tensor(int64_t{300}).item<uint8_t>(); }, "uint8");
  expect_error_containing([] { (void)scalar_tensor(NAN).item<int64_t>(); }, "nan");
  expect_error_containing([] { (void)scalar_tensor(INFINITY).item<int32_t>(); }, "inf");
  expect_error_containing([] { (void)scalar_tensor(1e300, kFloat64).item<float>(); }, "float32");
  expect_error_containing([] { (void)scalar_tensor(int64_t{1} << 40).item<int32_t>(); },
                          "1099511627776");
  expect_error_containing([] { (void)zeros({2}, kInt32).fill_(1e20); }, "fill_");
  expect_error_containing([] { (void)zeros({2}, kFloat16).fill_(70000.0); }, "float16");
  expect_error_containing(
      [] { (void)zeros({2}, kInt32).masked_fill(ones({2}, kBool), int64_t{1} << 40); },
      "masked_fill");
  // What fits converts as before: truncation, infinities and NaN into floats, wrapping
  // negative integers into uint8 (uint8 - 200 computes as + 56), the extremes themselves.
  EXPECT_EQ(scalar_tensor(-2.9).item<int32_t>(), -2);
  EXPECT_EQ(scalar_tensor(2147483647.5, kFloat64).item<int32_t>(), 2147483647);
  EXPECT_EQ(scalar_tensor(-2147483648.9, kFloat64).item<int32_t>(), -2147483648);
  EXPECT_EQ(scalar_tensor(-9.2233720368547758e18, kFloat64).item<int64_t>(),
            std::numeric_limits<int64_t>::min());
  EXPECT_TRUE(std::isinf(scalar_tensor(INFINITY, kFloat64).item<float>()));
  EXPECT_TRUE(std::isnan(scalar_tensor(NAN, kFloat64).item<Half>()));
  EXPECT_EQ(scalar_tensor(int64_t{-200}).item<uint8_t>(), 56);
  EXPECT_EQ(scalar_tensor(65504.0).item<Half>(), Half(65504.f));
  EXPECT_EQ(scalar_tensor(1e300, kFloat64).item<bool>(), true);
}

// A number as an arithmetic or comparison operand converts as in PyTorch, never an error:
// integers wrap into the computing type, floats beyond its range become infinities.
TEST(Item, NumbersAsOperandsWrapOrOverflowAsPyTorch) {
  const Tensor bytes = tensor({1, 50}).to(kUInt8);
  EXPECT_TRUE((bytes + 300).equal(tensor({45, 94}).to(kUInt8)));
  EXPECT_TRUE((bytes > 300).equal(tensor({false, true})));
  EXPECT_TRUE((ones({2}, kInt32) + (int64_t{1} << 40)).equal(ones({2}, kInt32)));
  EXPECT_TRUE(std::isinf((ones({1}) * 1e300).item<float>()));
  EXPECT_TRUE(std::isinf((ones({1}) + 1e39).item<float>()));
  EXPECT_TRUE(std::isinf((ones({1}, kFloat16) + 7e4).to(kFloat32).item<float>()));
  EXPECT_EQ((ones({1}, kFloat16) * 65519.0).to(kFloat32).item<float>(), 65504.f);
  EXPECT_EQ((ones({1}, kFloat64) * 1e300).item<double>(), 1e300);
}

// Assigning to a temporary writes into the tensor it views (LibTorch's rvalue assignment);
// assigning to a named tensor rebinds it.
TEST(Assignment, ToAViewWritesIntoTheTensor) {
  Tensor a = zeros({2, 3});
  a[0][1] = 7;
  a[1] = tensor({4.f, 5.f, 6.f});
  a.select(1, 0) = ones({1});  // broadcast
  EXPECT_TRUE(a.equal(tensor({1.f, 7.f, 0.f, 1.f, 5.f, 6.f}).view({2, 3}))) << a;
  a.slice(1, 1) = tensor({int64_t{2}, int64_t{3}});  // converted to a's dtype
  EXPECT_TRUE(a.equal(tensor({1.f, 2.f, 3.f, 1.f, 2.f, 3.f}).view({2, 3}))) << a;
  Tensor named = a[0];
  named = zeros({5});  // rebinds: a is unchanged
  EXPECT_EQ(named.numel(), 5);
  EXPECT_EQ(a[0][0].item<float>(), 1.f);
  expect_error_containing([&] { a[0] = zeros({4}); }, "[4]");
}

TEST(Conversion, HalfAndBFloat16RoundToNearestEven) {
  EXPECT_EQ(Half(1.0f).bits, 0x3c00);
  EXPECT_EQ(Half(65504.f).bits, 0x7bff);
  EXPECT_EQ(Half(65520.f).bits, 0x7c00);             // halfway to the next: rounds to inf
  EXPECT_EQ(Half(1.0f + 1.0f / 2048).bits, 0x3c00);  // tie to even
  EXPECT_EQ(Half(5.96046448e-08f).bits, 0x0001);     // smallest subnormal
  EXPECT_FLOAT_EQ(static_cast<float>(Half::from_bits(0x0001)), 5.96046448e-08f);
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(BFloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(BFloat16(1.0f + 1.0f / 256).bits, 0x3f80);  // tie to even
  EXPECT_EQ(BFloat16(1.0f + 3.0f / 256).bits, 0x3f82);
  EXPECT_FLOAT_EQ(static_cast<float>(BFloat16::from_bits(0x4049)), 3.140625f);
}

TEST(Conversion, ToDtypeRoundTrips) {
  Tensor x = tensor({1.5, -2.25, 3.0});
  EXPECT_TRUE(x.to(kFloat32).to(kFloat64).equal(x));
  EXPECT_TRUE(x.to(kBFloat16).to(kFloat64).equal(x));
  EXPECT_EQ(x.to(kInt64)[1].item<int64_t>(), -2);
  EXPECT_EQ(x.to(kBool)[0].item<bool>(), true);
  EXPECT_TRUE(x.to(kFloat64).is_same(x));
  EXPECT_FALSE(x.to(kFloat64, /*copy=*/true).is_same(x));
}

TEST(Conversion, FloatsIntoUInt8TruncateThroughInt64AsPyTorch) {
  // torch.tensor([-1.0, -3.7, 300.5, 255.9]).to(torch.uint8) is [255, 253, 44, 255].
  const Tensor bytes = tensor({-1.0, -3.7, 300.5, 255.9}).to(kUInt8);
  EXPECT_TRUE(bytes.equal(tensor({255, 253, 44, 255}).to(kUInt8))) << bytes;
  EXPECT_TRUE(tensor({-1.0f, -3.7f}, kFloat16).to(kUInt8).equal(tensor({255, 253}).to(kUInt8)));
}

TEST(Conversion, NonContiguousCopy) {
  Tensor m = arange(6, kFloat32).view({2, 3}).t();
  EXPECT_FALSE(m.is_contiguous());
  Tensor c = m.contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_FLOAT_EQ(c[2][1].item<float>(), 5.f);
  EXPECT_FLOAT_EQ(m.to(kFloat64)[2][0].item<double>(), 2.0);
}

TEST(Conversion, ToADeviceTypeAlone) {
  Tensor x = tensor({1.5, -2.25});
  EXPECT_TRUE(x.to(kCPU).is_same(x));
  EXPECT_FALSE(x.to(kCPU, /*non_blocking=*/false, /*copy=*/true).is_same(x));
  EXPECT_EQ(x.to(kCPU).device(), Device(kCPU));
}

TEST(Promotion, MatchesPyTorchTable) {
  EXPECT_EQ(promote_types(kInt64, kFloat16), kFloat16);
  EXPECT_EQ(promote_types(kFloat16, kBFloat16), kFloat32);
  EXPECT_EQ(promote_types(kUInt8, kInt32), kInt32);
  EXPECT_EQ(promote_types(kBool, kUInt8), kUInt8);
  EXPECT_EQ(promote_types(kInt32, kFloat64), kFloat64);
  for (int i = 0; i < kNumScalarTypes; ++i) {
    for (int j = 0; j < kNumScalarTypes; ++j) {
      const auto a = static_cast<ScalarType>(i), b = static_cast<ScalarType>(j);
      EXPECT_EQ(promote_types(a, b), promote_types(b, a)) << a << " " << b;
    }
  }
}

TEST(Allocator, TracksCurrentAndPeakAndReuses) {
  Allocator& allocator = allocator_for(Device(kCPU));
  allocator.reset_peak_stats();
  const AllocatorStats before = allocator.stats();
  {
    Tensor t = empty({1 << 20});
    EXPECT_GE(allocator.stats().allocated_bytes - before.allocated_bytes, 4 << 20);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % 64, 0u);
  }
  const AllocatorStats after = allocator.stats();
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
  EXPECT_GE(after.peak_allocated_bytes, before.allocated_bytes + (4 << 20));
  if (allocator_cache_enabled()) {
    const int64_t hits = after.num_cache_hits;
    Tensor again = empty({1 << 20});
    EXPECT_EQ(allocator.stats().num_cache_hits, hits + 1);
  }
}

TEST(Allocator, BypassReturnsMemoryToTheSystem) {
  const bool was_enabled = allocator_cache_enabled();
  set_allocator_cache_enabled(false);
  { Tensor t = empty({1000}); }
  EXPECT_EQ(allocator_for(Device(kCPU)).stats().cached_bytes, 0);
  set_allocator_cache_enabled(was_enabled);
}

TEST(Device, ParsesAndReportsCuda) {
  EXPECT_EQ(Device("cuda:1"), Device(kCUDA, 1));
  EXPECT_TRUE(Device("cpu").is_cpu());
  EXPECT_THROW(Device("gpu"), Error);
  EXPECT_THROW(Device("cuda:"), Error);
  EXPECT_THROW(Device("cuda:-1"), Error);
  EXPECT_EQ(Device("cuda:63"), Device(kCUDA, 63));
  expect_error_containing([] { Device("cuda:64"); }, "out of range");
  expect_error_containing([] { Device("cuda:1000"); }, "out of range");
  EXPECT_GE(cuda::device_count(), 0);
}

TEST(Device, PrintsToStreams) {
  std::ostringstream out;
  out << Device(kCPU) << " " << Device(kCUDA, 1);
  EXPECT_EQ(out.str(), "cpu cuda:1");
}

// Without the backend or a device, placing a tensor on CUDA says which is missing.
TEST(Device, UnavailableCudaIsAClearError) {
  if (cuda::is_available()) GTEST_SKIP() << "a CUDA device is present";
  const std::string expected =
      cuda::is_compiled() ? "no CUDA device on this machine" : "this build of accel has no CUDA";
  expect_error_containing([] { zeros({2}, Device(kCUDA)); }, expected);
  expect_error_containing([] { cuda::check_device(Device(kCUDA, 3), "op"); }, expected);
}

TEST(Geometry, SmallVectorSpillsAndShrinks) {
  DimVector v;
  for (int64_t i = 0; i < 10; ++i) v.push_back(i);
  EXPECT_EQ(v.size(), 10u);
  EXPECT_EQ(v[9], 9);
  v.resize(3);
  EXPECT_EQ(v[2], 2);
  v.insert(0, -1);
  EXPECT_EQ(v[0], -1);
  EXPECT_EQ(v[3], 2);
  v.erase(0);
  EXPECT_EQ(IntArrayRef(v), IntArrayRef({0, 1, 2}));
  v.resize(1);
  v.resize(3);  // grown elements are zero, whatever the slots held before
  EXPECT_EQ(IntArrayRef(v), IntArrayRef({0, 0, 0}));
  Tensor big = zeros({1, 1, 1, 1, 1, 1, 1, 2});
  EXPECT_EQ(big.dim(), 8);
  EXPECT_EQ(big.size(-1), 2);
}

TEST(Geometry, DimErrorsNameTheOp) {
  try {
    (void)zeros({2, 3}).size(2);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("size: dimension out of range"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace accel
