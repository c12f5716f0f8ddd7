// EigenThreadsGuard: how many threads Eigen's own parallel products may use within a scope.
// Eigen asks OpenMP for its thread count (omp_get_max_threads, as long as nobody calls
// Eigen::setNbThreads). That setting is per thread, so setting it around one call governs Eigen
// without racing other threads calling ops.
#pragma once

#ifdef _OPENMP
#include <omp.h>
#endif

namespace accel::cpu {

class EigenThreadsGuard {
 public:
#ifdef _OPENMP
  explicit EigenThreadsGuard(int threads) : previous_(omp_get_max_threads()) {
    if (threads != previous_) omp_set_num_threads(threads);
  }
  ~EigenThreadsGuard() {
    if (omp_get_max_threads() != previous_) omp_set_num_threads(previous_);
  }

 private:
  int previous_;
#else
  explicit EigenThreadsGuard(int) {}
#endif
};

}  // namespace accel::cpu
