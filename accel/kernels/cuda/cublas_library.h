// cuBLAS and cuBLASLt, loaded when the first CUDA matrix product needs them. Linking them
// outright costs every program that links accel about 0.12 s of start-up and 200 MB of
// memory (the libraries' own initialization), GPU or not; loaded on demand, only programs
// that multiply matrices on a GPU pay, once.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

namespace accel::cuda {

// The functions accel calls, under the names the libraries export: the headers' cublasCreate,
// cublasSetStream and cublasSetWorkspace are macros for the _v2 functions, and cuBLASLt's
// *Init functions are inline wrappers that pass the descriptor's size to an exported
// *Init_internal.
#define ACCEL_CUBLAS_FUNCTIONS(X)          \
  X(cublasCreate_v2)                       \
  X(cublasSetMathMode)                     \
  X(cublasSetStream_v2)                    \
  X(cublasSetWorkspace_v2)                 \
  X(cublasGemmStridedBatchedEx_64)         \
  X(cublasLtCreate)                        \
  X(cublasLtGetStatusName)                 \
  X(cublasLtGetStatusString)               \
  X(cublasLtMatmul)                        \
  X(cublasLtMatmulAlgoGetHeuristic)        \
  X(cublasLtMatmulDescInit_internal)       \
  X(cublasLtMatmulDescSetAttribute)        \
  X(cublasLtMatmulPreferenceInit_internal) \
  X(cublasLtMatmulPreferenceSetAttribute)  \
  X(cublasLtMatrixLayoutInit_internal)     \
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
