// The packed product (see packed_gemm.h). The micro-kernel is written with the 64-byte vectors
// of simd_vector.h. Depth is cut into blocks so that one panel of the packed right operand stays in
// the L1 cache while every row panel of the left operand streams past it.
#include "accel/kernels/cpu/packed_gemm.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <optional>

#include "accel/base/error.h"
#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {

namespace {

using simd::kLanes;
using simd::load;
using simd::store;
using simd::Vector;

constexpr int64_t kPanelRows = 8;  // simd::transpose_8x8 packs whole panels
// The micro-kernel's tile is two vectors wide: a full right panel.
static_assert(kRightPanelWidth<float> == 2 * kLanes<float> &&
              kRightPanelWidth<double> == 2 * kLanes<double>);
// 128 x 32 floats (or x 16 doubles) = 16 KB: one right panel, half of the L1 cache.
constexpr int64_t kMaxDepthBlock = 128;

// Depth is cut into equal blocks of at most kMaxDepthBlock: 288 as 3 x 96, not 128 + 128 + 32,
// whose last block would store and reload the output tile for little work.
int64_t depth_block(int64_t depth) {
  const int64_t blocks = std::max<int64_t>(1, (depth + kMaxDepthBlock - 1) / kMaxDepthBlock);
  return (depth + blocks - 1) / blocks;
}

int64_t round_up(int64_t value, int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// How far ahead (in depth steps) a tile reading its right operand in place prefetches it.
constexpr int64_t kPrefetchSteps = 16;
// Rows of a right operand this far apart or more lie on separate pages, where the hardware
// prefetchers do not follow them: a tile reading one panel in place then also brings the next
// panel's rows into the L2 cache for the next column's first tile ([64,288]·[288,12544]: +9%).
constexpr int64_t kPageBytes = 4096;

// A right panel where a tile reads it: row d at data + d * stride (a packed panel, or a panel
// of a matrix in memory).
template <typename T>
struct RowsInMemory {
  const T* data;
  int64_t stride;
  Vector<T> row(int64_t d, int64_t v) const { return load(data + d * stride + v * kLanes<T>); }
  // For a first tile reading an operand's panel in place: the rows kPrefetchSteps ahead, and
  // the next panel's row where rows lie pages apart. (Inlined always: GCC takes a function that
  // only prefetches for one without effects and drops the calls of one it did not inline.)
  [[gnu::always_inline]] void prefetch(int64_t d, int64_t depth, int64_t width) const {
    if (d + kPrefetchSteps < depth) {
      __builtin_prefetch(data + (d + kPrefetchSteps) * stride);
      __builtin_prefetch(data + (d + kPrefetchSteps) * stride + width - 1);
    }
    if (stride * int64_t(sizeof(T)) >= kPageBytes) {
      __builtin_prefetch(data + d * stride + width, 0, 2);
      __builtin_prefetch(data + d * stride + 2 * width - 1, 0, 2);
    }
  }
};

// A right panel of masked rows (MaskedRows from row `rows` on), starting at vector first_vector.
template <typename T>
struct MaskedPanel {
  const T* base;
  const MaskedRow* rows;
  const simd::LaneMask<T>* kept;
  int64_t first_vector;
  Vector<T> row(int64_t d, int64_t v) const {
    const MaskedRow& r = rows[d];
    return simd::keep_lanes<T>(load(base + r.source + (first_vector + v) * kLanes<T>),
                               kept[r.kept + first_vector + v]);
  }
  // (Rows kPrefetchSteps ahead, prefetched, made no difference: a small image stays in cache.)
  void prefetch(int64_t, int64_t, int64_t) const {}
};

// out tile (rows x cols of it valid) = or += the product of one left panel (packed [depth][8],
// or with LeftInPlace eight rows read where they lie, a last partial panel repeating its last
// row) and one right panel of Vectors vectors, accumulated in registers over the whole depth.
// With CopiesRight, the right panel is read where it lies in the operand and each row is also
// stored, packed, at right_copy: the first row panel packs the right one for the others while it
// computes, instead of a copying pass before them. With prefetch_out, the tile asks for its
// output rows before it works, not when it ends.
template <typename T, int64_t Vectors, bool CopiesRight, bool LeftInPlace, typename Right>
void multiply_tile(int64_t depth, LeftPanel<T> left, Right right, T* right_copy, T* out,
                   int64_t out_stride, int64_t rows, int64_t cols, bool add, bool prefetch_out) {
  constexpr int64_t L = kLanes<T>, width = Vectors * L;
  Vector<T> sum[kPanelRows][Vectors] = {};
  const T* left_rows[kPanelRows];
  if constexpr (LeftInPlace) {
    for (int64_t r = 0; r < kPanelRows; ++r)
      left_rows[r] = left.data + std::min(r, rows - 1) * left.row_stride;
  }
  if (prefetch_out) {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t v = 0; v < Vectors; ++v) __builtin_prefetch(out + r * out_stride + v * L, 1);
    }
  }
  for (int64_t d = 0; d < depth; ++d) {
    Vector<T> b[Vectors];
    for (int64_t v = 0; v < Vectors; ++v) b[v] = right.row(d, v);
    if constexpr (CopiesRight) {
      right.prefetch(d, depth, width);
      for (int64_t v = 0; v < Vectors; ++v) store(right_copy + d * width + v * L, b[v]);
    }
#pragma GCC unroll 8
    for (int64_t r = 0; r < kPanelRows; ++r) {
      const T a = LeftInPlace ? left_rows[r][d] : left.data[d * kPanelRows + r];
      for (int64_t v = 0; v < Vectors; ++v) sum[r][v] += a * b[v];
    }
  }
  if (rows == kPanelRows && cols == width) {
#pragma GCC unroll 8
    for (int64_t r = 0; r < kPanelRows; ++r) {
      for (int64_t v = 0; v < Vectors; ++v) {
        T* o = out + r * out_stride + v * L;
        store(o, add ? load(o) + sum[r][v] : sum[r][v]);
      }
    }
    return;
  }
  alignas(64) T tile[kPanelRows][width];
  std::memcpy(tile, sum, sizeof tile);
  for (int64_t r = 0; r < rows; ++r) {
    T* o = out + r * out_stride;
    for (int64_t c = 0; c < cols; ++c) o[c] = add ? o[c] + tile[r][c] : tile[r][c];
  }
}

