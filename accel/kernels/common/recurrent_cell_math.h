// One hidden unit of an LSTM or GRU cell at one step, forward and backward side by side,
// written once for the CPU kernels (on vectors of kernels/cpu/vector_math.h) and the CUDA
// kernels (contracts in kernels/backend.h). A step's gates are chunks of `hidden` units, in
// PyTorch's order (LSTM i, f, g, o; GRU r, z, n); unit j of a row reads element j of each
// chunk. Arguments arrive in the accumulate type (float for Half/BFloat16), or vectors of it.
#pragma once

#include <cstdint>

#include "accel/base/macros.h"
#include "accel/kernels/common/unary_math.h"

namespace accel {

// A step of a batch: `batch` contiguous rows of `hidden` units; a row of gates holds `gates`
// chunks of `hidden` elements.
struct RecurrentCellShape {
  int64_t batch = 0;
  int64_t hidden = 0;
};

namespace math {

// LSTM: i, f, g, o = sigmoid, sigmoid, tanh, sigmoid of the pre-activations (x + h_proj);
// c = f c_prev + i g; h = o tanh(c).
template <typename T>
struct LstmUnit {
  T i, f, g, o;  // the gates, activated
  T c, tanh_c, h;
};
template <typename T>
ACCEL_INLINE LstmUnit<T> lstm_unit(T i, T f, T g, T o, T c_prev) {
  LstmUnit<T> u;
  u.i = Sigmoid::forward(i);
  u.f = Sigmoid::forward(f);
  u.g = Tanh::forward(g);
  u.o = Sigmoid::forward(o);
  u.c = u.f * c_prev + u.i * u.g;
  u.tanh_c = Tanh::forward(u.c);
  u.h = u.o * u.tanh_c;
  return u;
}

// The gradients of the four pre-activations and of c_prev, from dh and dc (those of h and c)
// and what the forward kept: the activated gates, tanh(c) and c_prev.
template <typename T>
struct LstmUnitGradient {
  T i, f, g, o, c_prev;
};
template <typename T>
ACCEL_INLINE LstmUnitGradient<T> lstm_unit_backward(T dh, T dc, T i, T f, T g, T o, T tanh_c,
                                                    T c_prev) {
  const T d_c = dc + dh * o * (T(1) - tanh_c * tanh_c);
  return {d_c * g * i * (T(1) - i), d_c * c_prev * f * (T(1) - f), d_c * i * (T(1) - g * g),
          dh * tanh_c * o * (T(1) - o), d_c * f};
}

// GRU: r, z = sigmoid(x_r + h_r), sigmoid(x_z + h_z); n = tanh(x_n + r h_n);
// h = (1 - z) n + z h_prev, with h_r, h_z, h_n the chunks of h_proj (bias_hh included).
template <typename T>
struct GruUnit {
  T r, z, n, h;
};
template <typename T>
ACCEL_INLINE GruUnit<T> gru_unit(T x_r, T x_z, T x_n, T h_r, T h_z, T h_n, T h_prev) {
  GruUnit<T> u;
  u.r = Sigmoid::forward(x_r + h_r);
  u.z = Sigmoid::forward(x_z + h_z);
  u.n = Tanh::forward(x_n + u.r * h_n);
  u.h = u.n + u.z * (h_prev - u.n);
  return u;
}

// The gradients of r's and z's pre-activations (shared by x and h_proj), of x_n and h_n, and
// the part of h_prev's that does not flow through h_proj, from dh (that of h).
template <typename T>
struct GruUnitGradient {
  T r, z, x_n, h_n, h_prev;
};
template <typename T>
ACCEL_INLINE GruUnitGradient<T> gru_unit_backward(T dh, T r, T z, T n, T h_n, T h_prev) {
  const T d_n = dh * (T(1) - z) * (T(1) - n * n);
  return {d_n * h_n * r * (T(1) - r), dh * (h_prev - n) * z * (T(1) - z), d_n, d_n * r, dh * z};
}

}  // namespace math
}  // namespace accel
