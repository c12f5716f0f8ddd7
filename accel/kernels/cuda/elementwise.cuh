// The CUDA runner of element-wise loops (kernels/common/loop.h), the device twin of
// kernels/cpu/loops.h: map_elements applies out = f(in...) over a Loop. When every operand is
// contiguous and aligned the kernel moves each operand in 128-bit packets; otherwise each thread
// computes its elements' byte offsets from the loop's sizes and strides (one division per coalesced
// dim).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cuda/std/tuple>
#include <utility>

#include "accel/kernels/common/loop.h"
#include "accel/kernels/cuda/launch.cuh"

namespace accel::cuda {

// Byte offsets of linear element i in every operand of `loop`.
template <int N>
__device__ inline void element_offsets(const Loop<N>& loop, int64_t i, int64_t (&offsets)[N]) {
  if (loop.ndim <= 1) {
#pragma unroll
    for (int k = 0; k < N; ++k) offsets[k] = loop.ndim == 0 ? 0 : i * loop.strides[k][0];
    return;
  }
#pragma unroll
  for (int k = 0; k < N; ++k) offsets[k] = 0;
  for (int d = 0; d < loop.ndim; ++d) {
    const int64_t size = loop.sizes[d];
    const int64_t index = i % size;
    i /= size;
#pragma unroll
    for (int k = 0; k < N; ++k) offsets[k] += index * loop.strides[k][d];
  }
}

// V consecutive elements of T, aligned so that one instruction moves them.
template <typename T, int V>
struct alignas(sizeof(T) * V) Packet {
  T v[V];
};

template <int N>
struct Pointers {
  char* data[N];
};

template <typename Out, typename... In, typename F, size_t... I>
__device__ inline void apply_at(char* const* data, const int64_t* offsets, F& f,
                                std::index_sequence<I...>) {
  *reinterpret_cast<Out*>(data[0] + offsets[0]) =
      f(*reinterpret_cast<const In*>(data[I + 1] + offsets[I + 1])...);
}

// (Kernel templates list their parameter pack last, as nvcc requires.)
template <typename F, typename Out, typename... In>
__global__ void strided_map_kernel(Loop<1 + sizeof...(In)> loop, F f) {
  constexpr int N = 1 + sizeof...(In);
  for (int64_t i = global_thread_index(); i < loop.numel; i += grid_stride()) {
    int64_t offsets[N];
    element_offsets(loop, i, offsets);
    apply_at<Out, In...>(loop.data.data(), offsets, f, std::index_sequence_for<In...>{});
  }
}

template <int V, typename Out, typename... In, typename F, size_t... I>
__device__ inline void apply_packet(const Pointers<1 + sizeof...(In)>& p, int64_t j, F& f,
                                    std::index_sequence<I...>) {
  const ::cuda::std::tuple<Packet<In, V>...> in{
      reinterpret_cast<const Packet<In, V>*>(p.data[I + 1])[j]...};
  Packet<Out, V> out;
#pragma unroll
  for (int v = 0; v < V; ++v) out.v[v] = f(::cuda::std::get<I>(in).v[v]...);
  reinterpret_cast<Packet<Out, V>*>(p.data[0])[j] = out;
}

// Contiguous operands: packet j holds elements [j * V, j * V + V); the last n % V elements
// are done one by one.
template <int V, typename F, typename Out, typename... In>
__global__ void contiguous_map_kernel(Pointers<1 + sizeof...(In)> p, int64_t n, F f) {
  const int64_t packets = n / V;
  for (int64_t j = global_thread_index(); j < packets; j += grid_stride()) {
    apply_packet<V, Out, In...>(p, j, f, std::index_sequence_for<In...>{});
  }
  const int64_t tail = packets * V + global_thread_index();
  if (tail < n) {
    int64_t offsets[1 + sizeof...(In)];
    offsets[0] = tail * static_cast<int64_t>(sizeof(Out));
    int k = 1;
    ((offsets[k++] = tail * static_cast<int64_t>(sizeof(In))), ...);
    apply_at<Out, In...>(p.data, offsets, f, std::index_sequence_for<In...>{});
  }
}

// Whether every operand of `loop` is one dense run of elements of its type.
template <typename Out, typename... In>
bool is_contiguous(const Loop<1 + sizeof...(In)>& loop) {
  if (loop.ndim == 0) return true;
  if (loop.ndim > 1) return false;
  constexpr std::array<int64_t, 1 + sizeof...(In)> sizes = {sizeof(Out), sizeof(In)...};
  for (int k = 0; k < 1 + static_cast<int>(sizeof...(In)); ++k) {
    if (loop.strides[k][0] != sizes[k]) return false;
  }
  return true;
}

// Elements per packet: 16 bytes of the widest operand.
template <typename Out, typename... In>
inline constexpr int kPacketWidth = static_cast<int>(16 / std::max({sizeof(Out), sizeof(In)...}));

// Whether every operand's pointer is aligned for packets of V elements.
template <int V, typename Out, typename... In>
bool packets_aligned(const Loop<1 + sizeof...(In)>& loop) {
  constexpr std::array<int64_t, 1 + sizeof...(In)> sizes = {sizeof(Out), sizeof(In)...};
  for (int k = 0; k < 1 + static_cast<int>(sizeof...(In)); ++k) {
    if (reinterpret_cast<uintptr_t>(loop.data[k]) % (sizes[k] * V) != 0) return false;
  }
  return true;
}

template <int V, typename Out, typename... In, typename F>
void launch_contiguous(const Loop<1 + sizeof...(In)>& loop, cudaStream_t stream, F f) {
  Pointers<1 + sizeof...(In)> p;
  for (int k = 0; k < 1 + static_cast<int>(sizeof...(In)); ++k) p.data[k] = loop.data[k];
  const int64_t packets = std::max<int64_t>(loop.numel / V, loop.numel % V);
  contiguous_map_kernel<V, F, Out, In...>
      <<<blocks_for(packets), kThreadsPerBlock, 0, stream>>>(p, loop.numel, f);
}

// out = f(in...) over Loop<1 + sizeof...(In)>(out, in...) with element types Out and In...;
// f is a functor with a __device__ call operator (nvcc allows no __device__ lambda inside the
// generic lambdas of dtype dispatch).
template <typename Out, typename... In, typename F>
void map_elements(const Loop<1 + sizeof...(In)>& loop, const Stream& stream, const char* op, F f) {
  if (loop.numel == 0) return;
  const cudaStream_t s = launch_stream(stream);
  constexpr int V = kPacketWidth<Out, In...>;
  if (is_contiguous<Out, In...>(loop) && packets_aligned<V, Out, In...>(loop)) {
    launch_contiguous<V, Out, In...>(loop, s, f);
  } else {  // one dim (an unaligned view) costs the strided kernel no division
    strided_map_kernel<F, Out, In...><<<blocks_for(loop.numel), kThreadsPerBlock, 0, s>>>(loop, f);
  }
  check_launch(op);
}

}  // namespace accel::cuda