// Rows [begin, begin + depth) of b, packed as column panels of [depth][2 vectors], zero-padded
// to whole panels (a last panel that fits one vector is one vector wide: a product 196 wide
// computes 208 columns, not 224).
template <typename T>
void pack_right(const StridedMatrix<T>& b, int64_t begin, int64_t depth, T* packed) {
  for (int64_t first = 0; first < b.cols; first += kRightPanelWidth<T>) {
    const int64_t width = right_panel_width<T>(first, b.cols),
                  cols = std::min(width, b.cols - first);
    T* panel = packed + first * depth;
    const T* src = b.data + begin * b.row_stride + first * b.col_stride;
    if (b.col_stride == 1 && cols == kRightPanelWidth<T>) {
      for (int64_t d = 0; d < depth; ++d) {
        store(panel + d * width, load(src + d * b.row_stride));
        store(panel + d * width + kLanes<T>, load(src + d * b.row_stride + kLanes<T>));
      }
    } else if (b.col_stride == 1) {  // a last, partial panel: its vectors zero-padded
      for (int64_t d = 0; d < depth; ++d) {
        for (int64_t v = 0; v < width; v += kLanes<T>) {
          const int64_t count = std::clamp<int64_t>(cols - v, 0, kLanes<T>);
          store(panel + d * width + v, simd::load_partial(src + d * b.row_stride + v, count));
        }
      }
    } else {
      int64_t c = 0;
      if (b.row_stride == 1) {  // column-major: blocks of 8 x 8 transposed whole
        for (; c + 8 <= cols; c += 8) {
          int64_t d = 0;
          for (; d + 8 <= depth; d += 8) {
            simd::transpose_8x8(src + d + c * b.col_stride, b.col_stride, panel + d * width + c,
                                width);
          }
          for (; d < depth; ++d) {
            for (int64_t i = c; i < c + 8; ++i) panel[d * width + i] = src[d + i * b.col_stride];
          }
        }
      }
      for (; c < cols; ++c) {
        for (int64_t d = 0; d < depth; ++d)
          panel[d * width + c] = src[d * b.row_stride + c * b.col_stride];
      }
      for (int64_t d = 0; d < depth; ++d)
        std::fill(panel + d * width + cols, panel + (d + 1) * width, T(0));
    }
  }
}

}  // namespace

