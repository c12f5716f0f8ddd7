// NCCL, loaded when the first NCCL process group is made (as cuBLAS is: programs that never
// communicate between GPUs do not pay its start-up), and the check that turns its failures
// into accel::Error.
#pragma once

#include <nccl.h>

#include <string_view>

namespace accel::cuda {

// The functions accel calls, under their own names.
#define ACCEL_NCCL_FUNCTIONS(X) \
  X(ncclGetUniqueId)            \
  X(ncclCommInitRank)           \
  X(ncclCommDestroy)            \
  X(ncclCommAbort)              \
  X(ncclCommGetAsyncError)      \
  X(ncclGetErrorString)         \
  X(ncclGetLastError)           \
  X(ncclAllReduce)              \
  X(ncclBroadcast)              \
  X(ncclAllGather)              \
  X(ncclReduceScatter)

struct NcclLibrary {
#define ACCEL_NCCL_POINTER(name) decltype(&::name) name = nullptr;
  ACCEL_NCCL_FUNCTIONS(ACCEL_NCCL_POINTER)
#undef ACCEL_NCCL_POINTER
};

// The loaded library (on first call; thread-safe). Throws accel::Error naming the library and
// the loader's reason when it cannot be loaded.
const NcclLibrary& nccl_library();

// Throws accel::Error "op: NCCL error <n> (<NCCL's words>; <its last message>) in <call>"
// unless `result` is ncclSuccess.
void check_nccl(ncclResult_t result, std::string_view op, const char* call);

}  // namespace accel::cuda

#define ACCEL_NCCL_CHECK(call, op) ::accel::cuda::check_nccl((call), op, #call)
