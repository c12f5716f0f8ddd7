// All-reduce bandwidth of accel's MPI process group against MPI_Allreduce itself on the same
// buffers, under `mpirun -np N`: for 1 MB and 100 MB of float32, the median time of each and
// the bus bandwidth (2 (N-1)/N bytes / time, NCCL's convention), printed by rank 0.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "accel/accel.h"

using namespace accel;

double median_ms(int iterations, MPI_Comm comm, const std::function<void()>& run) {
  std::vector<double> times;
  for (int i = 0; i < iterations + 2; ++i) {  // 2 warm-up calls
    MPI_Barrier(comm);
    const auto start = std::chrono::steady_clock::now();
    run();
    const auto stop = std::chrono::steady_clock::now();
    if (i >= 2) times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::sort(times.begin(), times.end());
  double median = times[times.size() / 2];
  MPI_Allreduce(MPI_IN_PLACE, &median, 1, MPI_DOUBLE, MPI_MAX, comm);
  return median;
}

int main() {
  auto group = distributed::init_process_group(distributed::Backend::Mpi);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int size = group->size();
  if (group->rank() == 0) {
    std::printf("%-8s %-14s %10s %12s\n", "size", "implementation", "median ms", "bus GB/s");
  }
  for (const int64_t megabytes : {int64_t{1}, int64_t{100}}) {
    const int64_t numel = megabytes * 1000 * 1000 / 4;
    Tensor buffer = ones({numel});
    const int iterations = megabytes == 1 ? 200 : 10;
    const double bus_bytes = 2.0 * (size - 1) / size * static_cast<double>(buffer.nbytes());
    const double mpi = median_ms(iterations, comm, [&] {
      MPI_Allreduce(MPI_IN_PLACE, buffer.data_ptr(), static_cast<int>(numel), MPI_FLOAT, MPI_SUM,
                    comm);
    });
    const double ours = median_ms(iterations, comm, [&] { group->all_reduce(buffer)->wait(); });
    if (group->rank() == 0) {
      for (const auto& [name, ms] : {std::pair{"MPI_Allreduce", mpi}, std::pair{"accel", ours}}) {
        std::printf("%-8s %-14s %10.3f %12.2f\n", (std::to_string(megabytes) + " MB").c_str(), name,
                    ms, bus_bytes / (ms * 1e6));
      }
    }
  }
  MPI_Comm_free(&comm);
  return 0;
}
