// LSTM and GRU steps on the GPU: one thread per unit of a row (grid-stride), each reading its
// element of every gate chunk and state, computing in the accumulate type and rounding once.
#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/recurrent_cell.h"

namespace accel::cuda {

namespace {

// Calls unit(state, gate) for every unit: `state` is its offset in a [batch, hidden] array,
// `gate` its offset in a [batch, gates * hidden] one (add k * hidden for chunk k).
template <typename Unit>
__global__ void each_unit(RecurrentCellShape s, int64_t gates, Unit unit) {
  for (int64_t i = global_thread_index(); i < s.batch * s.hidden; i += grid_stride()) {
    unit(i, (i / s.hidden) * gates * s.hidden + i % s.hidden);
  }
}

template <typename Unit>
void launch_units(RecurrentCellShape s, int64_t gates, const Unit& unit, const Stream& stream,
                  const char* op) {
  const int64_t units = s.batch * s.hidden;
  if (units == 0) return;
  each_unit<<<blocks_for(units), kThreadsPerBlock, 0, launch_stream(stream)>>>(s, gates, unit);
  check_launch(op);
}

template <typename T>
__device__ acc_t<T> at(const T* p, int64_t i) {
  return static_cast<acc_t<T>>(p[i]);
}

template <typename T>
struct LstmForward {
  const T *x, *h_proj, *bias, *c_prev;
  T *gates, *c, *tanh_c, *h;
  int64_t hidden;
  __device__ void operator()(int64_t state, int64_t gate) const {
    auto pre = [&](int64_t k) {
      const acc_t<T> sum = at(x, gate + k * hidden) + at(h_proj, gate + k * hidden);
      return bias == nullptr ? sum : sum + at(bias, k * hidden + state % hidden);
    };
    const auto u = math::lstm_unit(pre(0), pre(1), pre(2), pre(3), at(c_prev, state));
    gates[gate] = static_cast<T>(u.i);
    gates[gate + hidden] = static_cast<T>(u.f);
    gates[gate + 2 * hidden] = static_cast<T>(u.g);
    gates[gate + 3 * hidden] = static_cast<T>(u.o);
    c[state] = static_cast<T>(u.c);
    tanh_c[state] = static_cast<T>(u.tanh_c);
    h[state] = static_cast<T>(u.h);
  }
};

template <typename T>
struct LstmBackward {
  const T *grad_h, *grad_c, *gates, *tanh_c, *c_prev;
  T *grad_gates, *grad_c_prev;
  int64_t hidden;
  __device__ void operator()(int64_t state, int64_t gate) const {
    const auto d = math::lstm_unit_backward(at(grad_h, state), at(grad_c, state), at(gates, gate),
                                            at(gates, gate + hidden), at(gates, gate + 2 * hidden),
                                            at(gates, gate + 3 * hidden), at(tanh_c, state),
                                            at(c_prev, state));
    grad_gates[gate] = static_cast<T>(d.i);
    grad_gates[gate + hidden] = static_cast<T>(d.f);
    grad_gates[gate + 2 * hidden] = static_cast<T>(d.g);
    grad_gates[gate + 3 * hidden] = static_cast<T>(d.o);
    grad_c_prev[state] = static_cast<T>(d.c_prev);
  }
};

template <typename T>
struct GruForward {
  const T *x, *h_proj, *h_prev;
  T *gates, *h;
  int64_t hidden;
  __device__ void operator()(int64_t state, int64_t gate) const {
    const auto u = math::gru_unit(at(x, gate), at(x, gate + hidden), at(x, gate + 2 * hidden),
                                  at(h_proj, gate), at(h_proj, gate + hidden),
                                  at(h_proj, gate + 2 * hidden), at(h_prev, state));
    gates[gate] = static_cast<T>(u.r);
    gates[gate + hidden] = static_cast<T>(u.z);
    gates[gate + 2 * hidden] = static_cast<T>(u.n);
    h[state] = static_cast<T>(u.h);
  }
};

template <typename T>
struct GruBackward {
  const T *grad_h, *gates, *h_proj, *h_prev;
  T *grad_x, *grad_h_proj, *grad_h_prev;
  int64_t hidden;
  __device__ void operator()(int64_t state, int64_t gate) const {
    const auto d = math::gru_unit_backward(at(grad_h, state), at(gates, gate),
                                           at(gates, gate + hidden), at(gates, gate + 2 * hidden),
                                           at(h_proj, gate + 2 * hidden), at(h_prev, state));
    grad_x[gate] = grad_h_proj[gate] = static_cast<T>(d.r);
    grad_x[gate + hidden] = grad_h_proj[gate + hidden] = static_cast<T>(d.z);
    grad_x[gate + 2 * hidden] = static_cast<T>(d.x_n);
    grad_h_proj[gate + 2 * hidden] = static_cast<T>(d.h_n);
    grad_h_prev[state] = static_cast<T>(d.h_prev);
  }
};

}  // namespace

void lstm_cell(ScalarType type, const void* x, const void* h_proj, const void* bias,
               const void* c_prev, void* gates, void* c, void* tanh_c, void* h,
               RecurrentCellShape shape, const Stream& stream) {
  dispatch_floating(type, "lstm_cell", [&]<typename T>() {
    launch_units(shape, 4,
                 LstmForward<T>{static_cast<const T*>(x), static_cast<const T*>(h_proj),
                                static_cast<const T*>(bias), static_cast<const T*>(c_prev),
                                static_cast<T*>(gates), static_cast<T*>(c), static_cast<T*>(tanh_c),
                                static_cast<T*>(h), shape.hidden},
                 stream, "lstm_cell");
  });
}

void lstm_cell_backward(ScalarType type, const void* grad_h, const void* grad_c, const void* gates,
                        const void* tanh_c, const void* c_prev, void* grad_gates, void* grad_c_prev,
                        RecurrentCellShape shape, const Stream& stream) {
  dispatch_floating(type, "lstm_cell", [&]<typename T>() {
    launch_units(shape, 4,
                 LstmBackward<T>{static_cast<const T*>(grad_h), static_cast<const T*>(grad_c),
                                 static_cast<const T*>(gates), static_cast<const T*>(tanh_c),
                                 static_cast<const T*>(c_prev), static_cast<T*>(grad_gates),
                                 static_cast<T*>(grad_c_prev), shape.hidden},
                 stream, "lstm_cell_backward");
  });
}

void gru_cell(ScalarType type, const void* x, const void* h_proj, const void* h_prev, void* gates,
              void* h, RecurrentCellShape shape, const Stream& stream) {
  dispatch_floating(type, "gru_cell", [&]<typename T>() {
    launch_units(shape, 3,
                 GruForward<T>{static_cast<const T*>(x), static_cast<const T*>(h_proj),
                               static_cast<const T*>(h_prev), static_cast<T*>(gates),
                               static_cast<T*>(h), shape.hidden},
                 stream, "gru_cell");
  });
}

void gru_cell_backward(ScalarType type, const void* grad_h, const void* gates, const void* h_proj,
                       const void* h_prev, void* grad_x, void* grad_h_proj, void* grad_h_prev,
                       RecurrentCellShape shape, const Stream& stream) {
  dispatch_floating(type, "gru_cell", [&]<typename T>() {
    launch_units(shape, 3,
                 GruBackward<T>{static_cast<const T*>(grad_h), static_cast<const T*>(gates),
                                static_cast<const T*>(h_proj), static_cast<const T*>(h_prev),
                                static_cast<T*>(grad_x), static_cast<T*>(grad_h_proj),
                                static_cast<T*>(grad_h_prev), shape.hidden},
                 stream, "gru_cell_backward");
  });
}

}  // namespace accel::cuda
