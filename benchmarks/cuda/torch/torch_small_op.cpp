// LibTorch's side of the small-op figure in cuda/cuda_bench.cpp: the host time of a + b on
// [32, 128] CUDA tensors (launch included, no synchronization), timed exactly as accel's.
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  if (!torch::cuda::is_available()) {
    std::puts("torch_small_op: no CUDA device available");
    return 0;
  }
  using Clock = std::chrono::steady_clock;
  torch::NoGradGuard no_grad;  // accel's a + b on tensors without requires_grad records nothing
  const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(torch::kCUDA);
  const torch::Tensor a = torch::randn({32, 128}, options);
  const torch::Tensor b = torch::randn({32, 128}, options);
  constexpr int kCalls = 500;
  std::vector<double> times;
  for (int r = 0; r < 21; ++r) {
    torch::cuda::synchronize();
    const auto start = Clock::now();
    for (int c = 0; c < kCalls; ++c) {
      const torch::Tensor out = a + b;
    }
    times.push_back(std::chrono::duration<double>(Clock::now() - start).count() / kCalls);
  }
  torch::cuda::synchronize();
  std::sort(times.begin(), times.end());
  std::printf("torch_cpp_small_add_32x128_host_us %.4g\n", times[times.size() / 2] * 1e6);
  return 0;
}
