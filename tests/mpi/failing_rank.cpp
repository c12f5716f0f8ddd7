// A two-process program in which rank 1 fails while rank 0 waits for it in a collective, the
// way a training job fails: `failing_rank MODE` with MODE
//   throw  - rank 1's exception escapes main (std::terminate);
//   abort  - rank 1 catches it, prints it and ends the job (what train_mnist does);
//   return - rank 1 catches it, prints it and returns 1 without ending the job: rank 0's
//            collective times out (ACCEL_DISTRIBUTED_TIMEOUT) and ends it.
// Every mode must end the job non-zero, soon, with rank 1's message on stderr
// (tests/mpi/failure_test.sh).
#include <accel/accel.h>

#include <cstdio>
#include <string>

using namespace accel;

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  auto group = distributed::init_process_group(distributed::Backend::Mpi);
  Tensor t = ones({1000});
  group->all_reduce(t)->wait();  // both ranks are up
  if (group->rank() == 1) {
    const char* message = "rank 1: the data file is corrupt";
    if (mode == "throw") throw Error(message);
    std::fprintf(stderr, "failing_rank: %s\n", message);
    if (mode == "abort") group->abort(1);
    return 1;
  }
  group->all_reduce(t)->wait();  // rank 0 waits here for a rank that never comes
  std::printf("rank 0 was not stopped\n");
  return 0;
}
