// im2col and col2im on the GPU, the device twins of kernels/cpu/im2col.cpp over the same
// layouts and dtypes. im2col takes one thread per column entry; col2im one thread per pixel,
// which sums its column entries in the CPU's tap order: the CPU's bits, with no atomics.
#include "accel/base/error.h"
#include "accel/kernels/cuda/im2col.h"
#include "accel/kernels/cuda/launch.cuh"

namespace accel::cuda {

namespace {

// Column entry e of [channels * kernel_h * kernel_w, batch, out_h * out_w] reads image pixel
// (n, c, oh * stride_h - pad_h + kh * dilation_h, ow * stride_w - pad_w + kw * dilation_w), or
// padding (zero) where that lies outside the image.
template <typename T>
__global__ void im2col_kernel(ConvGeometry g, int64_t batch, const T* images, T* columns) {
  const int64_t entries = g.channels * g.kernel_h * g.kernel_w * batch * g.out_h * g.out_w;
  for (int64_t e = global_thread_index(); e < entries; e += grid_stride()) {
    int64_t rest = e;
    const int64_t ow = rest % g.out_w;
    rest /= g.out_w;
    const int64_t oh = rest % g.out_h;
    rest /= g.out_h;
    const int64_t n = rest % batch;
    rest /= batch;
    const int64_t kw = rest % g.kernel_w;
    rest /= g.kernel_w;
    const int64_t kh = rest % g.kernel_h;
    const int64_t c = rest / g.kernel_h;
    const int64_t ih = oh * g.stride_h - g.pad_h + kh * g.dilation_h;
    const int64_t iw = ow * g.stride_w - g.pad_w + kw * g.dilation_w;
    const bool inside = ih >= 0 && ih < g.height && iw >= 0 && iw < g.width;
    columns[e] = inside ? images[((n * g.channels + c) * g.height + ih) * g.width + iw] : T(0);
  }
}

// The CPU zeroes a plane, then adds tap by tap (kh, then kw) every column entry read from
// it. For one pixel and one tap there is at most one (oh, ow) that read it, so its terms
// arrive in tap order; this thread adds them in that order, starting from zero too.
template <typename T>
__global__ void col2im_kernel(ConvGeometry g, int64_t batch, const T* columns, T* images) {
  const int64_t pixels = batch * g.channels * g.height * g.width;
  const int64_t out_size = g.out_h * g.out_w;
  for (int64_t e = global_thread_index(); e < pixels; e += grid_stride()) {
    const int64_t iw = e % g.width, ih = (e / g.width) % g.height;
    const int64_t c = (e / (g.width * g.height)) % g.channels;
    const int64_t n = e / (g.width * g.height * g.channels);
    T sum = 0;
    for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
      const int64_t row = ih + g.pad_h - kh * g.dilation_h;  // oh * stride_h
      if (row < 0 || row % g.stride_h != 0 || row / g.stride_h >= g.out_h) continue;
      const int64_t oh = row / g.stride_h;
      for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
        const int64_t col = iw + g.pad_w - kw * g.dilation_w;  // ow * stride_w
        if (col < 0 || col % g.stride_w != 0 || col / g.stride_w >= g.out_w) continue;
        const int64_t ow = col / g.stride_w;
        const int64_t tap_row = (c * g.kernel_h + kh) * g.kernel_w + kw;
        sum += columns[(tap_row * batch + n) * out_size + oh * g.out_w + ow];
      }
    }
    images[e] = sum;
  }
}

// float32 and float64, as on the CPU (convolutions compute 16-bit floats in float32).
template <typename F>
void dispatch_conv_type(ScalarType dtype, const char* op, F&& f) {
  if (dtype == kFloat32) return f.template operator()<float>();
  ACCEL_CHECK(dtype == kFloat64, op, "expected float32 or float64, got {}", dtype);
  f.template operator()<double>();
}

}  // namespace

void im2col(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* images,
            void* columns, const Stream& stream) {
  dispatch_conv_type(dtype, "im2col", [&]<typename T>() {
    const int64_t entries = g.channels * g.kernel_h * g.kernel_w * batch * g.out_h * g.out_w;
    if (entries == 0) return;
    im2col_kernel<T><<<blocks_for(entries), kThreadsPerBlock, 0, launch_stream(stream)>>>(
        g, batch, static_cast<const T*>(images), static_cast<T*>(columns));
    check_launch("im2col");
  });
}

void col2im(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* columns,
            void* images, const Stream& stream) {
  dispatch_conv_type(dtype, "col2im", [&]<typename T>() {
    const int64_t pixels = batch * g.channels * g.height * g.width;
    if (pixels == 0) return;
    col2im_kernel<T><<<blocks_for(pixels), kThreadsPerBlock, 0, launch_stream(stream)>>>(
        g, batch, static_cast<const T*>(columns), static_cast<T*>(images));
    check_launch("col2im");
  });
}

}  // namespace accel::cuda
