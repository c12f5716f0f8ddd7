// Intra-op threading on accel's ThreadPool. The thread count starts at what the environment
// asks for (ACCEL_NUM_THREADS, OMP_NUM_THREADS), else the machine's cores.
#include "accel/kernels/cpu/parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <thread>

#include "accel/base/error.h"
#include "accel/kernels/cpu/thread_count_from_environment.h"
#include "accel/kernels/cpu/thread_pool.h"

namespace accel {

namespace {

int initial_num_threads() {
  std::string warning;
  const std::optional<int> asked = thread_count_from_environment(warning);
  if (!warning.empty()) std::fprintf(stderr, "accel: warning: %s\n", warning.c_str());
  return asked.value_or(default_num_threads());
}

std::atomic<int> num_threads{initial_num_threads()};
thread_local bool serial_ops = false;

}  // namespace

int default_num_threads() {
  static const int cores =
      static_cast<int>(std::max<unsigned>(1, std::thread::hardware_concurrency()));
  return cores;
}

void set_num_threads(int n) {
  ACCEL_CHECK(n >= 1, "set_num_threads", "expected a positive thread count, got {}", n);
  num_threads = n;
}

int get_num_threads() { return num_threads.load(std::memory_order_relaxed); }

bool in_parallel_region() { return serial_ops || ThreadPool::in_worker(); }

SerialOpsGuard::SerialOpsGuard() : previous_(serial_ops) { serial_ops = true; }
SerialOpsGuard::~SerialOpsGuard() { serial_ops = previous_; }

void parallel_for_chunks(int64_t begin, int64_t end, int64_t grain,
                         const std::function<void(int64_t, int64_t)>& f) {
  const int64_t n = end - begin;
  const int threads = get_num_threads();
  grain = std::max<int64_t>(grain, 1);
  // Chunk boundaries depend on the range, the grain and the thread count only: which thread
  // runs a chunk never changes what it computes.
  const int64_t chunks = std::min<int64_t>(threads, (n + grain - 1) / grain);
  ThreadPool::instance().run(
      chunks, threads, [&](int64_t c) { f(begin + n * c / chunks, begin + n * (c + 1) / chunks); });
}

}  // namespace accel
