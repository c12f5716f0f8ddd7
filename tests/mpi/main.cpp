// The MPI tests' main: the default group is the MPI one, whatever the machine (a GPU machine's
// automatic choice would be NCCL, and these tests move CPU tensors).
#include <gtest/gtest.h>

#include "accel/distributed/init_process_group.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  accel::distributed::init_process_group(accel::distributed::Backend::Mpi);
  return RUN_ALL_TESTS();
}
