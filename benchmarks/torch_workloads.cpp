// LibTorch's adapter for the workloads in workloads.h, built when CMake finds LibTorch, so
// the summary prints accel and LibTorch from the same run side by side.
#include <torch/torch.h>

#include "workloads.h"

namespace {

struct LibTorch {
  static void set_num_threads(int n) { torch::set_num_threads(n); }
  static torch::Tensor ones(int64_t numel) { return torch::ones({numel}); }
  static torch::Tensor randn(int64_t rows, int64_t cols) { return torch::randn({rows, cols}); }
  static torch::Tensor matmul(const torch::Tensor& a, const torch::Tensor& b) {
    return torch::matmul(a, b);
  }
};

}  // namespace

void bench::register_libtorch() { register_workloads<LibTorch>(kLibTorch); }
