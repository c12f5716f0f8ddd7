// cuBLAS, cuBLASLt and NCCL are loaded with dlopen when first needed. Loading needs neither a
// GPU nor a driver, only the libraries the toolkit ships, so these tests run in every CUDA
// build: each function accel calls must be exported under the name it looks up (some names in
// the headers are macros or inline wrappers for differently named exports).
#include <gtest/gtest.h>

#include "accel/distributed/cuda/nccl_library.h"
#include "accel/kernels/cuda/cublas_library.h"

namespace accel::cuda {
namespace {

#define ACCEL_EXPECT_LOADED(name) EXPECT_NE(library.name, nullptr) << #name;

TEST(CudaLibraries, CublasExportsEveryFunctionAccelCalls) {
  const CublasLibrary& library = cublas_library();  // throws naming a missing function
  ACCEL_CUBLAS_FUNCTIONS(ACCEL_EXPECT_LOADED)
}

TEST(CudaLibraries, NcclExportsEveryFunctionAccelCalls) {
  const NcclLibrary& library = nccl_library();
  ACCEL_NCCL_FUNCTIONS(ACCEL_EXPECT_LOADED)
}

#undef ACCEL_EXPECT_LOADED

}  // namespace
}  // namespace accel::cuda
