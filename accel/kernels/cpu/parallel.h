// Intra-op parallelism: set_num_threads/get_num_threads and parallel_for, which splits a
// range across the thread pool's threads only when it holds more than `grain` elements (starting
// threads costs more than a small op). Data-loader workers call ops single-threaded.
#pragma once

#include <cstdint>
#include <functional>

namespace accel {

void set_num_threads(int n);
int get_num_threads();
// The machine's core count: the thread count until set_num_threads changes it. Work split
// by it (rather than by the current count) gives the same results for any count set.
int default_num_threads();

// Elements below which element-wise kernels stay on one thread.
inline constexpr int64_t kElementwiseGrain = 32768;

// True inside a parallel region or on a thread that asked for serial ops.
bool in_parallel_region();
// Makes ops on the calling thread run single-threaded for the guard's lifetime.
class SerialOpsGuard {
 public:
  SerialOpsGuard();
  ~SerialOpsGuard();
  SerialOpsGuard(const SerialOpsGuard&) = delete;
  SerialOpsGuard& operator=(const SerialOpsGuard&) = delete;

 private:
  bool previous_;
};

// Splits [begin, end) into contiguous chunks run on several threads (see parallel_for).
void parallel_for_chunks(int64_t begin, int64_t end, int64_t grain,
                         const std::function<void(int64_t, int64_t)>& f);

// Calls f(chunk_begin, chunk_end) over [begin, end): one call when the range is at most
// `grain` long or only one thread is allowed, else contiguous chunks on several threads.
// The serial case is decided inline so small ops pay nothing for the threading machinery.
template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& f) {
  if (end <= begin) return;
  if (end - begin <= grain || get_num_threads() == 1 || in_parallel_region()) {
    f(begin, end);
    return;
  }
  parallel_for_chunks(begin, end, grain, f);
}

}  // namespace accel
