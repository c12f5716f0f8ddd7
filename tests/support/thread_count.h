// ThreadCount: sets the intra-op thread count for a scope and restores the previous one, for
// the tests that compare results across thread counts.
#pragma once

#include "accel/kernels/cpu/parallel.h"

namespace accel::testing {

class ThreadCount {
 public:
  explicit ThreadCount(int n) : previous_(get_num_threads()) { set_num_threads(n); }
  ~ThreadCount() { set_num_threads(previous_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int previous_;
};

}  // namespace accel::testing
