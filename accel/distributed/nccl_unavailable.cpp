// The NCCL backend's entry points in a build without CUDA: a clear error.
#ifndef ACCEL_WITH_CUDA
#include "accel/base/error.h"
#include "accel/distributed/nccl_process_group.h"

namespace accel::distributed {

bool nccl_is_compiled() { return false; }

std::shared_ptr<ProcessGroup> new_nccl_process_group(const LaunchEnvironment&, Device device,
                                                     NcclOptions) {
  fail("distributed::new_nccl_process_group",
       "this build of accel has no CUDA backend, so no NCCL backend for {} (configure with "
       "-DACCEL_CUDA=ON on a machine with the CUDA toolkit; CPU tensors go through the MPI "
       "backend)",
       device);
}

}  // namespace accel::distributed
#endif
