// The benchmark workloads, written once for every tensor library that runs them: accel and
// LibTorch spell these calls alike, so each library supplies a small adapter `Lib` and gets
// identical workloads (small-op overhead of a + b with and without autograd recording,
// matmul GFLOP/s, the bandwidth of a large element-wise add). No accel, Eigen or Torch
// headers here: the adapters live in accel_workloads.cpp and torch_workloads.cpp.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>

namespace bench {

// Each workload runs at these intra-op thread counts (the benchmark argument "threads").
inline constexpr int kThreadCounts[] = {1, 2};

// Per-op overhead: a + b on small float32 tensors, with and without autograd recording.
inline constexpr const char* kAddSmall = "add[1]";
inline constexpr const char* kAddSmallGrad = "add[1]+autograd";
inline constexpr const char* kAddMedium = "add[32,128]";
inline constexpr const char* kAddMediumGrad = "add[32,128]+autograd";

// Matrix products: [m, k] x [k, n] in float32.
struct GemmShape {
  const char* name;
  int64_t m, k, n;
  double flops() const { return 2.0 * static_cast<double>(m * k * n); }
};
inline constexpr GemmShape kGemmShapes[] = {
    {"matmul[32x784]x[784x128]", 32, 784, 128},
    {"matmul[1024x1024]x[1024x1024]", 1024, 1024, 1024},
};

// A large element-wise op: out = a + b over kLargeNumel float32 elements each. Bandwidth
// counts bytes read plus bytes written: three arrays of 64 MB per call.
inline constexpr const char* kAddLarge = "add[16M]+[16M]";
inline constexpr int64_t kLargeNumel = int64_t{16} << 20;
inline constexpr double kAddLargeBytes = 3.0 * kLargeNumel * sizeof(float);

// Implementation labels: the second part of each benchmark name, "<workload>/<impl>".
inline constexpr const char* kAccel = "accel";
inline constexpr const char* kLibTorch = "libtorch";
inline constexpr const char* kEigen = "eigen";
inline constexpr const char* kMemcpy = "memcpy";

// Counter names the summary reads.
inline constexpr const char* kFlopsCounter = "FLOP/s";
inline constexpr const char* kBytesCounter = "bytes/s";

// The targets: accel's small-op time at most 1/5 of LibTorch's, matmul at least 90%
// of Eigen's GEMM rate, the large add at least 70% of memcpy's bandwidth.
struct Target {
  const char* baseline;
  bool higher_is_better;  // rates: accel/baseline >= ratio; times: accel/baseline <= ratio
  double ratio;
};
inline constexpr Target kTargets[] = {
    {kLibTorch, false, 0.2}, {kEigen, true, 0.9}, {kMemcpy, true, 0.7}};

// How a workload is timed. The calling thread's CPU time equals wall time on an idle machine
// and, unlike wall time, stays right when other processes share the cores; it serves work
// that runs on the calling thread alone: small ops, and any workload at one thread.
// Multi-threaded work needs wall time (and an otherwise idle machine).
enum class Clock { CallingThreadCpu, WallWhenThreaded };

// Workload names in the order they were first registered (the summary's row order).
inline std::map<std::string, size_t>& workload_order() {
  static std::map<std::string, size_t> order;
  return order;
}

// Registers `fn(state, args...)` as "<workload>/<impl>" at every thread count.
template <typename... Args>
void add_benchmark(const char* workload, const char* impl, Clock clock,
                   void (*fn)(benchmark::State&, Args...), std::type_identity_t<Args>... args) {
  const std::string name = std::string(workload) + "/" + impl;
  workload_order().emplace(workload, workload_order().size());
  for (int t : kThreadCounts) {
    benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(name.c_str(), fn, args...);
    b->ArgName("threads")->Arg(t);
    if (clock == Clock::WallWhenThreaded && t > 1) b->UseRealTime();
  }
}

inline void set_rate(benchmark::State& state, const char* counter, double per_iteration) {
  state.counters[counter] =
      benchmark::Counter(per_iteration, benchmark::Counter::kIsIterationInvariantRate);
}

// ---- the workloads, for an adapter Lib with set_num_threads(n), ones(numel),
// randn(rows, cols) and matmul(a, b) ----

// a + b on [numel] inputs; with `record` the inputs require grad, so every call records an
// autograd node (freed again when the result dies).
template <typename Lib>
void add_small(benchmark::State& state, int64_t numel, bool record) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto a = Lib::ones(numel).requires_grad_(record);
  const auto b = Lib::ones(numel).requires_grad_(record);
  for (auto _ : state) {
    const auto c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
  }
}

template <typename Lib>
void matmul(benchmark::State& state, GemmShape shape) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto a = Lib::randn(shape.m, shape.k);
  const auto b = Lib::randn(shape.k, shape.n);
  for (auto _ : state) {
    const auto c = Lib::matmul(a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  }
  set_rate(state, kFlopsCounter, shape.flops());
}

template <typename Lib>
void add_large(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto a = Lib::ones(kLargeNumel);
  const auto b = Lib::ones(kLargeNumel);
  for (auto _ : state) {
    const auto c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
  }
  set_rate(state, kBytesCounter, kAddLargeBytes);
}

template <typename Lib>
void register_workloads(const char* impl) {
  const Clock cpu = Clock::CallingThreadCpu;
  add_benchmark(kAddSmall, impl, cpu, add_small<Lib>, int64_t{1}, false);
  add_benchmark(kAddSmallGrad, impl, cpu, add_small<Lib>, int64_t{1}, true);
  add_benchmark(kAddMedium, impl, cpu, add_small<Lib>, int64_t{32 * 128}, false);
  add_benchmark(kAddMediumGrad, impl, cpu, add_small<Lib>, int64_t{32 * 128}, true);
  for (const GemmShape& shape : kGemmShapes) {
    add_benchmark(shape.name, impl, Clock::WallWhenThreaded, matmul<Lib>, shape);
  }
  add_benchmark(kAddLarge, impl, Clock::WallWhenThreaded, add_large<Lib>);
}

// Each implementation file registers its benchmarks; main calls these in this order.
void register_accel();
void register_baselines();  // Eigen's GEMM and memcpy
void register_libtorch();   // only in builds that found LibTorch

}  // namespace bench
