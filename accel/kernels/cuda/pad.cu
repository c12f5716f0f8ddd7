// Padding on the GPU: the forward is one thread per output element reading its source; the
// backward one thread per input element, summing the outputs that read it (the runs of
// math::pad_readers along each axis, nested so they come in increasing order) with the CPU's
// rounding after each addition, which gives the CPU's bits without atomics.
#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/pad.h"

namespace accel::cuda {

namespace {

template <typename T>
__global__ void pad_kernel(PadShape s, const T* in, T* out) {
  const int64_t o2 = s.out(2), o1 = s.out(1), o0 = s.out(0);
  const int64_t n = s.planes * o0 * o1 * o2;
  for (int64_t e = global_thread_index(); e < n; e += grid_stride()) {
    const int64_t k = e % o2, b = e / o2 % o1, a = e / (o2 * o1) % o0, p = e / (o2 * o1 * o0);
    const int64_t x0 = math::pad_source(a, s.in[0], s.before[0], s.kind);
    const int64_t x1 = math::pad_source(b, s.in[1], s.before[1], s.kind);
    const int64_t x2 = math::pad_source(k, s.in[2], s.before[2], s.kind);
    out[e] = in[((p * s.in[0] + x0) * s.in[1] + x1) * s.in[2] + x2];
  }
}

template <typename T>
__global__ void pad_backward_kernel(PadShape s, const T* grad_out, T* grad_in) {
  using A = acc_t<T>;
  const int64_t o2 = s.out(2), o1 = s.out(1), o0 = s.out(0);
  const int64_t n = s.planes * s.in[0] * s.in[1] * s.in[2];
  for (int64_t e = global_thread_index(); e < n; e += grid_stride()) {
    const int64_t x2 = e % s.in[2], x1 = e / s.in[2] % s.in[1];
    const int64_t x0 = e / (s.in[2] * s.in[1]) % s.in[0], p = e / (s.in[2] * s.in[1] * s.in[0]);
    PadRange runs0[3], runs1[3], runs2[3];
    const int n0 = math::pad_readers(x0, s.in[0], s.before[0], s.after[0], s.kind, runs0);
    const int n1 = math::pad_readers(x1, s.in[1], s.before[1], s.after[1], s.kind, runs1);
    const int n2 = math::pad_readers(x2, s.in[2], s.before[2], s.after[2], s.kind, runs2);
    const T* plane = grad_out + p * o0 * o1 * o2;
    T total = T(0);
    for (int i0 = 0; i0 < n0; ++i0) {
      for (int64_t a = runs0[i0].first; a < runs0[i0].end; ++a) {
        for (int i1 = 0; i1 < n1; ++i1) {
          for (int64_t b = runs1[i1].first; b < runs1[i1].end; ++b) {
            const T* row = plane + (a * o1 + b) * o2;
            for (int i2 = 0; i2 < n2; ++i2) {
              for (int64_t k = runs2[i2].first; k < runs2[i2].end; ++k) {
                total = static_cast<T>(A(total) + A(row[k]));
              }
            }
          }
        }
      }
    }
    grad_in[e] = total;
  }
}

}  // namespace

void pad(ScalarType dtype, const PadShape& s, const void* in, void* out, const Stream& stream) {
  const int64_t n = s.planes * s.out(0) * s.out(1) * s.out(2);
  dispatch_all(dtype, "pad", [&]<typename T>() {
    if (n == 0) return;
    pad_kernel<T><<<blocks_for(n), kThreadsPerBlock, 0, launch_stream(stream)>>>(
        s, static_cast<const T*>(in), static_cast<T*>(out));
    check_launch("pad");
  });
}

void pad_backward(ScalarType dtype, const PadShape& s, const void* grad_out, void* grad_in,
                  const Stream& stream) {
  for_floating(dtype, "pad_backward", s.planes * s.in[0] * s.in[1] * s.in[2], stream,
               [&]<typename T>(unsigned blocks, cudaStream_t cs) {
                 pad_backward_kernel<T><<<blocks, kThreadsPerBlock, 0, cs>>>(
                     s, static_cast<const T*>(grad_out), static_cast<T*>(grad_in));
               });
}

}  // namespace accel::cuda
