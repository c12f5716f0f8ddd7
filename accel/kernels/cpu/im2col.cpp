// im2col / col2im loops. Each (image, channel) plane is handled by one thread, and col2im adds
// a pixel's column entries in tap order, so results do not depend on the thread count. Per
// output row the in-bounds span is computed once: padding is filled or skipped as a block and
// the span is copied (a memcpy at stride 1), with no test per element.
#include "accel/kernels/cpu/im2col.h"

#include <algorithm>
#include <cstring>

#include "accel/base/error.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

namespace {

// The outputs o in [begin, end) whose input coordinate o * stride + offset lies in [0, size).
struct Span {
  int64_t begin, end;
};

Span inside(int64_t outputs, int64_t size, int64_t stride, int64_t offset) {
  const int64_t begin = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  const int64_t last = size - 1 - offset;
  const int64_t end = last < 0 ? 0 : std::min(outputs, last / stride + 1);
  return {std::min(begin, end), end};
}

// Calls row(tap, oh, ih, iw_offset, span) for every (tap, output row) of a plane: output row
// oh of tap = kh * kernel_w + kw reads input row ih at columns ow * stride_w + iw_offset for
// ow in span, and padding elsewhere (everywhere, with an empty span, when ih is outside). Written
// once so that im2col and col2im walk exactly the same correspondence.
template <typename F>
void for_each_row(const ConvGeometry& g, F&& row) {
  for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
    for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
      const int64_t iw_offset = kw * g.dilation_w - g.pad_w;
      const Span span = inside(g.out_w, g.width, g.stride_w, iw_offset);
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        const int64_t ih = oh * g.stride_h - g.pad_h + kh * g.dilation_h;
        const bool row_inside = ih >= 0 && ih < g.height;
        row(kh * g.kernel_w + kw, oh, row_inside ? ih : -1, iw_offset,
            row_inside ? span : Span{0, 0});
      }
    }
  }
}

// Runs plane(image, channel) over batch * channels planes in parallel.
template <typename F>
void for_each_plane(const ConvGeometry& g, int64_t batch, F&& plane) {
  const int64_t work_per_plane = g.kernel_h * g.kernel_w * g.out_h * g.out_w;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, work_per_plane));
  parallel_for(0, batch * g.channels, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) plane(p / g.channels, p % g.channels);
  });
}

template <typename T>
void unfold_contiguous_plane(const ConvGeometry& g, const T* in, T* cols, int64_t tap_stride) {
  const int64_t w = g.width, size = g.out_h * w;
  for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
    const int64_t ih_offset = kh * g.dilation_h - g.pad_h;
    const Span rows = inside(g.out_h, g.height, 1, ih_offset);
    for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
      const int64_t iw_offset = kw * g.dilation_w - g.pad_w;
      const Span span = inside(g.out_w, w, 1, iw_offset);
      T* dst = cols + (kh * g.kernel_w + kw) * tap_stride;
      if (rows.begin == rows.end || span.begin == span.end) {
        std::fill(dst, dst + size, T(0));
        continue;
      }
      const int64_t first = rows.begin * w + span.begin, last = (rows.end - 1) * w + span.end;
      std::fill(dst, dst + first, T(0));
      std::copy(in + first + ih_offset * w + iw_offset, in + last + ih_offset * w + iw_offset,
                dst + first);
      std::fill(dst + last, dst + size, T(0));
      // Column by column: a pad is a column or two, too short per row for a fill call.
      const auto zero_column = [&](int64_t ow) {
        for (int64_t oh = rows.begin; oh < rows.end; ++oh) dst[oh * w + ow] = T(0);
      };
      for (int64_t ow = 0; ow < span.begin; ++ow) zero_column(ow);
      for (int64_t ow = span.end; ow < w; ++ow) zero_column(ow);
    }
  }
}

template <typename T>
void im2col_typed(const ConvGeometry& g, int64_t batch, const T* images, T* columns) {
  const int64_t out_size = g.out_h * g.out_w, taps = g.kernel_h * g.kernel_w;
  for_each_plane(g, batch, [&](int64_t n, int64_t c) {
    const T* in = images + (n * g.channels + c) * g.height * g.width;
    T* cols = columns + c * taps * batch * out_size + n * out_size;
    if (rows_read_contiguously(g)) return unfold_contiguous_plane(g, in, cols, batch * out_size);
    for_each_row(g, [&](int64_t tap, int64_t oh, int64_t ih, int64_t iw_offset, Span span) {
      T* dst = cols + tap * batch * out_size + oh * g.out_w;
      std::fill(dst, dst + span.begin, T(0));
      std::fill(dst + span.end, dst + g.out_w, T(0));
      const int64_t count = span.end - span.begin;
      if (count == 0) return;
      const T* src = in + ih * g.width + span.begin * g.stride_w + iw_offset;
      dst += span.begin;
      if (g.stride_w == 1) {
        std::memcpy(dst, src, count * sizeof(T));
      } else {
        for (int64_t i = 0; i < count; ++i) dst[i] = src[i * g.stride_w];
      }
    });
  });
}

template <typename T>
void col2im_typed(const ConvGeometry& g, int64_t batch, const T* columns, T* images) {
  const int64_t out_size = g.out_h * g.out_w, taps = g.kernel_h * g.kernel_w;
  for_each_plane(g, batch, [&](int64_t n, int64_t c) {
    T* out = images + (n * g.channels + c) * g.height * g.width;
    const T* cols = columns + c * taps * batch * out_size + n * out_size;
    std::fill(out, out + g.height * g.width, T(0));
    for_each_row(g, [&](int64_t tap, int64_t oh, int64_t ih, int64_t iw_offset, Span span) {
      const int64_t count = span.end - span.begin;
      if (count == 0) return;
      const T* src = cols + tap * batch * out_size + oh * g.out_w + span.begin;
      T* dst = out + ih * g.width + span.begin * g.stride_w + iw_offset;
      if (g.stride_w == 1) {
        for (int64_t i = 0; i < count; ++i) dst[i] += src[i];
      } else {
        for (int64_t i = 0; i < count; ++i) dst[i * g.stride_w] += src[i];
      }
    });
  });
}

}  // namespace

bool rows_read_contiguously(const ConvGeometry& g) {
  return g.stride_h == 1 && g.stride_w == 1 && g.out_w == g.width;
}

void im2col(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* images,
            void* columns) {
  if (dtype == kFloat32) {
    im2col_typed(g, batch, static_cast<const float*>(images), static_cast<float*>(columns));
  } else {
    ACCEL_CHECK(dtype == kFloat64, "im2col", "expected float32 or float64, got {}", dtype);
    im2col_typed(g, batch, static_cast<const double*>(images), static_cast<double*>(columns));
  }
}

void col2im(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* columns,
            void* images) {
  if (dtype == kFloat32) {
    col2im_typed(g, batch, static_cast<const float*>(columns), static_cast<float*>(images));
  } else {
    ACCEL_CHECK(dtype == kFloat64, "col2im", "expected float32 or float64, got {}", dtype);
    col2im_typed(g, batch, static_cast<const double*>(columns), static_cast<double*>(images));
  }
}

}  // namespace accel::cpu
