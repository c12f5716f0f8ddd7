// LaunchEnvironment: who launched this process and where it stands among its peers, read from
// the variables the launchers set: mpirun (OpenMPI's OMPI_COMM_WORLD_*, MPICH's PMI_*) and
// torchrun (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT). A process started by
// hand is rank 0 of 1.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace accel::distributed {

enum class Launcher { None, Mpi, Torchrun };
std::string_view to_string(Launcher launcher);

struct LaunchEnvironment {
  Launcher launcher = Launcher::None;
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  std::string master_addr;  // torchrun only
  int master_port = 0;      // torchrun only
};

// Reads a variable: its value, or nullopt when it is not set.
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view name)>;

// The launch as the variables describe it. Throws accel::Error naming the variable when one
// is missing, not a whole number, out of range (rank >= world size, ...) or inconsistent with
// another launcher's variables set beside it.
LaunchEnvironment launch_environment(const EnvironmentLookup& lookup);
// The same, from this process's environment.
LaunchEnvironment launch_environment();

}  // namespace accel::distributed
