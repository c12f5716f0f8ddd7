// softmax and log_softmax along r of the [outer, reduced, inner] view on the GPU, forward and
// backward: the device twin of the softmax kernels in kernels/cpu/reduce.cpp, with the same
// formulas, so NaN and infinities give what they give there. Each line (o, :, i) is normalized
// by one team of threads (kernels/cuda/line_teams.cuh); each pass re-reads the line, which the
// earlier pass left in cache.
#include <cstdint>
#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/line_teams.cuh"
#include "accel/kernels/cuda/reduce.h"

namespace accel::cuda {

namespace {

// The maximum that propagates NaN, as the CPU's.
struct NanMax {
  template <typename C>
  __device__ C operator()(C a, C b) const {
    return (b > a || b != b) ? b : a;
  }
};

template <typename T, bool Log>
struct Normalize {
  const T* in;
  T* out;
  template <int kSize>
  __device__ void operator()(const Line& line, const Team<kSize>& team) const {
    using C = acc_t<T>;
    const Strided<const T> x = line.of(in);
    C m = -::cuda::std::numeric_limits<C>::infinity();
    for (int64_t r = team.rank(); r < line.length; r += kSize) {
      m = NanMax{}(m, static_cast<C>(x[r]));
    }
    m = team.combine(m, NanMax{});
    C total = 0;
    for (int64_t r = team.rank(); r < line.length; r += kSize) {
      total += ::cuda::std::exp(static_cast<C>(x[r]) - m);
    }
    total = team.combine(total, Plus{});
    const Strided<T> y = line.of(out);
    if constexpr (Log) {
      const C log_total = ::cuda::std::log(total);
      for (int64_t r = team.rank(); r < line.length; r += kSize) {
        y[r] = static_cast<T>((static_cast<C>(x[r]) - m) - log_total);
      }
    } else {
      const C scale = C(1) / total;
      for (int64_t r = team.rank(); r < line.length; r += kSize) {
        y[r] = static_cast<T>(::cuda::std::exp(static_cast<C>(x[r]) - m) * scale);
      }
    }
  }
};

// softmax: grad_in = out * (grad - sum(grad * out)); log_softmax: grad_in = grad - exp(out) *
// sum(grad).
template <typename T, bool Log>
struct NormalizeBackward {
  const T* grad;
  const T* out;
  T* grad_in;
  template <int kSize>
  __device__ void operator()(const Line& line, const Team<kSize>& team) const {
    using C = acc_t<T>;
    const Strided<const T> g = line.of(grad);
    const Strided<const T> y = line.of(out);
    C total = 0;
    for (int64_t r = team.rank(); r < line.length; r += kSize) {
      total += Log ? static_cast<C>(g[r]) : static_cast<C>(g[r]) * static_cast<C>(y[r]);
    }
    total = team.combine(total, Plus{});
    const Strided<T> dx = line.of(grad_in);
    for (int64_t r = team.rank(); r < line.length; r += kSize) {
      const C gr = static_cast<C>(g[r]);
      const C yr = static_cast<C>(y[r]);
      dx[r] = static_cast<T>(Log ? gr - ::cuda::std::exp(yr) * total : yr * (gr - total));
    }
  }
};

}  // namespace

void softmax(ScalarType type, const void* in, void* out, ReduceShape shape, bool log,
             const Stream& stream) {
  const char* op = log ? "log_softmax" : "softmax";
  dispatch_floating(type, op, [&]<typename T>() {
    const auto* x = static_cast<const T*>(in);
    auto* y = static_cast<T*>(out);
    if (log) {
      for_each_line(shape, Normalize<T, true>{x, y}, stream, op);
    } else {
      for_each_line(shape, Normalize<T, false>{x, y}, stream, op);
    }
  });
}

void softmax_backward(ScalarType type, const void* grad, const void* out, void* grad_in,
                      ReduceShape shape, bool log, const Stream& stream) {
  const char* op = log ? "log_softmax_backward" : "softmax_backward";
  dispatch_floating(type, op, [&]<typename T>() {
    const auto* g = static_cast<const T*>(grad);
    const auto* y = static_cast<const T*>(out);
    auto* dx = static_cast<T*>(grad_in);
    if (log) {
      for_each_line(shape, NormalizeBackward<T, true>{g, y, dx}, stream, op);
    } else {
      for_each_line(shape, NormalizeBackward<T, false>{g, y, dx}, stream, op);
    }
  });
}

}  // namespace accel::cuda
