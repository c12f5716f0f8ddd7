// The op-test harness: one table row per op case, checked against PyTorch fixtures
// (tests/reference/generate_op_fixtures.py) in float64 — forward values and input gradients
// to ~1e-10 — then by central finite differences in float64, then in lower-precision dtypes
// against the same reference with a dtype-appropriate tolerance, and, where a GPU is present,
// on CUDA against the CPU kernels. Adding an op means adding one row here and one case to
// tests/reference/cases_<area>.py.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "accel/accel.h"

namespace accel::testing {

struct OpCase {
  std::string name;  // the key in the fixture file
  std::function<Tensor(const std::vector<Tensor>&)> fn;
  // Dtypes checked besides float64 (floating inputs are converted to them).
  std::vector<ScalarType> low_precision = {kFloat32, kBFloat16};
};

inline std::ostream& operator<<(std::ostream& out, const OpCase& c) { return out << c.name; }

// Checks for one case of the fixture file `fixture` (a name under tests/reference/fixtures).
void check_forward(const OpCase& c, const std::string& fixture);
void check_backward(const OpCase& c, const std::string& fixture);
void check_finite_differences(const OpCase& c, const std::string& fixture);
void check_low_precision(const OpCase& c, const std::string& fixture);
// The case's forward and gradients on CUDA equal the CPU's, in float64, float32 and the
// case's low-precision dtypes (skipped without a device).
void check_cuda_matches_cpu(const OpCase& c, const std::string& fixture);

// Whether every case name in `cases` is in the fixture and vice versa (no silent gaps).
void check_table_covers_fixture(const std::vector<OpCase>& cases, const std::string& fixture);

}  // namespace accel::testing

// Declares the parameterized suite `Suite` over the vector<OpCase> `cases`.
#define ACCEL_OP_TEST_SUITE(Suite, fixture, cases)                                                 \
  class Suite : public ::testing::TestWithParam<::accel::testing::OpCase> {};                      \
  TEST_P(Suite, ForwardMatchesPyTorch) { ::accel::testing::check_forward(GetParam(), fixture); }   \
  TEST_P(Suite, BackwardMatchesPyTorch) { ::accel::testing::check_backward(GetParam(), fixture); } \
  TEST_P(Suite, GradientMatchesFiniteDifferences) {                                                \
    ::accel::testing::check_finite_differences(GetParam(), fixture);                               \
  }                                                                                                \
  TEST_P(Suite, LowPrecisionForward) {                                                             \
    ::accel::testing::check_low_precision(GetParam(), fixture);                                    \
  }                                                                                                \
  TEST_P(Suite, CudaMatchesCpu) { ::accel::testing::check_cuda_matches_cpu(GetParam(), fixture); } \
  TEST(Suite##Table, CoversFixture) {                                                              \
    ::accel::testing::check_table_covers_fixture(cases, fixture);                                  \
  }                                                                                                \
  INSTANTIATE_TEST_SUITE_P(Ops, Suite, ::testing::ValuesIn(cases),                                 \
                           [](const auto& info) { return info.param.name; })
