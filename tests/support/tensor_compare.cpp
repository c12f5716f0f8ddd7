// Tensor comparisons for tests: each copies both tensors to the CPU in one dtype and walks them
// in row-major order, reporting the first kReported elements that differ by their coordinates.
#include "support/tensor_compare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace accel::testing {

namespace {

constexpr int64_t kReported = 5;

// "[i, j, ...]": the coordinates of the flat row-major index `flat` in a tensor of `sizes`.
std::string coordinates(int64_t flat, IntArrayRef sizes) {
  std::vector<int64_t> index(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    index[d] = flat % sizes[d];
    flat /= sizes[d];
  }
  return fmt::format("[{}]", fmt::join(index, ", "));
}

// A CPU copy of `t` (detached, row-major) in `dtype`.
Tensor on_cpu_as(const Tensor& t, ScalarType dtype) {
  return t.detach().cpu().to(dtype).contiguous();
}

// Counts the mismatches that `ok(k)` finds among n elements, reporting the first few through
// `describe(k)`, and then how many there were in all.
template <typename Ok, typename Describe>
void report_mismatches(int64_t n, const std::string& what, const Ok& ok, const Describe& describe) {
  int64_t mismatches = 0;
  for (int64_t k = 0; k < n; ++k) {
    if (ok(k)) continue;
    if (mismatches++ < kReported) ADD_FAILURE() << what << ": element " << describe(k);
  }
  if (mismatches > kReported) {
    ADD_FAILURE() << what << ": " << mismatches << " of " << n << " elements differ";
  }
}

}  // namespace

void expect_tensors_close(const Tensor& actual, const Tensor& expected, Tolerance tol,
                          const std::string& what, const Tensor& atol_scale) {
  ASSERT_TRUE(actual.defined()) << what << ": the result is undefined";
  ASSERT_TRUE(expected.defined()) << what << ": the expected tensor is undefined";
  ASSERT_EQ(actual.sizes().vec(), expected.sizes().vec()) << what << ": sizes";
  const IntArrayRef sizes = expected.sizes();
  if (!expected.is_floating_point()) {
    ASSERT_EQ(actual.dtype(), expected.dtype()) << what << ": dtype";
    const Tensor a = on_cpu_as(actual, kInt64), e = on_cpu_as(expected, kInt64);
    const int64_t* pa = a.data_ptr<int64_t>();
    const int64_t* pe = e.data_ptr<int64_t>();
    report_mismatches(
        e.numel(), what, [&](int64_t k) { return pa[k] == pe[k]; },
        [&](int64_t k) {
          return fmt::format("{} is {}, expected {}", coordinates(k, sizes), pa[k], pe[k]);
        });
    return;
  }
  const Tensor a = on_cpu_as(actual, kFloat64), e = on_cpu_as(expected, kFloat64);
  const Tensor scale =
      atol_scale.defined() ? on_cpu_as(atol_scale, kFloat64) : ones(expected.sizes(), kFloat64);
  ASSERT_EQ(scale.numel(), e.numel()) << what << ": atol_scale";
  const double* pa = a.data_ptr<double>();
  const double* pe = e.data_ptr<double>();
  const double* ps = scale.data_ptr<double>();
  auto bound = [&](int64_t k) { return tol.atol * ps[k] + tol.rtol * std::abs(pe[k]); };
  report_mismatches(
      e.numel(), what,
      [&](int64_t k) {
        return std::isnan(pe[k])   ? std::isnan(pa[k])
               : std::isinf(pe[k]) ? pa[k] == pe[k]
                                   : std::abs(pa[k] - pe[k]) <= bound(k);
      },
      [&](int64_t k) {
        return fmt::format("{} is {}, expected {} (tolerance {})", coordinates(k, sizes), pa[k],
                           pe[k], bound(k));
      });
}

void expect_matches_cpu(const Tensor& on_device, const Tensor& on_cpu, Tolerance tol,
                        const std::string& what, const Tensor& atol_scale) {
  ASSERT_TRUE(on_device.defined() && !on_device.is_cpu())
      << what << ": the result is not on the device";
  ASSERT_TRUE(on_cpu.is_cpu()) << what << ": the reference is not on the CPU";
  ASSERT_EQ(on_device.dtype(), on_cpu.dtype()) << what << ": dtype";
  expect_tensors_close(on_device, on_cpu, tol, what, atol_scale);
}

void expect_same_bits(const Tensor& actual, const Tensor& expected, const std::string& what) {
  ASSERT_TRUE(actual.defined()) << what << ": the result is undefined";
  ASSERT_TRUE(expected.defined()) << what << ": the expected tensor is undefined";
  ASSERT_EQ(actual.dtype(), expected.dtype()) << what << ": dtype";
  ASSERT_EQ(actual.sizes().vec(), expected.sizes().vec()) << what << ": sizes";
  const Tensor a = on_cpu_as(actual, actual.dtype()), e = on_cpu_as(expected, expected.dtype());
  const auto* pa = static_cast<const unsigned char*>(a.data_ptr());
  const auto* pe = static_cast<const unsigned char*>(e.data_ptr());
  const auto size = static_cast<size_t>(e.element_size());
  auto bits = [size](const unsigned char* p) {
    uint64_t b = 0;
    std::memcpy(&b, p, size);  // the element's bytes, read as a little-endian integer
    return b;
  };
  const Tensor a_values = a.to(kFloat64), e_values = e.to(kFloat64);
  report_mismatches(
      e.numel(), what,
      [&](int64_t k) { return std::memcmp(pa + k * size, pe + k * size, size) == 0; },
      [&](int64_t k) {
        return fmt::format("{} is {} (bits {:#0{}x}), expected {} (bits {:#0{}x})",
                           coordinates(k, e.sizes()), a_values.data_ptr<double>()[k],
                           bits(pa + k * size), 2 * size + 2, e_values.data_ptr<double>()[k],
                           bits(pe + k * size), 2 * size + 2);
      });
}

}  // namespace accel::testing