template <typename T>
T* PanelBuffer<T>::reserve(int64_t size) {
  if (size > size_) {
    data_.reset(static_cast<T*>(::operator new[](size * sizeof(T), std::align_val_t{64})));
    size_ = size;
  }
  return data_.get();
}

template <typename T>
void PanelBuffer<T>::Free::operator()(T* p) const {
  ::operator delete[](p, std::align_val_t{64});
}

template <typename T>
void LeftOperand<T>::pack(const StridedMatrix<T>& a) {
  in_place_ = false;
  rows_ = a.rows;
  depth_ = a.cols;
  padded_rows_ = round_up(a.rows, kPanelRows);
  data_ = panels_.reserve(padded_rows_ * depth_);
  const int64_t block_depth = depth_block(depth_);
  const int64_t full_rows = a.rows / kPanelRows * kPanelRows;
  for (int64_t begin = 0; begin < depth_; begin += block_depth) {
    const int64_t depth = std::min(block_depth, depth_ - begin);
    T* block = data_ + begin * padded_rows_;
    if (a.row_stride == 1) {
      // Column-major: each depth step's rows lie together, read in order, eight to a panel (a
      // panel at a time would read one line per depth step, each a page apart).
      for (int64_t d = 0; d < depth; ++d) {
        const T* column = a.data + (begin + d) * a.col_stride;
        for (int64_t first = 0; first < full_rows; first += kPanelRows) {
          std::memcpy(block + first * depth + d * kPanelRows, column + first,
                      kPanelRows * sizeof(T));
        }
      }
    } else {
      for (int64_t first = 0; first < full_rows; first += kPanelRows) {
        T* panel = block + first * depth;
        const T* rows = a.data + first * a.row_stride + begin * a.col_stride;
        int64_t d = 0;  // written in order, read as eight streams
        if (a.col_stride == 1) {
          for (; d + kPanelRows <= depth; d += kPanelRows) {
            simd::transpose_8x8(rows + d, a.row_stride, panel + d * kPanelRows, kPanelRows);
          }
        }
        for (; d < depth; ++d) {
#pragma GCC unroll 8
          for (int64_t r = 0; r < kPanelRows; ++r) {
            panel[d * kPanelRows + r] = rows[r * a.row_stride + d * a.col_stride];
          }
        }
      }
    }
    if (full_rows == a.rows) continue;
    T* panel = block + full_rows * depth;  // the last, zero-padded
    const T* rows = a.data + full_rows * a.row_stride + begin * a.col_stride;
    for (int64_t r = 0; r < kPanelRows; ++r) {
      for (int64_t d = 0; d < depth; ++d) {
        panel[d * kPanelRows + r] =
            full_rows + r < a.rows ? rows[r * a.row_stride + d * a.col_stride] : T(0);
      }
    }
  }
}

template <typename T>
void LeftOperand<T>::read_in_place(const StridedMatrix<T>& a) {
  ACCEL_CHECK(a.col_stride == 1, "packed_gemm",
              "a left operand read in place has unit-stride "
              "rows, got column stride {}",
              a.col_stride);
  in_place_ = true;
  rows_ = a.rows;
  depth_ = a.cols;
  matrix_ = a;
}

template <typename T>
LeftPanel<T> LeftOperand<T>::panel(int64_t depth_begin, int64_t block_depth, int64_t row) const {
  if (in_place_) return {matrix_.data + row * matrix_.row_stride + depth_begin, matrix_.row_stride};
  return {data_ + depth_begin * padded_rows_ + row * block_depth, 0};
}

