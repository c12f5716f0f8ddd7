// Padding on the CPU, an output row of the last axis at a time: the row reads one input row (its
// source along the first two axes), the part of it inside the input as one copy and the padded
// edges element by element. The backward adds each output row back into its input row in the
// same way, output rows in order, a plane per task, so every input element sums the outputs
// that read it in increasing order (the CUDA kernel's order).
#include "accel/kernels/cpu/pad.h"

#include <algorithm>
#include <cstring>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

namespace {

// The output positions of the last axis that lie inside the input, [first, end).
struct Inside {
  int64_t first, end;
};

Inside inside_of(const PadShape& s) {
  const int64_t first = std::clamp<int64_t>(s.before[2], 0, s.out(2));
  return {first, std::clamp<int64_t>(s.before[2] + s.in[2], first, s.out(2))};
}

// The input row (of the last axis, in elements from the plane's start) output row (a, b) reads.
int64_t source_row(const PadShape& s, int64_t a, int64_t b) {
  return (math::pad_source(a, s.in[0], s.before[0], s.kind) * s.in[1] +
          math::pad_source(b, s.in[1], s.before[1], s.kind)) *
         s.in[2];
}

}  // namespace

void pad(ScalarType dtype, const PadShape& s, const void* in, void* out) {
  dispatch_all(dtype, "pad", [&]<typename T>() {
    const int64_t out_rows = s.out(0) * s.out(1), out_width = s.out(2);
    const int64_t in_plane = s.in[0] * s.in[1] * s.in[2];
    const Inside inside = inside_of(s);
    const int64_t rows = s.planes * out_rows;
    parallel_for(0, rows, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(1, out_width)),
                 [&](int64_t begin, int64_t end) {
                   for (int64_t r = begin; r < end; ++r) {
                     const int64_t ab = r % out_rows;
                     const T* src = static_cast<const T*>(in) + r / out_rows * in_plane +
                                    source_row(s, ab / s.out(1), ab % s.out(1));
                     T* dst = static_cast<T*>(out) + r * out_width;
                     for (int64_t k = 0; k < inside.first; ++k) {
                       dst[k] = src[math::pad_source(k, s.in[2], s.before[2], s.kind)];
                     }
                     std::memcpy(dst + inside.first, src + (inside.first - s.before[2]),
                                 static_cast<size_t>(inside.end - inside.first) * sizeof(T));
                     for (int64_t k = inside.end; k < out_width; ++k) {
                       dst[k] = src[math::pad_source(k, s.in[2], s.before[2], s.kind)];
                     }
                   }
                 });
  });
}

void pad_backward(ScalarType dtype, const PadShape& s, const void* grad_out, void* grad_in) {
  dispatch_floating(dtype, "pad_backward", [&]<typename T>() {
    using A = acc_t<T>;
    const int64_t out_rows = s.out(0) * s.out(1), out_width = s.out(2);
    const int64_t in_plane = s.in[0] * s.in[1] * s.in[2];
    const Inside inside = inside_of(s);
    const auto add = [](T& to, T value) { to = static_cast<T>(A(to) + A(value)); };
    parallel_for(0, s.planes, 1, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        T* plane = static_cast<T*>(grad_in) + p * in_plane;
        std::fill(plane, plane + in_plane, T(0));
        for (int64_t ab = 0; ab < out_rows; ++ab) {
          T* to = plane + source_row(s, ab / s.out(1), ab % s.out(1));
          const T* g = static_cast<const T*>(grad_out) + (p * out_rows + ab) * out_width;
          for (int64_t k = 0; k < inside.first; ++k) {
            add(to[math::pad_source(k, s.in[2], s.before[2], s.kind)], g[k]);
          }
          T* middle = to + (inside.first - s.before[2]);
          for (int64_t k = inside.first; k < inside.end; ++k) add(middle[k - inside.first], g[k]);
          for (int64_t k = inside.end; k < out_width; ++k) {
            add(to[math::pad_source(k, s.in[2], s.before[2], s.kind)], g[k]);
          }
        }
      }
    });
  });
}

}  // namespace accel::cpu
