// The default process group and the choice of backend from the launch environment.
#include "accel/distributed/init_process_group.h"

#include <cstdlib>
#include <mutex>
#include <string_view>

#include "accel/base/error.h"
#include "accel/core/cuda.h"
#include "accel/distributed/mpi_process_group.h"
#include "accel/distributed/nccl_process_group.h"

namespace accel::distributed {
namespace {

constexpr const char* kOp = "distributed::init_process_group";

struct DefaultGroup {
  std::mutex mutex;
  std::shared_ptr<ProcessGroup> group;
  Backend backend = Backend::Auto;
};

DefaultGroup& default_group() {
  static DefaultGroup instance;
  return instance;
}

// Several processes train on GPUs through NCCL where there are GPUs, unless ACCEL_DEVICE=cpu
// keeps them on the CPU (the Accelerator's device follows the same variable).
Backend resolve(Backend backend, const LaunchEnvironment& env) {
  if (backend != Backend::Auto) return backend;
  if (env.world_size == 1) return Backend::Single;
  const char* device = std::getenv("ACCEL_DEVICE");
  const bool cpu_only = device != nullptr && std::string_view(device) == "cpu";
  return nccl_is_compiled() && cuda::is_available() && !cpu_only ? Backend::Nccl : Backend::Mpi;
}

}  // namespace

std::string_view to_string(Backend backend) {
  switch (backend) {
    case Backend::Auto:
      return "auto";
    case Backend::Single:
      return "single";
    case Backend::Mpi:
      return "mpi";
    case Backend::Nccl:
      return "nccl";
  }
  return "?";
}

std::shared_ptr<ProcessGroup> new_process_group(Backend backend, const LaunchEnvironment& env) {
  switch (resolve(backend, env)) {
    case Backend::Single:
      ACCEL_CHECK(env.world_size == 1, kOp,
                  "the single-process backend cannot serve a launch of {} processes ({})",
                  env.world_size, to_string(env.launcher));
      return std::make_shared<SingleProcessGroup>();
    case Backend::Mpi: {
      ACCEL_CHECK(env.launcher != Launcher::Torchrun, kOp,
                  "the MPI backend needs processes started by mpirun, but this one was started "
                  "torchrun-style (RANK={}, WORLD_SIZE={}): launch with mpirun -np {}",
                  env.rank, env.world_size, env.world_size);
      auto group = new_mpi_process_group();
      // MPI's own view must agree with the launcher's variables (a stale exported variable
      // would otherwise give this process another's rank).
      ACCEL_CHECK(env.launcher == Launcher::None ||
                      (group->rank() == env.rank && group->size() == env.world_size),
                  kOp, "MPI says rank {} of {} but the launcher's variables say rank {} of {}",
                  group->rank(), group->size(), env.rank, env.world_size);
      return group;
    }
    case Backend::Nccl: {
      const int devices = cuda::device_count();
      ACCEL_CHECK(devices > 0, kOp,
                  "the NCCL backend needs a CUDA device, but this {} (use the MPI backend for CPU "
                  "tensors)",
                  cuda::is_compiled() ? "machine has none" : "build of accel has no CUDA backend");
      return new_nccl_process_group(env, Device(kCUDA, env.local_rank % devices));
    }
    case Backend::Auto:
      break;
  }
  fail(kOp, "unknown backend");
}

std::shared_ptr<ProcessGroup> init_process_group(Backend backend) {
  DefaultGroup& state = default_group();
  std::lock_guard lock(state.mutex);
  if (state.group) {
    ACCEL_CHECK(backend == Backend::Auto || backend == state.backend, kOp,
                "the default group is already initialized with backend {}; got {}",
                to_string(state.backend), to_string(backend));
    return state.group;
  }
  const LaunchEnvironment env = launch_environment();
  state.backend = resolve(backend, env);
  state.group = new_process_group(state.backend, env);
  if (state.backend == Backend::Nccl) {
    // NCCL's communicator must be freed while the CUDA runtime still runs. Handlers registered
    // with atexit run in reverse order, so this one, registered once CUDA has started, runs
    // before the runtime shuts down (the group itself, a static, would be destroyed after).
    std::atexit([] {
      DefaultGroup& at_exit = default_group();
      std::lock_guard released(at_exit.mutex);
      at_exit.group.reset();
    });
  }
  return state.group;
}

std::shared_ptr<ProcessGroup> init_process_group_for(Device device) {
  if (is_initialized()) return default_process_group();
  if (launch_environment().world_size == 1) return init_process_group(Backend::Single);
  return init_process_group(device.is_cuda() ? Backend::Nccl : Backend::Mpi);
}

bool is_initialized() {
  DefaultGroup& state = default_group();
  std::lock_guard lock(state.mutex);
  return state.group != nullptr;
}

std::shared_ptr<ProcessGroup> default_process_group() { return init_process_group(); }
int get_rank() { return default_process_group()->rank(); }
int get_world_size() { return default_process_group()->size(); }

}  // namespace accel::distributed
