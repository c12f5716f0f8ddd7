// Loading NCCL with dlopen: by soname first (the system's library path), then from the toolkit
// accel was built with (NCCL ships with it on some installations).
#include "accel/distributed/cuda/nccl_library.h"

#include <dlfcn.h>

#include <string>

#include "accel/base/error.h"

namespace accel::cuda {

namespace {

constexpr const char* kOp = "distributed::new_nccl_process_group";

void* open_library() {
  const std::string name = "libnccl.so." + std::to_string(NCCL_MAJOR);
  if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  const std::string first_error = dlerror();
  const std::string in_toolkit = std::string(ACCEL_CUDA_LIBRARY_DIR) + "/" + name;
  if (void* handle = dlopen(in_toolkit.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  fail(kOp,
       "cannot load {} for the NCCL backend: {}; nor {}: {} (install NCCL, e.g. the "
       "libnccl2 package, or put its directory on LD_LIBRARY_PATH)",
       name, first_error, in_toolkit, dlerror());
}

NcclLibrary load() {
  void* handle = open_library();  // kept open for the process's lifetime, as communicators are
  NcclLibrary library;
#define ACCEL_NCCL_LOAD(name)                                                    \
  library.name = reinterpret_cast<decltype(library.name)>(dlsym(handle, #name)); \
  ACCEL_CHECK(library.name != nullptr, kOp,                                      \
              "the NCCL library has no {} (older than the NCCL {}.{} "           \
              "accel was built with?): {}",                                      \
              #name, NCCL_MAJOR, NCCL_MINOR, dlerror());
  ACCEL_NCCL_FUNCTIONS(ACCEL_NCCL_LOAD)
#undef ACCEL_NCCL_LOAD
  return library;
}

}  // namespace

const NcclLibrary& nccl_library() {
  static const NcclLibrary library = load();
  return library;
}

void check_nccl(ncclResult_t result, std::string_view op, const char* call) {
  if (result == ncclSuccess) return;
  const NcclLibrary& nccl = nccl_library();
  const char* last = nccl.ncclGetLastError(nullptr);
  fail(op, "NCCL error {} ({}{}{}) in {}", static_cast<int>(result),
       nccl.ncclGetErrorString(result), last != nullptr && *last != '\0' ? ": " : "",
       last != nullptr ? last : "", call);
}

}  // namespace accel::cuda
