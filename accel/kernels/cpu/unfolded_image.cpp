// Packing an unfolded image (see unfolded_image.h). Row (channel c, tap kh, kw) of the columns
// reads plane c at position p + shift, shift = (kh·dilation_h - pad_h)·width + kw·dilation_w -
// pad_w: positions whose shifted index leaves the plane read padding (rows above and below),
// and so do the positions whose column wrapped around a row edge, zeroed after the copy.
#include "accel/kernels/cpu/unfolded_image.h"

#include <algorithm>
#include <vector>

#include "accel/base/error.h"
#include "accel/kernels/cpu/im2col.h"
#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {

namespace {

// One row of the columns: where it reads and which output columns read padding.
template <typename T>
struct UnfoldedRow {
  const T* plane;
  int64_t shift;                 // position p reads plane[p + shift]
  int64_t zero_begin, zero_end;  // output columns whose read wrapped around a row edge
};

}  // namespace

template <typename T>
UnfoldedImage<T>::UnfoldedImage(const ConvGeometry& g, const T* image)
    : RightOperand<T>(g.channels * g.kernel_h * g.kernel_w, g.out_h * g.out_w),
      g_(g),
      image_(image) {
  ACCEL_CHECK(rows_read_contiguously(g), "conv2d",
              "an unfolded image needs unit strides and output rows as wide as the input's");
}

template <typename T>
void UnfoldedImage<T>::pack(int64_t begin, int64_t depth, T* packed) const {
  constexpr int64_t L = simd::kLanes<T>;
  const int64_t w = g_.width, plane = g_.height * w, taps = g_.kernel_h * g_.kernel_w;
  const int64_t positions = this->cols();
  // The rows' geometry, worked out once per block rather than once per panel.
  thread_local std::vector<UnfoldedRow<T>> rows;
  rows.resize(static_cast<size_t>(depth));
  for (int64_t d = begin; d < begin + depth; ++d) {
    const int64_t tap = d % taps;
    const int64_t iw_offset = tap % g_.kernel_w * g_.dilation_w - g_.pad_w;
    const int64_t ih_offset = tap / g_.kernel_w * g_.dilation_h - g_.pad_h;
    rows[static_cast<size_t>(d - begin)] = {image_ + d / taps * plane, ih_offset * w + iw_offset,
                                            iw_offset < 0 ? 0 : std::max<int64_t>(w - iw_offset, 0),
                                            iw_offset < 0 ? std::min(-iw_offset, w) : w};
  }
  for (int64_t first = 0; first < positions; first += kRightPanelWidth<T>) {
    const int64_t width = right_panel_width<T>(first, positions);
    const int64_t cols = std::min(width, positions - first);
    const int64_t first_column = first % w;
    T* panel = packed + first * depth;
    for (int64_t r = 0; r < depth; ++r) {
      const UnfoldedRow<T>& row = rows[static_cast<size_t>(r)];
      const int64_t start = first + row.shift;
      T* out = panel + r * width;
      // Panel entries [inside_begin, inside_end) read inside the plane.
      const int64_t inside_begin = std::clamp<int64_t>(-start, 0, cols);
      const int64_t inside_end = std::clamp<int64_t>(plane - start, inside_begin, cols);
      if (inside_begin == 0 && inside_end == width) {
        for (int64_t v = 0; v < width; v += L)
          simd::store(out + v, simd::load(row.plane + start + v));
      } else {
        for (int64_t v = 0; v < width; v += L) simd::store(out + v, simd::Vector<T>{});
        std::copy(row.plane + start + inside_begin, row.plane + start + inside_end,
                  out + inside_begin);
      }
      for (int64_t column = row.zero_begin; column < row.zero_end; ++column) {
        int64_t i = column - first_column;  // the panel's first entry in that output column
        if (i < 0) i += w;
        for (; i < cols; i += w) out[i] = T(0);
      }
    }
  }
}

template class UnfoldedImage<float>;
template class UnfoldedImage<double>;

}  // namespace accel::cpu
