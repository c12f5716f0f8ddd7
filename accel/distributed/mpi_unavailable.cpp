// The MPI backend's entry points in a build without MPI: a clear error.
#ifndef ACCEL_WITH_MPI
#include "accel/base/error.h"
#include "accel/distributed/mpi_process_group.h"

namespace accel::distributed {

bool mpi_is_compiled() { return false; }

std::shared_ptr<ProcessGroup> new_mpi_process_group(MpiOptions) {
  fail("distributed::new_mpi_process_group",
       "this build of accel has no MPI backend (install libopenmpi-dev and configure with "
       "-DACCEL_MPI=ON)");
}

}  // namespace accel::distributed
#endif
