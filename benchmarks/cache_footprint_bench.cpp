// Why a + b on [32,128] float32 costs what it does: its three operands are 48 KiB, the size
// of an L1 data cache on many current x86 cores, so each call's time depends on how many
// other cache lines the call touches (every one evicts operand lines, and a cyclic sweep
// then misses in that whole cache set). Prints, for a bare loop over preallocated arrays,
// the time per call as the number of unrelated lines touched per call grows, at shapes
// below, at and above that size, beside accel's `a + b` on the same shapes.
// Figures only; see docs/benchmarks.md.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>

#include "accel/accel.h"

namespace {

using Clock = std::chrono::steady_clock;

// Nanoseconds per call of f: the median of 5 timings of `calls` calls each, after a warm-up.
template <typename F>
double ns_per_call(F f, int calls = 200000) {
  for (int i = 0; i < calls / 10; ++i) f();
  std::array<double, 5> runs;
  for (double& run : runs) {
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < calls; ++i) f();
    run = std::chrono::duration<double, std::nano>(Clock::now() - start).count() / calls;
  }
  std::sort(runs.begin(), runs.end());
  return runs[2];
}

__attribute__((noinline)) void add_arrays(float* __restrict out, const float* __restrict a,
                                          const float* __restrict b, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

// Lines of 64 bytes, spread over every cache set, that a call touches besides its operands
// (as a library's tensor headers, allocator state and stack do).
struct OtherLines {
  static constexpr int kLines = 256;
  alignas(64) std::array<char, kLines * 64> bytes{};
  void touch(int count) {
    // A stride of 5 lines visits distinct sets before it revisits one.
    for (int i = 0; i < count; ++i) {
      volatile char& c = bytes[(i * 5 % kLines) * 64];
      c = static_cast<char>(c + 1);
    }
  }
};

}  // namespace

int main() {
  accel::set_num_threads(1);
  OtherLines other;
  const int extra_counts[] = {0, 4, 16, 64};
  fmt::print("a + b, float32, one thread; ns per call (median of 5)\n");
  fmt::print("{:<10} {:>9}", "shape", "operands");
  for (int extra : extra_counts) fmt::print(" {:>14}", fmt::format("loop+{} lines", extra));
  fmt::print(" {:>10}\n", "accel a+b");
  for (int64_t rows : {16, 32, 64}) {
    const int64_t n = rows * 128;
    // The loop's arrays are tensors' memory: 64-byte aligned, as the op's operands are.
    const accel::Tensor a = accel::ones({n}), b = accel::ones({n}), out = accel::empty({n});
    float* out_data = out.data_ptr<float>();
    const float *a_data = a.data_ptr<float>(), *b_data = b.data_ptr<float>();
    fmt::print("{:<10} {:>5} KiB", fmt::format("[{},128]", rows), 3 * n * 4 / 1024);
    for (int extra : extra_counts) {
      const double ns = ns_per_call([&] {
        add_arrays(out_data, a_data, b_data, n);
        other.touch(extra);
      });
      fmt::print(" {:>14.0f}", ns);
    }
    const accel::Tensor x = accel::ones({rows, 128}), y = accel::ones({rows, 128});
    float checksum = 0;
    const double accel_ns = ns_per_call([&] { checksum += (x + y).data_ptr<float>()[0]; });
    fmt::print(" {:>10.0f}\n", accel_ns);
    if (checksum <= 0) fmt::print("unexpected result\n");
  }
}
