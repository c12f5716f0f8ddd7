// im2col / col2im loops. Each (image, channel) plane is handled by one thread, so col2im's
// overlapping sums add in a fixed order and results do not depend on the thread count.
#include "accel/kernels/cpu/im2col.h"

#include <algorithm>

#include "accel/core/error.h"
#include "accel/core/parallel.h"

namespace accel::cpu {

namespace {

// Calls f(pixel, column_entry) for every column entry of one (image, channel) plane, pixel
// being the offset of the input pixel it reads, or -1 where it reads padding. Written once so
// im2col and col2im walk exactly the same correspondence.
template <typename F>
void for_each_tap(const ConvGeometry& g, F&& f) {
  const int64_t out_size = g.out_h * g.out_w;
  for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
    for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
      const int64_t row = (kh * g.kernel_w + kw) * out_size;
      for (int64_t oh = 0; oh < g.out_h; ++oh) {
        const int64_t ih = oh * g.stride_h - g.pad_h + kh * g.dilation_h;
        const bool row_inside = ih >= 0 && ih < g.height;
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          const int64_t iw = ow * g.stride_w - g.pad_w + kw * g.dilation_w;
          const bool inside = row_inside && iw >= 0 && iw < g.width;
          f(inside ? ih * g.width + iw : -1, row + oh * g.out_w + ow);
        }
      }
    }
  }
}

// Runs plane(image_plane_index) over batch * channels planes in parallel.
template <typename F>
void for_each_plane(const ConvGeometry& g, int64_t batch, F&& plane) {
  const int64_t work_per_plane = g.kernel_h * g.kernel_w * g.out_h * g.out_w;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, work_per_plane));
  parallel_for(0, batch * g.channels, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) plane(p);
  });
}

template <typename T>
void im2col_typed(const ConvGeometry& g, int64_t batch, const T* images, T* columns) {
  const int64_t plane_in = g.height * g.width;
  const int64_t plane_cols = g.kernel_h * g.kernel_w * g.out_h * g.out_w;
  for_each_plane(g, batch, [&](int64_t p) {
    const T* in = images + p * plane_in;
    T* cols = columns + p * plane_cols;
    for_each_tap(g, [&](int64_t src, int64_t dst) { cols[dst] = src >= 0 ? in[src] : T(0); });
  });
}

template <typename T>
void col2im_typed(const ConvGeometry& g, int64_t batch, const T* columns, T* images) {
  const int64_t plane_in = g.height * g.width;
  const int64_t plane_cols = g.kernel_h * g.kernel_w * g.out_h * g.out_w;
  for_each_plane(g, batch, [&](int64_t p) {
    T* out = images + p * plane_in;
    const T* cols = columns + p * plane_cols;
    std::fill(out, out + plane_in, T(0));
    for_each_tap(g, [&](int64_t dst, int64_t src) {
      if (dst >= 0) out[dst] += cols[src];
    });
  });
}

}  // namespace

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
