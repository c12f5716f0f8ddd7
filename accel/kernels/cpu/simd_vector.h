// The 64-byte vectors the hand-written CPU product kernels compute with: GCC/Clang vector types,
// one AVX-512 register where the target has them, pairs of narrower ones elsewhere. Loads and
// stores go through memcpy, so operands need no particular alignment.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace accel::cpu::simd {

// (An alias template cannot carry the attribute on a dependent type, hence one per type.)
template <typename T>
struct VectorOf;
template <>
struct VectorOf<float> {
  using type = float __attribute__((vector_size(64)));
  using half = float __attribute__((vector_size(32)));
  using quarter = float __attribute__((vector_size(16)));
  using eight = half;
};
template <>
struct VectorOf<double> {
  using type = double __attribute__((vector_size(64)));
  using half = double __attribute__((vector_size(32)));
  using quarter = double __attribute__((vector_size(16)));
  using eight = type;
};
template <>
struct VectorOf<int32_t> {  // lane masks and indices beside float vectors
  using type = int32_t __attribute__((vector_size(64)));
};
template <>
struct VectorOf<int64_t> {  // lane masks beside double vectors
  using type = int64_t __attribute__((vector_size(64)));
};
template <typename T>
using Vector = typename VectorOf<T>::type;
template <typename T>
constexpr int64_t kLanes = 64 / sizeof(T);

// Which lanes of a Vector<T> to keep: an integer vector of as many lanes, all bits set in a lane
// kept and none in a lane cleared.
template <typename T>
using LaneMask = Vector<std::conditional_t<sizeof(T) == 4, int32_t, int64_t>>;

// v with the lanes `kept` clears set to zero (bitwise: an infinity or NaN cleared is zero too).
template <typename T>
Vector<T> keep_lanes(const Vector<T>& v, const LaneMask<T>& kept) {
  return std::bit_cast<Vector<T>>(std::bit_cast<LaneMask<T>>(v) & kept);
}

template <typename T>
Vector<T> load(const T* p) {
  Vector<T> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The first `count` (<= kLanes) elements at p, the other lanes zero (element by element: a
// memcpy of a variable size would be a library call).
template <typename T>
Vector<T> load_partial(const T* p, int64_t count) {
  Vector<T> v = {};
  for (int64_t i = 0; i < count; ++i) v[i] = p[i];
  return v;
}

template <typename T>
void store(T* p, const Vector<T>& v) {
  std::memcpy(p, &v, sizeof v);
}

// The sum of v's lanes, always in the same order: halves added lane-wise down to one quarter
// of the register, then its lanes in pairs.
template <typename T>
T horizontal_sum(const Vector<T>& v) {
  using Half = typename VectorOf<T>::half;
  using Quarter = typename VectorOf<T>::quarter;
  Half low, high;
  std::memcpy(&low, &v, sizeof low);
  std::memcpy(&high, reinterpret_cast<const char*>(&v) + sizeof low, sizeof high);
  const Half halves = low + high;
  Quarter q_low, q_high;
  std::memcpy(&q_low, &halves, sizeof q_low);
  std::memcpy(&q_high, reinterpret_cast<const char*>(&halves) + sizeof q_low, sizeof q_high);
  const Quarter q = q_low + q_high;
  if constexpr (sizeof(Quarter) / sizeof(T) == 4) return (q[0] + q[2]) + (q[1] + q[3]);
  return q[0] + q[1];
}

// out[j * out_stride + i] = in[i * in_stride + j] for i, j < 8: an 8 x 8 block transposed in
// registers (three rounds of shuffles) instead of 64 scalar moves.
template <typename T>
void transpose_8x8(const T* in, int64_t in_stride, T* out, int64_t out_stride) {
  using Eight = typename VectorOf<T>::eight;
  Eight r[8], t[8], u[8];
  for (int i = 0; i < 8; ++i) std::memcpy(&r[i], in + i * in_stride, sizeof(Eight));
  for (int i = 0; i < 8; i += 2) {  // pairs of rows interleaved: (r0 r1) element by element
    t[i] = __builtin_shufflevector(r[i], r[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
    t[i + 1] = __builtin_shufflevector(r[i], r[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
  }
  for (int i = 0; i < 8; i += 4) {  // then pairs of those pairs
    for (int j = 0; j < 2; ++j) {
      u[i + 2 * j] = __builtin_shufflevector(t[i + j], t[i + j + 2], 0, 1, 8, 9, 4, 5, 12, 13);
      u[i + 2 * j + 1] =
          __builtin_shufflevector(t[i + j], t[i + j + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    }
  }
  for (int j = 0; j < 4; ++j) {  // and the halves of rows 0-3 and 4-7 joined
    const Eight low = __builtin_shufflevector(u[j], u[j + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    const Eight high = __builtin_shufflevector(u[j], u[j + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    std::memcpy(out + j * out_stride, &low, sizeof low);
    std::memcpy(out + (j + 4) * out_stride, &high, sizeof high);
  }
}

// out[j * out_stride + i] = in[i * in_stride + j] for i < rows, j < cols: a matrix transposed
// in 8 x 8 blocks (a plain loop writes or reads one of them a cache line per element), the
// edges element by element. Elements of 4 or 8 bytes go through transpose_8x8 as floats or
// doubles (bits moved, not values), others one by one.
template <typename T>
void transpose(const T* in, int64_t rows, int64_t cols, int64_t in_stride, T* out,
               int64_t out_stride) {
  int64_t i = 0;
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    using Lane = std::conditional_t<sizeof(T) == 4, float, double>;
    for (; i + 8 <= rows; i += 8) {
      int64_t j = 0;
      for (; j + 8 <= cols; j += 8) {
        transpose_8x8(reinterpret_cast<const Lane*>(in + i * in_stride + j), in_stride,
                      reinterpret_cast<Lane*>(out + j * out_stride + i), out_stride);
      }
      for (; j < cols; ++j) {
        for (int64_t r = i; r < i + 8; ++r) out[j * out_stride + r] = in[r * in_stride + j];
      }
    }
  }
  for (; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) out[j * out_stride + i] = in[i * in_stride + j];
  }
}

}  // namespace accel::cpu::simd
