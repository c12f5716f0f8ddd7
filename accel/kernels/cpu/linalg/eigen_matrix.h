// What the CPU factorizations share: Eigen maps over one matrix of a contiguous row-major batch,
// the float32/float64 dispatch and the loop that spreads a batch's matrices over threads (each
// matrix on one thread, Eigen's own products single-threaded inside it).
#pragma once

// GCC 12 flags Eigen's AVX-512 reductions as maybe-uninitialized (see gemm.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <Eigen/Dense>
#include <algorithm>
#include <memory>

#include "accel/base/error.h"
#include "accel/base/scalar_type.h"
#include "accel/kernels/cpu/eigen_threads.h"
#include "accel/kernels/cpu/packed_gemm.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu::linalg {

template <typename T>
using RowMajorMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using ColumnMajorMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <typename T>
using MatrixMap = Eigen::Map<RowMajorMatrix<T>>;
template <typename T>
using ConstMatrixMap = Eigen::Map<const RowMajorMatrix<T>>;
template <typename T>
using VectorMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;

// Matrix `index` of a batch of [rows, cols] matrices starting at `data`.
template <typename T>
MatrixMap<T> matrix_at(void* data, int64_t index, int64_t rows, int64_t cols) {
  return MatrixMap<T>(static_cast<T*>(data) + index * rows * cols, rows, cols);
}
template <typename T>
ConstMatrixMap<T> matrix_at(const void* data, int64_t index, int64_t rows, int64_t cols) {
  return ConstMatrixMap<T>(static_cast<const T*>(data) + index * rows * cols, rows, cols);
}

// A row-major matrix as a column-major one, and back: their elements transposed in blocks
// (Eigen's assignment between the two orders walks one with a stride).
template <typename T>
ColumnMajorMatrix<T> column_major(const ConstMatrixMap<T>& m) {
  ColumnMajorMatrix<T> out(m.rows(), m.cols());
  simd::transpose(m.data(), m.rows(), m.cols(), m.cols(), out.data(), m.rows());
  return out;
}
template <typename ColumnMajor>
void copy_to(const ColumnMajor& m, MatrixMap<typename ColumnMajor::Scalar> out) {
  static_assert(!ColumnMajor::IsRowMajor);
  simd::transpose(m.data(), m.cols(), m.rows(), m.rows(), out.data(), m.cols());
}

// What a factorization needs room for, each use its own buffer.
enum class ScratchUse { Product, Panel, Factors, Formed };

// Room for `size` elements: a buffer the calling thread keeps between calls, up to 8 MB (a
// fresh allocation of that size was mapped and zeroed anew every call: page faults took 5% of
// a [256,256] LU factorization and 9% of a [512,128] QR), or, larger, one of its own.
template <typename T, ScratchUse Use>
class Scratch {
 public:
  explicit Scratch(int64_t size) {
    if (size * int64_t(sizeof(T)) <= kKeptBytes) {
      thread_local PanelBuffer<T> kept;
      data_ = kept.reserve(size);
    } else {
      own_ = std::make_unique_for_overwrite<T[]>(static_cast<size_t>(size));
      data_ = own_.get();
    }
  }
  T* data() const { return data_; }

 private:
  static constexpr int64_t kKeptBytes = int64_t{8} << 20;
  std::unique_ptr<T[]> own_;
  T* data_;
};

// Calls f.template operator()<T>() for float32 or float64.
template <typename F>
void dispatch_linalg(ScalarType type, const char* op, F&& f) {
  if (type == kFloat64) return f.template operator()<double>();
  if (type == kFloat32) return f.template operator()<float>();
  fail(op, "expected a float32 or float64 tensor, got {}", type);
}

// Calls f(index) for every matrix of a batch, each costing about `work` multiply-adds.
template <typename F>
void for_each_matrix(int64_t batch, int64_t work, const F& f) {
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(work, 1));
  parallel_for(0, batch, grain, [&](int64_t begin, int64_t end) {
    EigenThreadsGuard single_threaded(1);
    for (int64_t i = begin; i < end; ++i) f(i);
  });
}

}  // namespace accel::cpu::linalg
