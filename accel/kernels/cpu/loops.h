// The CPU runner of element-wise loops (kernels/common/loop.h): kernels see plain 1-D loops
// `inner(ptrs, strides, n)` over runs of the innermost dim, with a contiguous fast path the
// compiler vectorizes (streaming its stores when the output is far beyond cache). Work above
// kElementwiseGrain elements is split across threads by linear index, so results never
// depend on the thread count.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "accel/kernels/common/loop.h"
#include "accel/kernels/cpu/math_vector.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/streaming_store.h"

namespace accel::cpu {

// Calls inner(ptrs, strides, n) for runs of the innermost dim covering linear elements
// [begin, end) in row-major order of the (coalesced) shape.
template <int N, typename Inner>
void run_range(const Loop<N>& loop, int64_t begin, int64_t end, Inner& inner) {
  const int ndim = loop.ndim;
  const int64_t inner_n = loop.inner_size();
  std::array<int64_t, N> inner_strides;
  for (int k = 0; k < N; ++k) inner_strides[k] = loop.inner_stride(k);
  std::array<char*, N> ptrs;
  if (ndim <= 1) {  // one run: no index arithmetic
    for (int k = 0; k < N; ++k) ptrs[k] = loop.data[k] + begin * inner_strides[k];
    inner(ptrs, inner_strides, end - begin);
    return;
  }
  int64_t index[kMaxLoopDims];
  int64_t rest = begin;
  for (int d = 0; d < ndim; ++d) {
    index[d] = rest % loop.sizes[d];
    rest /= loop.sizes[d];
  }
  for (int k = 0; k < N; ++k) {
    ptrs[k] = loop.data[k];
    for (int d = 0; d < ndim; ++d) ptrs[k] += index[d] * loop.strides[k][d];
  }
  int64_t done = begin;
  while (done < end) {
    const int64_t n = std::min(inner_n - index[0], end - done);
    inner(ptrs, inner_strides, n);
    done += n;
    if (done >= end) break;
    // Advance: the inner dim is exhausted, carry into outer dims.
    for (int k = 0; k < N; ++k) ptrs[k] += n * inner_strides[k];
    index[0] += n;
    for (int d = 0; d < ndim - 1 && index[d] == loop.sizes[d]; ++d) {
      for (int k = 0; k < N; ++k) {
        ptrs[k] += loop.strides[k][d + 1] - loop.sizes[d] * loop.strides[k][d];
      }
      index[d] = 0;
      index[d + 1]++;
    }
  }
}

// Runs the whole loop, split across threads above `grain` elements.
template <int N, typename Inner>
void run(const Loop<N>& loop, Inner inner, int64_t grain = kElementwiseGrain) {
  if (loop.numel == 0) return;
  parallel_for(0, loop.numel, grain,
               [&](int64_t begin, int64_t end) { run_range(loop, begin, end, inner); });
}

// Applies out = f(in...) element-wise for operands of types Out and In..., taking a
// vectorizable path when every inner stride equals its element size and, for two inputs,
// when one of them is a broadcast scalar (inner stride 0: tensor-scalar ops).
template <typename Out, typename... In, typename F>
void map_elements(const Loop<1 + sizeof...(In)>& loop, F f) {
  constexpr int N = 1 + sizeof...(In);
  run(loop,
      [&](const std::array<char*, N>& ptrs, const std::array<int64_t, N>& strides, int64_t n) {
        // A copy of f whose address never escapes: the compiler then knows that the stores to
        // out do not change the values f captured, and keeps them in registers (and vectorizes)
        // instead of reloading them for every element.
        const F f_here = f;
        [&]<size_t... I>(std::index_sequence<I...>) {
          Out* out = reinterpret_cast<Out*>(ptrs[0]);
          std::tuple<const In*...> in{reinterpret_cast<const In*>(ptrs[I + 1])...};
          const bool out_contiguous = strides[0] == sizeof(Out);
          if (out_contiguous && ((strides[I + 1] == sizeof(In)) && ...)) {
            if (n * static_cast<int64_t>(sizeof(Out)) >= kStreamingOutputBytes) {
              stream_elements(out, n, [&](int64_t i) { return f_here(std::get<I>(in)[i]...); });
              return;
            }
            for (int64_t i = 0; i < n; ++i) out[i] = f_here(std::get<I>(in)[i]...);
            return;
          }
          if constexpr (N == 3) {
            using A = std::tuple_element_t<0, std::tuple<In...>>;
            using B = std::tuple_element_t<1, std::tuple<In...>>;
            const A* a = std::get<0>(in);
            const B* b = std::get<1>(in);
            if (out_contiguous && strides[1] == sizeof(A) && strides[2] == 0) {
              const B bv = *b;
              for (int64_t i = 0; i < n; ++i) out[i] = f_here(a[i], bv);
              return;
            }
            if (out_contiguous && strides[1] == 0 && strides[2] == sizeof(B)) {
              const A av = *a;
              for (int64_t i = 0; i < n; ++i) out[i] = f_here(av, b[i]);
              return;
            }
          }
          for (int64_t i = 0; i < n; ++i) {
            *reinterpret_cast<Out*>(ptrs[0] + i * strides[0]) =
                f_here(*reinterpret_cast<const In*>(ptrs[I + 1] + i * strides[I + 1])...);
          }
        }
        (std::index_sequence_for<In...>{});
      });
}

// Applies out = f(in...) element-wise where f takes and returns vectors of V::kLanes values of
// the compute type V::Scalar (simd::MathVector): each run's elements are loaded into vectors,
// converted, and the last vector of a run is padded with zeros, so every element goes through
// the same vector code whatever the runs, their boundaries and the thread count.
template <typename V, typename Out, typename... In, typename F>
void map_vectors(const Loop<1 + sizeof...(In)>& loop, F f) {
  using C = typename V::Scalar;
  constexpr int N = 1 + sizeof...(In);
  constexpr int64_t kLanes = V::kLanes;
  run(loop, [&](const std::array<char*, N>& ptrs, const std::array<int64_t, N>& strides,
                int64_t n) {
    [&]<size_t... I>(std::index_sequence<I...>) {
      const bool contiguous = strides[0] == sizeof(Out) && ((strides[I + 1] == sizeof(In)) && ...);
      auto load = [&]<typename T>(int k, int64_t start, int64_t count) {
        if (contiguous && count == kLanes) {
          return simd::load_lanes<C>(reinterpret_cast<const T*>(ptrs[k]) + start);
        }
        V v(C(0));
        for (int64_t i = 0; i < count; ++i) {
          v.lanes[i] =
              static_cast<C>(*reinterpret_cast<const T*>(ptrs[k] + (start + i) * strides[k]));
        }
        return v;
      };
      for (int64_t start = 0; start < n; start += kLanes) {
        const int64_t count = std::min(kLanes, n - start);
        const V result = f(load.template operator()<In>(I + 1, start, count)...);
        if (contiguous && count == kLanes) {
          simd::store_lanes(reinterpret_cast<Out*>(ptrs[0]) + start, result);
        } else {
          for (int64_t i = 0; i < count; ++i) {
            *reinterpret_cast<Out*>(ptrs[0] + (start + i) * strides[0]) =
                static_cast<Out>(result.lanes[i]);
          }
        }
      }
    }
    (std::index_sequence_for<In...>{});
  });
}

}  // namespace accel::cpu
