// The launchers' variables: mpirun (OpenMPI, MPICH), torchrun, none, and every way they can be
// wrong (missing, not a number, out of range, contradicting each other), and the backend a
// launch gets or the reason it cannot have the one asked for.
#include "accel/distributed/launch_environment.h"

#include <gtest/gtest.h>

#include <map>

#include "accel/core/cuda.h"
#include "accel/distributed/init_process_group.h"
#include "accel/distributed/mpi_process_group.h"
#include "accel/distributed/nccl_process_group.h"
#include "support/expect_error.h"

namespace accel::distributed {
namespace {

using testing::expect_error_containing;
using Variables = std::map<std::string, std::string, std::less<>>;

LaunchEnvironment parse(const Variables& vars) {
  return launch_environment([&](std::string_view name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  });
}

TEST(LaunchEnvironment, NoLauncherIsOneProcess) {
  const LaunchEnvironment env = parse({});
  EXPECT_EQ(env.launcher, Launcher::None);
  EXPECT_EQ(env.rank, 0);
  EXPECT_EQ(env.world_size, 1);
  EXPECT_EQ(env.local_rank, 0);
}

TEST(LaunchEnvironment, OpenMpi) {
  const LaunchEnvironment env = parse({{"OMPI_COMM_WORLD_RANK", "3"},
                                       {"OMPI_COMM_WORLD_SIZE", "4"},
                                       {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}});
  EXPECT_EQ(env.launcher, Launcher::Mpi);
  EXPECT_EQ(env.rank, 3);
  EXPECT_EQ(env.world_size, 4);
  EXPECT_EQ(env.local_rank, 1);
}

TEST(LaunchEnvironment, Mpich) {
  const LaunchEnvironment env =
      parse({{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}, {"MPI_LOCALRANKID", "1"}});
  EXPECT_EQ(env.launcher, Launcher::Mpi);
  EXPECT_EQ(env.rank, 1);
  EXPECT_EQ(env.local_rank, 1);
  EXPECT_EQ(parse({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}, {"SLURM_LOCALID", "0"}}).world_size, 2);
  expect_error_containing(
      [] {
        parse({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}});
      },
      "neither MPI_LOCALRANKID nor SLURM_LOCALID");
}

TEST(LaunchEnvironment, Torchrun) {
  const LaunchEnvironment env = parse({{"RANK", "1"},
                                       {"WORLD_SIZE", "2"},
                                       {"LOCAL_RANK", "1"},
                                       {"MASTER_ADDR", "10.0.0.1"},
                                       {"MASTER_PORT", "29500"}});
  EXPECT_EQ(env.launcher, Launcher::Torchrun);
  EXPECT_EQ(env.rank, 1);
  EXPECT_EQ(env.master_addr, "10.0.0.1");
  EXPECT_EQ(env.master_port, 29500);
  // One process needs no rendezvous address.
  EXPECT_EQ(parse({{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"LOCAL_RANK", "0"}}).world_size, 1);
}

TEST(LaunchEnvironment, MissingVariablesAreNamed) {
  expect_error_containing(
      [] {
        parse({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "0"}});
      },
      "MASTER_ADDR is missing");
  expect_error_containing(
      [] {
        parse({{"RANK", "0"}, {"LOCAL_RANK", "0"}});
      },
      "WORLD_SIZE is missing");
  expect_error_containing([] { parse({{"WORLD_SIZE", "2"}}); }, "RANK is missing");
  expect_error_containing(
      [] {
        parse({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}});
      },
      "OMPI_COMM_WORLD_LOCAL_RANK is missing");
}

