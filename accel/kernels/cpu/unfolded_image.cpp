// Unfolding an image (see unfolded_image.h). Row (channel c, tap kh, kw) of the columns reads
// plane c at position p + shift, shift = (kh·dilation_h - pad_h)·width + kw·dilation_w - pad_w.
// A position whose input row lies above or below the plane reads the zero gap before or after
// it; one whose input column lies left or right of the plane reads a real pixel of the row
// before or after, which the tap's lane mask clears (and clears whole: a NaN there is no NaN in
// the columns). The masks also clear the lanes past the last position.
#include "accel/kernels/cpu/unfolded_image.h"

#include <algorithm>
#include <cstdlib>

#include "accel/base/error.h"
#include "accel/kernels/cpu/im2col.h"

namespace accel::cpu {

template <typename T>
UnfoldedImage<T>::UnfoldedImage(const ConvGeometry& g)
    : positions_(g.out_h * g.out_w), channels_(g.channels), plane_(g.height * g.width) {
  ACCEL_CHECK(rows_read_contiguously(g), "conv2d",
              "an unfolded image needs unit strides and output rows as wide as the input's");
  constexpr int64_t L = simd::kLanes<T>;
  const int64_t w = g.width;
  vectors_per_row_ = (positions_ + L - 1) / L;
  std::vector<MaskedRow> taps;  // per tap: its shift (as `source`, made absolute below) and masks
  int64_t farthest_shift = 0;
  for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
    for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
      const int64_t shift = (kh * g.dilation_h - g.pad_h) * w + kw * g.dilation_w - g.pad_w;
      taps.push_back({shift, kw * vectors_per_row_});
      farthest_shift = std::max(farthest_shift, std::abs(shift));
    }
  }
  // Reads reach from -farthest_shift to the last vector's end plus farthest_shift.
  gap_ = farthest_shift + std::max<int64_t>(0, row_stride() - plane_);
  plane_stride_ = plane_ + gap_;
  for (int64_t c = 0; c < g.channels; ++c) {
    for (const MaskedRow& tap : taps)
      rows_.push_back({gap_ + c * plane_stride_ + tap.source, tap.kept});
  }
  const int64_t size = gap_ + g.channels * plane_stride_;
  planes_ = buffer_.reserve(size);
  std::fill_n(planes_, size, T(0));
  kept_.resize(static_cast<size_t>(g.kernel_w * vectors_per_row_));
  for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
    const int64_t iw_offset = kw * g.dilation_w - g.pad_w;
    for (int64_t v = 0; v < vectors_per_row_; ++v) {
      simd::LaneMask<T>& kept = kept_[static_cast<size_t>(kw * vectors_per_row_ + v)];
      for (int64_t lane = 0; lane < L; ++lane) {
        const int64_t position = v * L + lane, iw = position % w + iw_offset;
        kept[lane] = position < positions_ && iw >= 0 && iw < w ? -1 : 0;
      }
    }
  }
}

template <typename T>
void UnfoldedImage<T>::set_image(const T* image) {
  for (int64_t c = 0; c < channels_; ++c)
    std::copy_n(image + c * plane_, plane_, planes_ + gap_ + c * plane_stride_);
}

template <typename T>
MaskedRows<T> UnfoldedImage<T>::columns() const {
  return {planes_, rows_.data(), kept_.data(), static_cast<int64_t>(rows_.size()), positions_};
}

template <typename T>
void UnfoldedImage<T>::unfold(T* out) const {
  constexpr int64_t L = simd::kLanes<T>;
  const int64_t vectors = vectors_per_row_, count = static_cast<int64_t>(rows_.size());
  const T* planes = planes_;
  const MaskedRow* rows = rows_.data();
  const simd::LaneMask<T>* kept = kept_.data();
  for (int64_t r = 0; r < count; ++r) {
    const T* source = planes + rows[r].source;
    const simd::LaneMask<T>* row_kept = kept + rows[r].kept;
    T* row = out + r * vectors * L;
    for (int64_t v = 0; v < vectors; ++v)
      simd::store(row + v * L, simd::keep_lanes<T>(simd::load(source + v * L), row_kept[v]));
  }
}

template class UnfoldedImage<float>;
template class UnfoldedImage<double>;

}  // namespace accel::cpu
