// Training steps of the small CNN (workloads.h) on one process or, under mpirun, on several
// with DistributedDataParallel: `data_parallel_bench BATCH STEPS` runs STEPS Adam steps at
// BATCH samples per process on fixed random data, one thread per process, and rank 0 prints
//   processes=<n> batch_per_process=<b> ms_per_step=<median> samples_per_s=<global>
// benchmarks/data_parallel.sh runs it on one and two processes and compares.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "accel_adapter.h"
#include "workloads.h"

using namespace accel;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: data_parallel_bench BATCH STEPS\n");
    return 2;
  }
  const int64_t batch = std::atoll(argv[1]);
  const int steps = std::atoi(argv[2]);
  set_num_threads(1);
  auto group = distributed::init_process_group_for(Device(kCPU));
  manual_seed(1);
  auto model = bench::small_cnn<bench::Accel>();
  std::optional<distributed::DistributedDataParallel> ddp;
  if (group->size() > 1) ddp.emplace(*model);
  optim::Adam optimizer(model->parameters(), optim::AdamOptions(1e-3));
  manual_seed(100 + group->rank());
  const Tensor images = randn({batch, 1, 28, 28});
  const Tensor labels = randint(10, {batch});

  std::vector<double> milliseconds;
  for (int step = 0; step < steps + 3; ++step) {  // 3 warm-up steps
    const auto start = std::chrono::steady_clock::now();
    optimizer.zero_grad();
    nn::functional::cross_entropy(model->forward(images), labels).backward();
    optimizer.step();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (step >= 3) milliseconds.push_back(ms);
  }
  // The slowest process's median sets the pace.
  std::sort(milliseconds.begin(), milliseconds.end());
  Tensor median = tensor({milliseconds[milliseconds.size() / 2]});
  group->all_reduce(median, distributed::ReduceOp::Max)->wait();
  const double ms = median.item<double>();
  if (group->rank() == 0) {
    std::printf("processes=%d batch_per_process=%lld ms_per_step=%.2f samples_per_s=%.0f\n",
                group->size(), static_cast<long long>(batch), ms,
                1000.0 * static_cast<double>(batch * group->size()) / ms);
  }
  return 0;
}
