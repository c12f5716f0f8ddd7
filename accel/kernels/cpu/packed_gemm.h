// A matrix product for operands that one caller reuses many times — a convolution's weights
// against every image of the batch. The left operand is packed once into the panels the
// micro-kernel streams; the right one is packed per product into a buffer the thread keeps;
// the micro-kernel holds an 8-row x 2-vector tile of the output in registers and writes it
// straight into the output (no zeroing pass, no temporary product). Every output element sums
// its products in one fixed order (depth blocks in order, each block in order), so results
// depend only on the operands, never on threads: callers thread over whole products.
#pragma once

#include <cstdint>
#include <memory>

namespace accel::cpu {

// A rows x cols matrix read in place: element (i, j) at data[i * row_stride + j * col_stride].
template <typename T>
struct StridedMatrix {
  const T* data;
  int64_t rows, cols, row_stride, col_stride;
};

// A buffer aligned for the micro-kernel's vectors that only grows.
template <typename T>
class PanelBuffer {
 public:
  T* reserve(int64_t size);

 private:
  struct Free {
    void operator()(T* p) const;
  };
  std::unique_ptr<T[], Free> data_;
  int64_t size_ = 0;
};

// The left operand of packed_gemm, packed: for each block of depth, its rows in panels of
// eight, each panel depth-major and zero-padded to eight rows.
template <typename T>
class PackedLeft {
 public:
  PackedLeft() = default;
  explicit PackedLeft(const StridedMatrix<T>& a) { pack(a); }
  // Packs `a`, reusing the storage of an earlier pack.
  void pack(const StridedMatrix<T>& a);

  int64_t rows() const { return rows_; }
  int64_t depth() const { return depth_; }
  // The panels of one depth block (rows rounded up to whole panels, times the block's depth).
  const T* block(int64_t depth_begin) const;

 private:
  int64_t rows_ = 0, depth_ = 0, padded_rows_ = 0;
  PanelBuffer<T> panels_;
  T* data_ = nullptr;
};

// out (a.rows() x b.cols, row stride out_stride) = a · b, or out += a · b when accumulate.
// b.rows must equal a.depth(). `right` is the thread's buffer for packing b. T: float or double.
template <typename T>
void packed_gemm(const PackedLeft<T>& a, const StridedMatrix<T>& b, T* out, int64_t out_stride,
                 bool accumulate, PanelBuffer<T>& right);

}  // namespace accel::cpu
