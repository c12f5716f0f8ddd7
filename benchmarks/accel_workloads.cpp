// accel's adapter for the workloads in workloads.h.
#include "accel/accel.h"
#include "workloads.h"

namespace {

struct Accel {
  static void set_num_threads(int n) { accel::set_num_threads(n); }
  static accel::Tensor ones(int64_t numel) { return accel::ones({numel}); }
  static accel::Tensor randn(int64_t rows, int64_t cols) { return accel::randn({rows, cols}); }
  static accel::Tensor matmul(const accel::Tensor& a, const accel::Tensor& b) {
    return accel::matmul(a, b);
  }
};

}  // namespace

void bench::register_accel() { register_workloads<Accel>(kAccel); }