namespace {

// The tile of `vectors` vectors for a first right panel of type Right, copying it or not, and a
// left operand read in place or packed.
template <typename T, typename Right>
auto tile_for(const LeftOperand<T>& a, int64_t vectors, bool copies) {
  using Tile = decltype(&multiply_tile<T, 1, false, false, Right>);
  static constexpr Tile kTiles[2][2][2] = {
      // [vectors - 1][copies][left in place]
      {{&multiply_tile<T, 1, false, false, Right>, &multiply_tile<T, 1, false, true, Right>},
       {&multiply_tile<T, 1, true, false, Right>, &multiply_tile<T, 1, true, true, Right>}},
      {{&multiply_tile<T, 2, false, false, Right>, &multiply_tile<T, 2, false, true, Right>},
       {&multiply_tile<T, 2, true, false, Right>, &multiply_tile<T, 2, true, true, Right>}}};
  return kTiles[vectors - 1][copies][a.in_place()];
}

// packed_gemm for a right operand of b_rows x n whose panels `panels` provides, for each depth
// block [begin, begin + depth): prepare() packs the panels the tiles will not and returns where
// the block's panels lie (column col's at col * depth from there), and in_place(begin, col)
// gives the panel at column col where it lies in the operand, for the first row panel to read
// and pack for the others, or nothing where prepare() packed it.
template <typename T, typename Panels>
void multiply_panels(const LeftOperand<T>& a, int64_t b_rows, int64_t n, T* out, int64_t out_stride,
                     bool accumulate, const Panels& panels) {
  constexpr int64_t width = kRightPanelWidth<T>;
  ACCEL_CHECK(b_rows == a.depth(), "packed_gemm", "depth {} of the left operand against {} rows",
              a.depth(), b_rows);
  const int64_t m = a.rows();
  if (a.depth() == 0 && !accumulate) {
    for (int64_t i = 0; i < m; ++i) std::fill_n(out + i * out_stride, n, T(0));
  }
  const int64_t block_depth = depth_block(a.depth());
  // Outputs that every depth block rereads, too many to stay in the L1 cache in between.
  const bool prefetch_out = block_depth < a.depth() && m * n * int64_t(sizeof(T)) > 32 * 1024;
  for (int64_t begin = 0; begin < a.depth(); begin += block_depth) {
    const int64_t depth = std::min(block_depth, a.depth() - begin);
    const bool add = accumulate || begin > 0;
    T* const packed = panels.prepare(begin, depth);
    for (int64_t col = 0; col < n; col += width) {
      T* panel = packed + col * depth;
      const int64_t cols = std::min(width, n - col);
      const int64_t panel_width = right_panel_width<T>(col, n), vectors = panel_width / kLanes<T>;
      int64_t row = 0;
      if (const auto in_place = panels.in_place(begin, col)) {
        // (With one row panel there are no others to pack for.)
        using Right = typename decltype(in_place)::value_type;
        tile_for<T, Right>(a, vectors, m > kPanelRows)(
            depth, a.panel(begin, depth, 0), *in_place, panel, out + col, out_stride,
            std::min(kPanelRows, m), cols, add, prefetch_out);
        row = kPanelRows;
      }
      const auto tile = tile_for<T, RowsInMemory<T>>(a, vectors, false);
      for (; row < m; row += kPanelRows) {
        tile(depth, a.panel(begin, depth, row), RowsInMemory<T>{panel, panel_width}, nullptr,
             out + row * out_stride + col, out_stride, std::min(kPanelRows, m - row), cols, add,
             prefetch_out);
      }
    }
  }
}

// Room for one depth block of a right operand's panels, n columns wide.
template <typename T>
T* block_buffer(PanelBuffer<T>& right, int64_t depth, int64_t n) {
  return right.reserve(depth_block(depth) * round_up(n, kRightPanelWidth<T>));
}

// A matrix with strided rows, packed one depth block at a time before the tiles read it.
template <typename T>
struct PackedBeforeTiles {
  const StridedMatrix<T>& b;
  T* buffer = nullptr;
  T* prepare(int64_t begin, int64_t depth) const {
    pack_right(b, begin, depth, buffer);
    return buffer;
  }
  std::optional<RowsInMemory<T>> in_place(int64_t, int64_t) const { return std::nullopt; }
};

// A matrix whose rows are unit-stride: its whole panels are read in place by the first row
// panel's tiles, which pack them for the others; a last, narrower panel is packed before.
template <typename T>
struct PackedByFirstRowPanel {
  const StridedMatrix<T>& b;
  T* buffer = nullptr;
  int64_t full_cols = b.cols / kRightPanelWidth<T> * kRightPanelWidth<T>;
  T* prepare(int64_t begin, int64_t depth) const {
    if (full_cols < b.cols) {
      pack_right<T>({b.data + full_cols, b.rows, b.cols - full_cols, b.row_stride, 1}, begin, depth,
                    buffer + full_cols * depth);
    }
    return buffer;
  }
  std::optional<RowsInMemory<T>> in_place(int64_t begin, int64_t col) const {
    if (col >= full_cols) return std::nullopt;
    return RowsInMemory<T>{b.data + begin * b.row_stride + col, b.row_stride};
  }
};

// Masked rows: every panel, a narrower last one too, read by the first row panel's tiles.
template <typename T>
struct MaskedByFirstRowPanel {
  const MaskedRows<T>& b;
  T* buffer = nullptr;
  T* prepare(int64_t, int64_t) const { return buffer; }
  std::optional<MaskedPanel<T>> in_place(int64_t begin, int64_t col) const {
    return MaskedPanel<T>{b.base, b.rows + begin, b.kept, col / kLanes<T>};
  }
};

// Columns of an operand packed before the product: nothing to pack, nothing read in place (so
// no tile copies into the panels, and handing them out writable is safe).
template <typename T>
struct PackedAhead {
  const PackedRight<T>& b;
  int64_t first;
  T* prepare(int64_t begin, int64_t depth) const {
    return const_cast<T*>(b.block(begin, depth, first));
  }
  std::optional<RowsInMemory<T>> in_place(int64_t, int64_t) const { return std::nullopt; }
};

}  // namespace

