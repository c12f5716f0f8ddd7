// The launchers' variables, parsed and checked against each other.
#include "accel/distributed/launch_environment.h"

#include <charconv>
#include <cstdlib>

#include "accel/base/error.h"

namespace accel::distributed {
namespace {

constexpr const char* kOp = "distributed::launch_environment";

class Variables {
 public:
  explicit Variables(const EnvironmentLookup& lookup) : lookup_(lookup) {}

  bool is_set(std::string_view name) const { return lookup_(name).has_value(); }

  // The variable as a whole number in [minimum, maximum]; nullopt when it is not set.
  std::optional<int> whole_number(std::string_view name, int minimum, int maximum) const {
    const std::optional<std::string> text = lookup_(name);
    if (!text) return std::nullopt;
    int value = 0;
    const char* end = text->data() + text->size();
    const auto [stop, error] = std::from_chars(text->data(), end, value);
    ACCEL_CHECK(error == std::errc() && stop == end && !text->empty(), kOp,
                "{} must be a whole number, got '{}'", name, *text);
    ACCEL_CHECK(value >= minimum && value <= maximum, kOp, "{} must be in [{}, {}], got {}", name,
                minimum, maximum, value);
    return value;
  }

  int required(std::string_view name, int minimum, int maximum, std::string_view launcher) const {
    const std::optional<int> value = whole_number(name, minimum, maximum);
    ACCEL_CHECK(value.has_value(), kOp, "{} is set but {} is missing", launcher, name);
    return *value;
  }

  // The first of `names` that is set, as a whole number in [minimum, maximum].
  std::optional<int> first_of(std::initializer_list<std::string_view> names, int minimum,
                              int maximum) const {
    for (std::string_view name : names) {
      if (auto value = whole_number(name, minimum, maximum)) return value;
    }
    return std::nullopt;
  }

  std::optional<std::string> text(std::string_view name) const { return lookup_(name); }

 private:
  const EnvironmentLookup& lookup_;
};

constexpr int kMaxRanks = 1 << 24;

// A launcher's (rank, world size, local rank) with the range checks every launcher shares.
LaunchEnvironment positions(Launcher launcher, int rank, int world_size, int local_rank,
                            std::string_view rank_name, std::string_view local_rank_name) {
  ACCEL_CHECK(rank < world_size, kOp, "{}={} is not a rank of a world of size {}", rank_name, rank,
              world_size);
  ACCEL_CHECK(local_rank <= rank, kOp,
              "{}={} exceeds the global rank {}: the processes of a machine are a subset of the "
              "world",
              local_rank_name, local_rank, rank);
  LaunchEnvironment env;
  env.launcher = launcher;
  env.rank = rank;
  env.world_size = world_size;
  env.local_rank = local_rank;
  return env;
}

std::optional<LaunchEnvironment> from_mpirun(const Variables& vars) {
  if (vars.is_set("OMPI_COMM_WORLD_SIZE") || vars.is_set("OMPI_COMM_WORLD_RANK")) {
    const std::string_view who = "OpenMPI's mpirun (OMPI_COMM_WORLD_*)";
    const int size = vars.required("OMPI_COMM_WORLD_SIZE", 1, kMaxRanks, who);
    const int rank = vars.required("OMPI_COMM_WORLD_RANK", 0, kMaxRanks, who);
    const int local = vars.required("OMPI_COMM_WORLD_LOCAL_RANK", 0, kMaxRanks, who);
    return positions(Launcher::Mpi, rank, size, local, "OMPI_COMM_WORLD_RANK",
                     "OMPI_COMM_WORLD_LOCAL_RANK");
  }
  if (vars.is_set("PMI_SIZE") || vars.is_set("PMI_RANK")) {
    const std::string_view who = "an MPICH-style launcher (PMI_*)";
    const int size = vars.required("PMI_SIZE", 1, kMaxRanks, who);
    const int rank = vars.required("PMI_RANK", 0, kMaxRanks, who);
    const std::optional<int> local =
        vars.first_of({"MPI_LOCALRANKID", "SLURM_LOCALID"}, 0, kMaxRanks);
    ACCEL_CHECK(local.has_value(), kOp,
                "{} is set but neither MPI_LOCALRANKID nor SLURM_LOCALID gives the local rank",
                who);
    return positions(Launcher::Mpi, rank, size, *local, "PMI_RANK", "MPI_LOCALRANKID");
  }
  return std::nullopt;
}

std::optional<LaunchEnvironment> from_torchrun(const Variables& vars) {
  if (!vars.is_set("WORLD_SIZE") && !vars.is_set("RANK")) return std::nullopt;
  const std::string_view who = "a torchrun-style launch (RANK, WORLD_SIZE)";
  const int size = vars.required("WORLD_SIZE", 1, kMaxRanks, who);
  const int rank = vars.required("RANK", 0, kMaxRanks, who);
  const int local = vars.required("LOCAL_RANK", 0, kMaxRanks, who);
  LaunchEnvironment env = positions(Launcher::Torchrun, rank, size, local, "RANK", "LOCAL_RANK");
  if (size > 1) {
    const std::optional<std::string> addr = vars.text("MASTER_ADDR");
    ACCEL_CHECK(addr && !addr->empty(), kOp, "{} is set but MASTER_ADDR is missing", who);
    env.master_addr = *addr;
    env.master_port = vars.required("MASTER_PORT", 1, 65535, who);
  }
  return env;
}

}  // namespace

std::string_view to_string(Launcher launcher) {
  switch (launcher) {
    case Launcher::None:
      return "none";
    case Launcher::Mpi:
      return "mpirun";
    case Launcher::Torchrun:
      return "torchrun";
  }
  return "?";
}

LaunchEnvironment launch_environment(const EnvironmentLookup& lookup) {
  const Variables vars(lookup);
  const std::optional<LaunchEnvironment> mpi = from_mpirun(vars);
  const std::optional<LaunchEnvironment> torchrun = from_torchrun(vars);
  if (mpi && torchrun) {
    // Both sets of variables: they must describe the same process (mpirun may export a
    // RANK/WORLD_SIZE for other tools); MPI then carries the collectives.
    ACCEL_CHECK(mpi->rank == torchrun->rank && mpi->world_size == torchrun->world_size, kOp,
                "mpirun says rank {} of {} but RANK/WORLD_SIZE say {} of {}: unset one of them",
                mpi->rank, mpi->world_size, torchrun->rank, torchrun->world_size);
    LaunchEnvironment env = *mpi;
    env.master_addr = torchrun->master_addr;
    env.master_port = torchrun->master_port;
    return env;
  }
  if (mpi) return *mpi;
  if (torchrun) return *torchrun;
  return {};
}

LaunchEnvironment launch_environment() {
  return launch_environment([](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  });
}

}  // namespace accel::distributed
