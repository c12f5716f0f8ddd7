// Copy with conversion (kernels/common/convert.h's rule) and fill, over strided CPU loops; a
// same-dtype contiguous copy is a memcpy, and a same-dtype transpose goes tile by tile.
#include "accel/kernels/cpu/copy.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/convert.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/simd_vector.h"

namespace accel::cpu {

namespace {

// Whether the loop is a same-dtype 2-D copy whose output rows are contiguous and whose input is
// contiguous down the output's columns: a transpose (x.t().contiguous(), a permuted copy),
// whose element-by-element walk would read each element from another cache line.
bool is_transpose(ScalarType out_type, ScalarType in_type, const Loop<2>& loop) {
  const int64_t bytes = element_size(out_type);
  return out_type == in_type && loop.ndim == 2 && loop.numel > 0 && loop.strides[0][0] == bytes &&
         loop.strides[1][1] == bytes && loop.strides[1][0] % bytes == 0 &&
         loop.strides[0][1] % bytes == 0;
}

// out[r, c] = in[c, r] in 8 x 8 tiles (simd::transpose), each read as eight runs of the input
// and written as eight runs of the output. Larger tiles lose to the cache's associativity: with
// power-of-two row lengths their rows all map to the same cache set. Threads take bands of
// eight output rows.
template <typename T>
void transpose(const Loop<2>& loop) {
  constexpr int64_t kTile = 8;
  const int64_t cols = loop.sizes[0];
  const int64_t rows = loop.sizes[1];
  const int64_t out_row_stride = loop.strides[0][1] / static_cast<int64_t>(sizeof(T));
  const int64_t in_col_stride = loop.strides[1][0] / static_cast<int64_t>(sizeof(T));
  T* const out = reinterpret_cast<T*>(loop.data[0]);
  const T* const in = reinterpret_cast<const T*>(loop.data[1]);
  const int64_t bands = (rows + kTile - 1) / kTile;
  parallel_for(0, bands, std::max<int64_t>(1, kElementwiseGrain / (kTile * cols)),
               [&](int64_t first, int64_t last) {
                 for (int64_t band = first; band < last; ++band) {
                   const int64_t r0 = band * kTile, band_rows = std::min(kTile, rows - r0);
                   simd::transpose(in + r0, cols, band_rows, in_col_stride,
                                   out + r0 * out_row_stride, out_row_stride);
                 }
               });
}

// The unsigned integer type of `bytes` bytes: a transpose moves bits, whatever the dtype.
template <typename F>
void with_element_bits(int64_t bytes, F&& f) {
  switch (bytes) {
    case 1:
      return f.template operator()<uint8_t>();
    case 2:
      return f.template operator()<uint16_t>();
    case 4:
      return f.template operator()<uint32_t>();
    default:
      return f.template operator()<uint64_t>();
  }
}

}  // namespace

void copy(ScalarType out_type, ScalarType in_type, const Loop<2>& loop) {
  if (out_type == in_type && loop.ndim <= 1 && loop.inner_stride(0) == element_size(out_type) &&
      loop.inner_stride(1) == element_size(in_type)) {
    const int64_t bytes = element_size(out_type);
    run(loop, [&](const std::array<char*, 2>& ptrs, const std::array<int64_t, 2>&, int64_t n) {
      std::memcpy(ptrs[0], ptrs[1], static_cast<size_t>(n * bytes));
    });
    return;
  }
  if (is_transpose(out_type, in_type, loop)) {
    with_element_bits(element_size(out_type), [&]<typename Bits>() { transpose<Bits>(loop); });
    return;
  }
  dispatch_all(out_type, "copy", [&]<typename Out>() {
    dispatch_all(in_type, "copy", [&]<typename In>() {
      map_elements<Out, In>(loop, [](In v) { return math::convert<Out, In>(v); });
    });
  });
}

void fill(ScalarType type, const Loop<1>& loop, const void* value) {
  dispatch_all(type, "fill", [&]<typename T>() {
    T v;
    std::memcpy(&v, value, sizeof(T));
    run(loop,
        [&](const std::array<char*, 1>& ptrs, const std::array<int64_t, 1>& strides, int64_t n) {
          if (strides[0] == sizeof(T)) {
            T* out = reinterpret_cast<T*>(ptrs[0]);
            for (int64_t i = 0; i < n; ++i) out[i] = v;
          } else {
            for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(ptrs[0] + i * strides[0]) = v;
          }
        });
  });
}

}  // namespace accel::cpu
