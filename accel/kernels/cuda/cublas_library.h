// cuBLAS and cuBLASLt, loaded when the first CUDA matrix product needs them. Linking them
// outright costs every program that links accel about 0.12 s of start-up and 200 MB of
// memory (the libraries' own initialization), GPU or not; loaded on demand, only programs
// that multiply matrices on a GPU pay, once.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

namespace accel::cuda {

// The functions accel calls, under their own names.
#define ACCEL_CUBLAS_FUNCTIONS(X)         \
  X(cublasCreate)                         \
  X(cublasSetMathMode)                    \
  X(cublasSetStream)                      \
  X(cublasSetWorkspace)                   \
  X(cublasGemmStridedBatchedEx_64)        \
  X(cublasLtCreate)                       \
  X(cublasLtGetStatusName)                \
  X(cublasLtGetStatusString)              \
  X(cublasLtMatmul)                       \
  X(cublasLtMatmulAlgoGetHeuristic)       \
  X(cublasLtMatmulDescInit)               \
  X(cublasLtMatmulDescSetAttribute)       \
  X(cublasLtMatmulPreferenceInit)         \
  X(cublasLtMatmulPreferenceSetAttribute) \
  X(cublasLtMatrixLayoutInit)             \
  X(cublasLtMatrixLayoutSetAttribute)

struct CublasLibrary {
#define ACCEL_CUBLAS_POINTER(name) decltype(&::name) name = nullptr;
  ACCEL_CUBLAS_FUNCTIONS(ACCEL_CUBLAS_POINTER)
#undef ACCEL_CUBLAS_POINTER
};

// The loaded libraries (on first call; thread-safe). Throws accel::Error naming the library
// and the loader's reason when they cannot be loaded.
const CublasLibrary& cublas_library();

}  // namespace accel::cuda
