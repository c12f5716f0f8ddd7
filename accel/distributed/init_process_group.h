// The process's default group, as torch.distributed keeps one: init_process_group() makes it
// from how the process was launched, and the Accelerator (so the Trainer) uses it unless given
// another. A program started by hand is one process; a launch of several processes is an NCCL
// group where this build and machine have CUDA, else an MPI group.
#pragma once

#include <memory>
#include <string_view>

#include "accel/distributed/launch_environment.h"
#include "accel/distributed/process_group.h"

namespace accel::distributed {

enum class Backend {
  Auto,    // Single when not launched by a launcher (or launched as one process), else NCCL
           // when this build and machine have CUDA (and ACCEL_DEVICE is not "cpu"), else MPI
  Single,  // this process alone
  Mpi,     // the processes of an MPI job (mpirun), CPU tensors
  Nccl,    // one GPU per process (mpirun or torchrun), CUDA tensors
};
std::string_view to_string(Backend backend);

// Makes the default group (once: a second call with another backend is an error) and returns
// it. Throws accel::Error when the launch environment is inconsistent, when it names a
// launcher the backend cannot serve (torchrun starts processes MPI does not know) or when the
// backend is not in this build. An NCCL group uses the GPU `local_rank % device_count()`.
std::shared_ptr<ProcessGroup> init_process_group(Backend backend = Backend::Auto);
// The group for `env` (what init_process_group does, without keeping it).
std::shared_ptr<ProcessGroup> new_process_group(Backend backend, const LaunchEnvironment& env);

// The default group for a process that trains on `device`, made on first use: this process
// alone when it was not launched as one of several, else NCCL for a CUDA device and MPI for
// the CPU. An existing default group is returned as it is. (The Accelerator uses this.)
std::shared_ptr<ProcessGroup> init_process_group_for(Device device);

bool is_initialized();
// The default group, made with Backend::Auto on first use.
std::shared_ptr<ProcessGroup> default_process_group();
int get_rank();
int get_world_size();

}  // namespace accel::distributed
