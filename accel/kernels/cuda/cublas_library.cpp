// Loading cuBLAS and cuBLASLt with dlopen: by soname first (the system's library path, as
// the CUDA installers configure it), then from the toolkit accel was built with.
#include "accel/kernels/cuda/cublas_library.h"

#include <dlfcn.h>

#include <string>
#include <string_view>

#include "accel/base/error.h"

namespace accel::cuda {

namespace {

std::string soname(const char* stem) {
  return std::string(stem) + ".so." + std::to_string(CUBLAS_VER_MAJOR);
}

void* open_library(const char* stem) {
  const std::string name = soname(stem);
  if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  const std::string first_error = dlerror();
  const std::string in_toolkit = std::string(ACCEL_CUDA_LIBRARY_DIR) + "/" + name;
  if (void* handle = dlopen(in_toolkit.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  fail("matmul", "cannot load {} for CUDA matrix products: {}; nor {}: {}", name, first_error,
       in_toolkit, dlerror());
}

// The function `name` of cuBLASLt (names starting cublasLt) or cuBLAS.
void* find(void* lt, void* blas, const char* name) {
  const bool in_lt = std::string_view(name).starts_with("cublasLt");
  void* symbol = dlsym(in_lt ? lt : blas, name);
  ACCEL_CHECK(symbol != nullptr, "matmul", "{} has no {}: {}",
              soname(in_lt ? "libcublasLt" : "libcublas"), name, dlerror());
  return symbol;
}

CublasLibrary load() {
  // Kept open for the process's lifetime: handles made from them live as long.
  void* lt = open_library("libcublasLt");
  void* blas = open_library("libcublas");
  CublasLibrary library;
#define ACCEL_CUBLAS_LOAD(name) \
  library.name = reinterpret_cast<decltype(library.name)>(find(lt, blas, #name));
  ACCEL_CUBLAS_FUNCTIONS(ACCEL_CUBLAS_LOAD)
#undef ACCEL_CUBLAS_LOAD
  return library;
}

}  // namespace

const CublasLibrary& cublas_library() {
  static const CublasLibrary library = load();
  return library;
}

}  // namespace accel::cuda
