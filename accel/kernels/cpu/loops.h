// Element-wise iteration over N strided operands of one shape (operand 0 is the output).
// Geometry is in bytes, so the walk is independent of dtype. Dimensions are coalesced
// (merged where memory allows) and ordered so the innermost loop is the longest contiguous
// run; kernels then see plain 1-D loops `inner(ptrs, strides, n)`, with a contiguous fast
// path the compiler vectorizes (streaming its stores when the output is far beyond cache). Work
// above kElementwiseGrain elements is split across threads by linear index, so results never depend
// on the thread count.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <utility>

#include "accel/core/int_array_ref.h"
#include "accel/core/parallel.h"
#include "accel/kernels/cpu/streaming_store.h"

namespace accel::cpu {

inline constexpr int kMaxLoopDims = 16;

template <int N>
struct Loop {
  // Only the first ndim entries of sizes and strides are set: the arrays are left
  // uninitialized, since clearing them costs a small op as much as its arithmetic.
  int ndim = 0;
  int64_t sizes[kMaxLoopDims];       // innermost first
  int64_t strides[N][kMaxLoopDims];  // bytes, innermost first
  std::array<char*, N> data = {};
  int64_t numel = 1;

  // sizes: the common shape; strides[k]: operand k's element strides for that shape (0 on
  // broadcast dims); element_sizes[k]: its bytes per element.
  Loop(IntArrayRef shape, std::array<char*, N> data_, std::array<IntArrayRef, N> element_strides,
       std::array<int64_t, N> element_sizes)
      : data(data_) {
    const int nd = static_cast<int>(shape.size());
    // Reverse into innermost-first order, dropping size-1 dims.
    for (int d = nd - 1; d >= 0; --d) {
      if (shape[d] == 1) continue;
      sizes[ndim] = shape[d];
      for (int k = 0; k < N; ++k) strides[k][ndim] = element_strides[k][d] * element_sizes[k];
      ++ndim;
    }
    for (int d = 0; d < ndim; ++d) numel *= sizes[d];
    coalesce();
  }

  // Merges dim d+1 into d where every operand steps through them as one.
  void coalesce() {
    if (ndim < 2) return;
    int out = 0;
    for (int d = 1; d < ndim; ++d) {
      bool mergeable = true;
      for (int k = 0; k < N; ++k) {
        if (strides[k][d] != strides[k][out] * sizes[out]) mergeable = false;
      }
      if (mergeable) {
        sizes[out] *= sizes[d];
      } else {
        ++out;
        sizes[out] = sizes[d];
        for (int k = 0; k < N; ++k) strides[k][out] = strides[k][d];
      }
    }
    ndim = out + 1;
  }

  int64_t inner_size() const { return ndim == 0 ? 1 : sizes[0]; }
  int64_t inner_stride(int k) const { return ndim == 0 ? 0 : strides[k][0]; }

  // Calls inner(ptrs, strides, n) for runs of the innermost dim covering linear elements
  // [begin, end) in row-major order of the (coalesced) shape.
  template <typename Inner>
  void run_range(int64_t begin, int64_t end, Inner& inner) const {
    const int64_t inner_n = inner_size();
    std::array<int64_t, N> inner_strides;
    for (int k = 0; k < N; ++k) inner_strides[k] = inner_stride(k);
    std::array<char*, N> ptrs;
    if (ndim <= 1) {  // one run: no index arithmetic
      for (int k = 0; k < N; ++k) ptrs[k] = data[k] + begin * inner_strides[k];
      inner(ptrs, inner_strides, end - begin);
      return;
    }
    int64_t index[kMaxLoopDims];
    int64_t rest = begin;
    for (int d = 0; d < ndim; ++d) {
      index[d] = rest % sizes[d];
      rest /= sizes[d];
    }
    for (int k = 0; k < N; ++k) {
      ptrs[k] = data[k];
      for (int d = 0; d < ndim; ++d) ptrs[k] += index[d] * strides[k][d];
    }
    int64_t done = begin;
    while (done < end) {
      const int64_t n = std::min(inner_n - (ndim == 0 ? 0 : index[0]), end - done);
      inner(ptrs, inner_strides, n);
      done += n;
      if (done >= end) break;
      // Advance: the inner dim is exhausted, carry into outer dims.
      for (int k = 0; k < N; ++k) ptrs[k] += n * inner_strides[k];
      index[0] += n;
      for (int d = 0; d < ndim - 1 && index[d] == sizes[d]; ++d) {
        for (int k = 0; k < N; ++k) {
          ptrs[k] += strides[k][d + 1] - sizes[d] * strides[k][d];
        }
        index[d] = 0;
        index[d + 1]++;
      }
    }
  }

  template <typename Inner>
  void run(Inner inner, int64_t grain = kElementwiseGrain) const {
    if (numel == 0) return;
    parallel_for(0, numel, grain,
                 [&](int64_t begin, int64_t end) { run_range(begin, end, inner); });
  }
};

// Applies out = f(in...) element-wise for operands of types Out and In..., taking a
// vectorizable path when every inner stride equals its element size and, for two inputs,
// when one of them is a broadcast scalar (inner stride 0: tensor-scalar ops).
template <typename Out, typename... In, typename F>
void map_elements(const Loop<1 + sizeof...(In)>& loop, F f) {
  constexpr int N = 1 + sizeof...(In);
  loop.run([&](const std::array<char*, N>& ptrs, const std::array<int64_t, N>& strides, int64_t n) {
    [&]<size_t... I>(std::index_sequence<I...>) {
      Out* out = reinterpret_cast<Out*>(ptrs[0]);
      std::tuple<const In*...> in{reinterpret_cast<const In*>(ptrs[I + 1])...};
      const bool out_contiguous = strides[0] == sizeof(Out);
      if (out_contiguous && ((strides[I + 1] == sizeof(In)) && ...)) {
        if (n * static_cast<int64_t>(sizeof(Out)) >= kStreamingOutputBytes) {
          stream_elements(out, n, [&](int64_t i) { return f(std::get<I>(in)[i]...); });
          return;
        }
        for (int64_t i = 0; i < n; ++i) out[i] = f(std::get<I>(in)[i]...);
        return;
      }
      if constexpr (N == 3) {
        using A = std::tuple_element_t<0, std::tuple<In...>>;
        using B = std::tuple_element_t<1, std::tuple<In...>>;
        const A* a = std::get<0>(in);
        const B* b = std::get<1>(in);
        if (out_contiguous && strides[1] == sizeof(A) && strides[2] == 0) {
          const B bv = *b;
          for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], bv);
          return;
        }
        if (out_contiguous && strides[1] == 0 && strides[2] == sizeof(B)) {
          const A av = *a;
          for (int64_t i = 0; i < n; ++i) out[i] = f(av, b[i]);
          return;
        }
      }
      for (int64_t i = 0; i < n; ++i) {
        *reinterpret_cast<Out*>(ptrs[0] + i * strides[0]) =
            f(*reinterpret_cast<const In*>(ptrs[I + 1] + i * strides[I + 1])...);
      }
    }
    (std::index_sequence_for<In...>{});
  });
}

}  // namespace accel::cpu