TEST(LaunchEnvironment, BadValuesAreNamed) {
  const Variables good = {{"RANK", "1"},
                          {"WORLD_SIZE", "2"},
                          {"LOCAL_RANK", "0"},
                          {"MASTER_ADDR", "host"},
                          {"MASTER_PORT", "29500"}};
  auto with = [&](const std::string& name, const std::string& value) {
    Variables vars = good;
    vars[name] = value;
    return vars;
  };
  expect_error_containing([&] { parse(with("RANK", "one")); },
                          "RANK must be a whole number, got 'one'");
  expect_error_containing([&] { parse(with("RANK", "1.5")); }, "got '1.5'");
  expect_error_containing([&] { parse(with("RANK", "")); }, "got ''");
  expect_error_containing([&] { parse(with("RANK", "-1")); }, "RANK must be in [0,");
  expect_error_containing([&] { parse(with("RANK", "2")); },
                          "RANK=2 is not a rank of a world of size 2");
  expect_error_containing([&] { parse(with("WORLD_SIZE", "0")); }, "WORLD_SIZE must be in [1,");
  expect_error_containing([&] { parse(with("LOCAL_RANK", "2")); },
                          "LOCAL_RANK=2 exceeds the global rank 1");
  expect_error_containing([&] { parse(with("MASTER_PORT", "70000")); },
                          "MASTER_PORT must be in [1, 65535], got 70000");
  expect_error_containing([&] { parse(with("OMPI_COMM_WORLD_SIZE", "x")); },
                          "OMPI_COMM_WORLD_SIZE must be a whole number");
}

TEST(LaunchEnvironment, LaunchersThatDisagreeAreAnError) {
  Variables vars = {{"OMPI_COMM_WORLD_RANK", "0"},
                    {"OMPI_COMM_WORLD_SIZE", "2"},
                    {"OMPI_COMM_WORLD_LOCAL_RANK", "0"},
                    {"RANK", "1"},
                    {"WORLD_SIZE", "2"},
                    {"LOCAL_RANK", "0"},
                    {"MASTER_ADDR", "host"},
                    {"MASTER_PORT", "1234"}};
  expect_error_containing([&] { parse(vars); },
                          "mpirun says rank 0 of 2 but RANK/WORLD_SIZE say 1 of 2");
  vars["RANK"] = "0";
  const LaunchEnvironment env = parse(vars);
  EXPECT_EQ(env.launcher, Launcher::Mpi);
  EXPECT_EQ(env.master_port, 1234);
}

TEST(ProcessGroupChoice, FollowsTheLaunch) {
  const LaunchEnvironment alone;
  EXPECT_EQ(new_process_group(Backend::Auto, alone)->size(), 1);
  LaunchEnvironment torchrun{.launcher = Launcher::Torchrun, .rank = 0, .world_size = 2};
  expect_error_containing([&] { new_process_group(Backend::Mpi, torchrun); },
                          "the MPI backend needs processes started by mpirun");
  expect_error_containing([&] { new_process_group(Backend::Single, torchrun); },
                          "the single-process backend cannot serve a launch of 2 processes");
  if (!mpi_is_compiled()) {
    LaunchEnvironment mpirun{.launcher = Launcher::Mpi, .rank = 0, .world_size = 2};
    expect_error_containing([&] { new_process_group(Backend::Mpi, mpirun); },
                            "this build of accel has no MPI backend");
  }
  if (!cuda::is_available()) {
    expect_error_containing([&] { new_process_group(Backend::Nccl, torchrun); },
                            "the NCCL backend needs a CUDA device");
  }
}

// Where there is no GPU (or no CUDA in the build) asking for NCCL says why it cannot be.
TEST(ProcessGroupChoice, NcclWithoutADeviceIsAClearError) {
  if (cuda::is_available()) GTEST_SKIP() << "this machine has a CUDA device";
  expect_error_containing([] { new_nccl_process_group(LaunchEnvironment{}, Device(kCUDA, 0)); },
                          "distributed::new_nccl_process_group");
  expect_error_containing([] { new_process_group(Backend::Nccl, LaunchEnvironment{}); },
                          "the NCCL backend needs a CUDA device, but this");
  EXPECT_EQ(nccl_is_compiled(), cuda::is_compiled());
}

}  // namespace
}  // namespace accel::distributed