template <typename T>
void PackedRight<T>::pack(const StridedMatrix<T>& b) {
  rows_ = b.rows;
  cols_ = b.cols;
  padded_cols_ = round_up(b.cols, kRightPanelWidth<T>);
  data_ = panels_.reserve(rows_ * padded_cols_);
  const int64_t block_depth = depth_block(rows_);
  for (int64_t begin = 0; begin < rows_; begin += block_depth) {
    const int64_t depth = std::min(block_depth, rows_ - begin);
    pack_right(b, begin, depth, data_ + begin * padded_cols_);
  }
}

template <typename T>
void packed_gemm(const LeftOperand<T>& a, const StridedMatrix<T>& b, T* out, int64_t out_stride,
                 bool accumulate, PanelBuffer<T>& right) {
  T* buffer = block_buffer(right, b.rows, b.cols);
  if (b.col_stride != 1) {
    multiply_panels(a, b.rows, b.cols, out, out_stride, accumulate,
                    PackedBeforeTiles<T>{b, buffer});
    return;
  }
  multiply_panels(a, b.rows, b.cols, out, out_stride, accumulate,
                  PackedByFirstRowPanel<T>{b, buffer});
}

template <typename T>
void packed_gemm(const LeftOperand<T>& a, const MaskedRows<T>& b, T* out, int64_t out_stride,
                 bool accumulate, PanelBuffer<T>& right) {
  multiply_panels(a, b.row_count, b.cols, out, out_stride, accumulate,
                  MaskedByFirstRowPanel<T>{b, block_buffer(right, b.row_count, b.cols)});
}

template <typename T>
void packed_gemm(const LeftOperand<T>& a, const PackedRight<T>& b, int64_t first, int64_t cols,
                 T* out, int64_t out_stride, bool accumulate) {
  ACCEL_CHECK(first % kRightPanelWidth<T> == 0 && first + cols <= b.cols(), "packed_gemm",
              "columns [{}, {}) of a packed operand {} wide", first, first + cols, b.cols());
  multiply_panels(a, b.rows(), cols, out, out_stride, accumulate, PackedAhead<T>{b, first});
}

template class PanelBuffer<float>;
template class PanelBuffer<double>;
template class LeftOperand<float>;
template class LeftOperand<double>;
template class PackedRight<float>;
template class PackedRight<double>;
template void packed_gemm(const LeftOperand<float>&, const StridedMatrix<float>&, float*, int64_t,
                          bool, PanelBuffer<float>&);
template void packed_gemm(const LeftOperand<double>&, const StridedMatrix<double>&, double*,
                          int64_t, bool, PanelBuffer<double>&);
template void packed_gemm(const LeftOperand<float>&, const MaskedRows<float>&, float*, int64_t,
                          bool, PanelBuffer<float>&);
template void packed_gemm(const LeftOperand<double>&, const MaskedRows<double>&, double*, int64_t,
                          bool, PanelBuffer<double>&);
template void packed_gemm(const LeftOperand<float>&, const PackedRight<float>&, int64_t, int64_t,
                          float*, int64_t, bool);
template void packed_gemm(const LeftOperand<double>&, const PackedRight<double>&, int64_t, int64_t,
                          double*, int64_t, bool);

}  // namespace accel::cpu
