// What the GPU tests share: ACCEL_REQUIRE_CUDA() skips a test on a machine (or build) without
// a CUDA device, saying why, so the same test binaries run everywhere. Where a GPU is expected
// (ACCEL_EXPECT_GPU=1, as scripts/gpu-check.sh sets) a missing device fails the test instead:
// a driver too old for the toolkit must not pass as a run of skipped tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <string_view>

#include "accel/base/error.h"
#include "accel/core/cuda.h"

namespace accel::testing {

inline bool gpu_expected() {
  const char* value = std::getenv("ACCEL_EXPECT_GPU");
  return value != nullptr && std::string_view(value) == "1";
}

// Why cuda:0 cannot be used (the runtime's reason: not compiled, no device, driver too old).
inline std::string why_no_cuda_device() {
  try {
    cuda::check_device(Device(kCUDA, 0), "ACCEL_REQUIRE_CUDA");
  } catch (const Error& e) {
    return e.what();
  }
  return "cuda:0 is available";
}

}  // namespace accel::testing

#define ACCEL_REQUIRE_CUDA()                                                                  \
  do {                                                                                        \
    if (!::accel::cuda::is_available()) {                                                     \
      if (::accel::testing::gpu_expected()) FAIL() << ::accel::testing::why_no_cuda_device(); \
      GTEST_SKIP() << ::accel::testing::why_no_cuda_device();                                 \
    }                                                                                         \
  } while (false)
