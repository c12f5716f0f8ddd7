// What the GPU tests share: ACCEL_REQUIRE_CUDA() skips a test on a machine (or build) without
// a CUDA device, saying so, so the same test binaries run everywhere.
#pragma once

#include <gtest/gtest.h>

#include "accel/core/cuda.h"

#define ACCEL_REQUIRE_CUDA()                                                        \
  do {                                                                              \
    if (!::accel::cuda::is_available()) GTEST_SKIP() << "no CUDA device available"; \
  } while (false)
