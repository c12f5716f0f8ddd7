// A matrix product for operands that one caller reuses many times — a convolution's weights
// against every image of the batch. The left operand is packed once into the panels the
// micro-kernel streams (or read in place, when few column panels reread it); the right one is
// packed per product into a buffer the thread keeps (a matrix with unit-stride rows, or masked
// rows, by the first row panel's tiles, which read it in place); the micro-kernel holds an 8-row x
// 2-vector tile of the output in registers and writes it straight into the output (no zeroing pass,
// no temporary product). Every output element sums its products in one fixed order (depth blocks in
// order, each block in order), so results depend only on the operands, never on threads: callers
// thread over whole products.
#pragma once

#include <cstdint>
#include <memory>

#include "accel/kernels/cpu/simd_vector.h"

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

// Where a tile finds eight rows of the left operand over one depth block: packed ([depth][8] at
// data, row_stride 0) or rows read in place (row r at data + r * row_stride).
template <typename T>
struct LeftPanel {
  const T* data;
  int64_t row_stride;
};

// The left operand of packed_gemm: packed — for each block of depth, its rows in panels of
// eight, each panel depth-major and zero-padded to eight rows — or, for a product few column
// panels of the right operand make (where a packing pass would not pay), read in place.
template <typename T>
class LeftOperand {
 public:
  LeftOperand() = default;
  explicit LeftOperand(const StridedMatrix<T>& a) { pack(a); }
  // Packs `a`, reusing the storage of an earlier pack.
  void pack(const StridedMatrix<T>& a);
  // Reads `a`, whose rows must be unit-stride, where it lies.
  void read_in_place(const StridedMatrix<T>& a);

  int64_t rows() const { return rows_; }
  int64_t depth() const { return depth_; }
  bool in_place() const { return in_place_; }
  // Rows [row, row + 8) of the depth block [depth_begin, depth_begin + block_depth).
  LeftPanel<T> panel(int64_t depth_begin, int64_t block_depth, int64_t row) const;

 private:
  int64_t rows_ = 0, depth_ = 0, padded_rows_ = 0;
  bool in_place_ = false;
  StridedMatrix<T> matrix_{};  // when read in place
  PanelBuffer<T> panels_;
  T* data_ = nullptr;
};

// How packed_gemm lays out a block of depth of its right operand: column panels, each
// [depth][width] at packed + first_column * depth, `width` being right_panel_width() (two
// 64-byte vectors, or one for a last panel that fits in one), zero-padded past the last column.
template <typename T>
constexpr int64_t kRightPanelWidth = 128 / sizeof(T);
template <typename T>
constexpr int64_t right_panel_width(int64_t first_column, int64_t cols) {
  return cols - first_column <= kRightPanelWidth<T> / 2 ? kRightPanelWidth<T> / 2
                                                        : kRightPanelWidth<T>;
}

// A left operand with unit-stride rows is best read in place rather than packed when the right
// operand has at most this many columns (four panels reread it): packing costs a pass over it,
// which [64,3136]·[3136,128] did not earn back; [1024,1024]·[1024,1024] (rows 4 KB apart, 32
// panels) ran faster packed.
template <typename T>
constexpr int64_t kMaxInPlaceLeftColumns = 4 * kRightPanelWidth<T>;

// A right operand whose rows are masked stretches of memory (a convolution's unfolded image):
// vector v of row d is the vector at base + rows[d].source + v * lanes with the lanes that
// kept[rows[d].kept + v] clears set to zero. Reads may run past the last column to the end of
// its vector, whose lanes there the masks clear. The first row panel's tiles read it so and pack
// it for the others: no packing pass, no matrix in between.
struct MaskedRow {
  int64_t source, kept;
};
template <typename T>
struct MaskedRows {
  const T* base;
  const MaskedRow* rows;
  const simd::LaneMask<T>* kept;
  int64_t row_count, cols;
};

// A right operand packed whole, every depth block as packed_gemm lays it out, for products that
// would each pack it again: the row blocks of x · Wᵀ, whose W is transposed into panels.
template <typename T>
class PackedRight {
 public:
  // Packs `b`, reusing the storage of an earlier pack.
  void pack(const StridedMatrix<T>& b);

  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  // Depth block [begin, begin + depth)'s panels from column `first` on.
  const T* block(int64_t begin, int64_t depth, int64_t first) const {
    return data_ + begin * padded_cols_ + first * depth;
  }

 private:
  int64_t rows_ = 0, cols_ = 0, padded_cols_ = 0;
  PanelBuffer<T> panels_;
  T* data_ = nullptr;
};

// out (a.rows() x b.cols(), row stride out_stride) = a · b, or out += a · b when accumulate.
// b.rows() must equal a.depth(). `right` is the thread's buffer for packing b. T: float or
// double.
template <typename T>
void packed_gemm(const LeftOperand<T>& a, const StridedMatrix<T>& b, T* out, int64_t out_stride,
                 bool accumulate, PanelBuffer<T>& right);
template <typename T>
void packed_gemm(const LeftOperand<T>& a, const MaskedRows<T>& b, T* out, int64_t out_stride,
                 bool accumulate, PanelBuffer<T>& right);
// Columns [first, first + cols) of a packed right operand, `first` a multiple of
// kRightPanelWidth.
template <typename T>
void packed_gemm(const LeftOperand<T>& a, const PackedRight<T>& b, int64_t first, int64_t cols,
                 T* out, int64_t out_stride, bool accumulate);

}  // namespace accel::cpu
