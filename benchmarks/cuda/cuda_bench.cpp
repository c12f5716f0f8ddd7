// The CUDA backend's figures, printed as "name value" lines that scripts/gpu-check.sh sets
// beside PyTorch's (benchmarks/pytorch/cuda_ops.py, cuda/torch_small_op.cpp): device copy
// bandwidth beside a + b on 256M float32 elements, matrix products at 4096^3 and 8192^3 in
// float32 and bfloat16, and the host time of a small op (a + b on [32, 128], launch
// included, no synchronization). Each figure is the median of several timed repetitions after
// a warm-up. Without a device it says so and exits 0.
#include <accel/accel.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

using namespace accel;
using Clock = std::chrono::steady_clock;

const Device kGpu(kCUDA, 0);

// Median seconds per call of `body` over `reps` repetitions of `calls` calls each, the device
// synchronized around every repetition.
double seconds_per_call(int reps, int calls, const std::function<void()>& body) {
  body();  // warm-up: module loading, handles, allocator segments
  cuda::synchronize(kGpu);
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    const auto start = Clock::now();
    for (int c = 0; c < calls; ++c) body();
    cuda::synchronize(kGpu);
    times.push_back(std::chrono::duration<double>(Clock::now() - start).count() / calls);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void report(const char* name, double value) { std::printf("%s %.4g\n", name, value); }

void bandwidth() {
  constexpr int64_t n = int64_t{256} << 20;
  const Tensor a = randn({n}, TensorOptions(kFloat32).device(kGpu));
  const Tensor b = randn({n}, TensorOptions(kFloat32).device(kGpu));
  Tensor copy = empty({n}, TensorOptions(kFloat32).device(kGpu));
  const double bytes = static_cast<double>(n) * 4;
  const double copy_s = seconds_per_call(7, 5, [&] { copy.copy_(a); });
  const double add_s = seconds_per_call(7, 5, [&] { const Tensor c = a + b; });
  report("copy_256M_f32_GBps", 2 * bytes / copy_s / 1e9);  // read + write
  report("add_256M_f32_GBps", 3 * bytes / add_s / 1e9);    // two reads + one write
}

void matmuls() {
  for (ScalarType dtype : {kFloat32, kBFloat16}) {
    for (int64_t size : {4096, 8192}) {
      const Tensor a = randn({size, size}, TensorOptions(kFloat32).device(kGpu)).to(dtype);
      const Tensor b = randn({size, size}, TensorOptions(kFloat32).device(kGpu)).to(dtype);
      const double s =
          seconds_per_call(5, size == 4096 ? 20 : 5, [&] { const Tensor c = matmul(a, b); });
      const std::string name = fmt::format("matmul_{}_{}_TFLOPs", to_string(dtype), size);
      report(name.c_str(), 2.0 * static_cast<double>(size * size * size) / s / 1e12);
    }
  }
}

// Host time only: the loop's duration before the device is waited for. Few enough calls that
// the launch queue never fills (then the host would wait for the device).
void small_op() {
  const Tensor a = randn({32, 128}, TensorOptions(kFloat32).device(kGpu));
  const Tensor b = randn({32, 128}, TensorOptions(kFloat32).device(kGpu));
  constexpr int kCalls = 500;
  std::vector<double> times;
  for (int r = 0; r < 21; ++r) {
    cuda::synchronize(kGpu);
    const auto start = Clock::now();
    for (int c = 0; c < kCalls; ++c) {
      const Tensor out = a + b;
    }
    times.push_back(std::chrono::duration<double>(Clock::now() - start).count() / kCalls);
  }
  cuda::synchronize(kGpu);
  std::sort(times.begin(), times.end());
  report("small_add_32x128_host_us", times[times.size() / 2] * 1e6);
}

}  // namespace

int main() {
  if (!cuda::is_available()) {
    std::puts("cuda_bench: no CUDA device available");
    return 0;
  }
  bandwidth();
  matmuls();
  small_op();
  const AllocatorStats stats = allocator_for(kGpu).stats();
  report("cudaMalloc_calls", static_cast<double>(stats.num_system_allocations));
  return 0;
}
