// The NCCL backend: collectives on CUDA tensors across the processes of a launch, one GPU per
// process, carried by NVIDIA's NCCL (loaded when the first group is made). Each collective runs
// on the group's own stream after the work already queued on the caller's current stream, and
// its Work handle orders the caller's stream after it (wait() does not block the host, as in
// PyTorch). The processes find each other through MPI under mpirun, or through a TCP
// rendezvous at MASTER_ADDR:MASTER_PORT under torchrun. CPU tensors go through the MPI backend.
#pragma once

#include <chrono>
#include <memory>

#include "accel/base/device.h"
#include "accel/distributed/launch_environment.h"
#include "accel/distributed/process_group.h"

namespace accel::distributed {

// Whether this build has the NCCL backend (every build with the CUDA backend).
bool nccl_is_compiled();

struct NcclOptions {
  // How long an issued collective may take before the job is aborted (a process that stopped
  // or issued other collectives would otherwise leave the rest waiting forever); also bounds
  // the processes' meeting at start-up. ACCEL_DISTRIBUTED_TIMEOUT (seconds), when set,
  // overrides it.
  std::chrono::milliseconds timeout = std::chrono::minutes(10);
};

// A group over the world_size processes `env` describes, this one being env.rank and using the
// CUDA device `device` (each process its own). Every process of the launch must make it at the
// same time. Throws accel::Error when the device cannot be used, NCCL cannot be loaded, the
// processes cannot meet, or in a build without CUDA.
std::shared_ptr<ProcessGroup> new_nccl_process_group(const LaunchEnvironment& env, Device device,
                                                     NcclOptions options = {});

}  // namespace accel::distributed
