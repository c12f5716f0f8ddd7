// The MPI backend: collectives on CPU tensors across the processes of an MPI job (mpirun),
// carried by the MPI library accel was built with (OpenMPI on Debian). Multi-node runs are
// MPI's business: accel adds no transport of its own.
#pragma once

#include <chrono>
#include <memory>

#include "accel/distributed/process_group.h"

namespace accel::distributed {

// Whether this build has the MPI backend (configured with ACCEL_MPI=AUTO or ON where MPI's
// development files are installed).
bool mpi_is_compiled();

struct MpiOptions {
  // How long a collective may wait for the other processes before the job is aborted (a
  // process that stopped or issued other collectives would otherwise leave the rest waiting
  // forever). The variable ACCEL_DISTRIBUTED_TIMEOUT (seconds), when set, overrides it.
  std::chrono::milliseconds timeout = std::chrono::minutes(10);
};

// A group over all the processes of the job (MPI_COMM_WORLD). The first one initializes MPI
// (thread level "serialized": every MPI call is made by the group's worker thread); MPI is
// finalized at exit, after every process has reached it, or the job is aborted when the others
// do not arrive within the timeout. Throws accel::Error in a build without MPI.
std::shared_ptr<ProcessGroup> new_mpi_process_group(MpiOptions options = {});

}  // namespace accel::distributed
