// A matrix product for operands that one caller reuses many times — a convolution's weights
// against every image of the batch. The left operand is packed once into the panels the
// micro-kernel streams (or read in place, when few column panels reread it); the right one is
// packed per product into a buffer the thread keeps (a matrix with unit-stride rows by the first
// row panel's tiles, which read it in place); the micro-kernel holds an 8-row x 2-vector tile of
// the output in registers and writes it straight into the output (no zeroing pass, no temporary
// product). Every output element sums its products in one fixed order (depth blocks in order, each
// block in order), so results depend only on the operands, never on threads: callers thread over
// whole products.
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

// A right operand that packs itself into that layout: a caller that produces the operand's rows
// on the fly (a convolution unfolding an image) writes them there without a matrix in between.
template <typename T>
class RightOperand {
 public:
  RightOperand(int64_t rows, int64_t cols) : rows_(rows), cols_(cols) {}
  virtual ~RightOperand() = default;
  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  // Writes rows [begin, begin + depth) as one block of panels.
  virtual void pack(int64_t begin, int64_t depth, T* packed) const = 0;

 private:
  int64_t rows_, cols_;
};

// out (a.rows() x b.cols(), row stride out_stride) = a · b, or out += a · b when accumulate.
// b.rows() must equal a.depth(). `right` is the thread's buffer for packing b. T: float or
// double.
template <typename T>
void packed_gemm(const LeftOperand<T>& a, const RightOperand<T>& b, T* out, int64_t out_stride,
                 bool accumulate, PanelBuffer<T>& right);
// The same with b read from memory.
template <typename T>
void packed_gemm(const LeftOperand<T>& a, const StridedMatrix<T>& b, T* out, int64_t out_stride,
                 bool accumulate, PanelBuffer<T>& right);

}  // namespace accel::cpu
