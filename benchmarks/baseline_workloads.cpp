// The yardsticks accel is measured against: Eigen's own GEMM on the same shapes (accel's
// matmul should reach >= 90% of its rate), the two GEMMs inside a Linear layer's forward +
// backward (the layer should reach >= 90% of their rate) and memcpy moving the bytes of the
// large add (the element-wise op should reach >= 70% of its bandwidth), and for the [32,128]
// add the bare loop: the arithmetic alone, the floor under any tensor library's a + b.
#include <omp.h>

#include <Eigen/Core>
#include <cstring>
#include <vector>

#include "workloads.h"

namespace {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Eigen reads its thread count from OpenMP. Eigen::setNbThreads would pin the count for
// accel's Eigen too (the setting is one global shared by every copy of Eigen's code).
void set_threads(const benchmark::State& state) {
  omp_set_num_threads(static_cast<int>(state.range(0)));
}

void eigen_gemm(benchmark::State& state, bench::GemmShape shape) {
  set_threads(state);
  const Matrix a = Matrix::Random(shape.m, shape.k);
  const Matrix b = Matrix::Random(shape.k, shape.n);
  Matrix c(shape.m, shape.n);
  for (auto _ : state) {
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  bench::set_rate(state, bench::kFlopsCounter, shape.flops());
}

// The products Linear's forward and weight gradient compute, on row-major operands as the
// layer holds them: y = x w^T, then dw = g^T x.
void eigen_linear_gemms(benchmark::State& state, bench::LinearShape shape) {
  set_threads(state);
  const Matrix x = Matrix::Random(shape.batch, shape.in);
  const Matrix w = Matrix::Random(shape.out, shape.in);
  const Matrix g = Matrix::Random(shape.batch, shape.out);
  Matrix y(shape.batch, shape.out), dw(shape.out, shape.in);
  for (auto _ : state) {
    y.noalias() = x * w.transpose();
    dw.noalias() = g.transpose() * x;
    benchmark::DoNotOptimize(y.data());
    benchmark::DoNotOptimize(dw.data());
  }
  bench::set_rate(state, bench::kFlopsCounter, shape.flops());
}

// memcpy of the add's two inputs (2 x 64 MB), split into one chunk per thread; bandwidth
// counts bytes read plus bytes written, as the add's does.
void memcpy_large(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const size_t bytes = 2 * bench::kLargeNumel * sizeof(float);
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  for (auto _ : state) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int t = 0; t < threads; ++t) {
      const size_t begin = bytes * t / threads, end = bytes * (t + 1) / threads;
      std::memcpy(dst.data() + begin, src.data() + begin, end - begin);
    }
    benchmark::DoNotOptimize(dst.data());
  }
  bench::set_rate(state, bench::kBytesCounter, 2.0 * static_cast<double>(bytes));
}

// out = a + b as bare C++ into a result allocated once: the arithmetic alone, a loop the
// compiler vectorizes, with no allocation, shapes, dtypes or dispatch. A tensor library's
// out-of-place add does this and more, so its time cannot fall below this one.
// Eigen's vectors are aligned for the widest vector unit, as tensor memory is.
void loop_add(benchmark::State& state, int64_t numel) {
  const Eigen::VectorXf a = Eigen::VectorXf::Ones(numel), b = Eigen::VectorXf::Ones(numel);
  Eigen::VectorXf out(numel);
  for (auto _ : state) {
    for (int64_t i = 0; i < numel; ++i) out[i] = a[i] + b[i];
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}

}  // namespace

void bench::register_baselines() {
  for (const AddShape& shape : kAddShapes)
    add_benchmark(shape.name, kLoop, Clock::CallingThreadCpu, loop_add, shape.numel);
  for (const GemmShape& shape : kGemmShapes)
    add_benchmark(shape.name, kEigen, Clock::WallWhenThreaded, eigen_gemm, shape);
  for (const LinearShape& shape : kLinearShapes)
    add_benchmark(shape.name, kEigen, Clock::WallWhenThreaded, eigen_linear_gemms, shape);
  add_benchmark(kAddLarge, kMemcpy, Clock::WallWhenThreaded, memcpy_large);
}
