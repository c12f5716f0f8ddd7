// The optimizer updates and the loss scaler's unscale-and-check on the GPU: one grid-stride
// launch per parameter, each element updated by the rules of kernels/common exactly as the CPU
// loops do (kernels/cpu/optimizer_step.cpp, loss_scaling.cpp), moving 16 bytes per load.
#include "accel/base/dispatch.h"
#include "accel/kernels/common/loss_scaling.h"
#include "accel/kernels/cuda/elementwise.cuh"
#include "accel/kernels/cuda/optimizer_step.h"

namespace accel::cuda {

namespace {

// Calls run.template operator()<V>(first) for this thread's runs of V elements starting at
// multiples of V, then run.template operator()<1>(i) for at most one of the last n % V.
template <int V, typename Run>
__device__ void for_each_run(int64_t n, Run& run) {
  const int64_t runs = n / V;
  for (int64_t j = global_thread_index(); j < runs; j += grid_stride()) {
    run.template operator()<V>(j * V);
  }
  const int64_t tail = runs * V + global_thread_index();
  if (tail < n) run.template operator()<1>(tail);
}

// Threads a launch needs: one per run, and at least one per tail element.
template <int V>
int64_t launch_items(int64_t n) {
  return std::max<int64_t>(n / V, n % V);
}

// Whether every non-null pointer is aligned for runs of V elements of T.
template <typename T, int V, size_t N>
bool runs_aligned(const std::array<const void*, N>& pointers) {
  for (const void* p : pointers) {
    if (reinterpret_cast<uintptr_t>(p) % (sizeof(T) * V) != 0) return false;
  }
  return true;
}

// ---- optimizer updates ----

// A parameter, its gradient and its S state buffers (null where the options use none).
template <typename T, int S>
struct Buffers {
  T* param;
  const T* grad;
  T* state[S];
};

// Applies update(p, g, state) to each element in the accumulate type, as the CPU's
// for_each_element: a null state buffer reads as zero and is not written.
template <typename T, int S, typename Update>
struct UpdateRun {
  Buffers<T, S> b;
  Update update;

  template <int V>
  __device__ void operator()(int64_t first) const {
    using A = acc_t<T>;
    using P = Packet<T, V>;
    P p = *reinterpret_cast<const P*>(b.param + first);
    const P g = *reinterpret_cast<const P*>(b.grad + first);
    P s[S];
#pragma unroll
    for (int k = 0; k < S; ++k) {
      if (b.state[k] != nullptr) s[k] = *reinterpret_cast<const P*>(b.state[k] + first);
    }
#pragma unroll
    for (int v = 0; v < V; ++v) {
      A pv = A(p.v[v]);
      A sv[S];
#pragma unroll
      for (int k = 0; k < S; ++k) sv[k] = b.state[k] != nullptr ? A(s[k].v[v]) : A(0);
      update(pv, A(g.v[v]), sv);
      p.v[v] = static_cast<T>(pv);
#pragma unroll
      for (int k = 0; k < S; ++k) s[k].v[v] = static_cast<T>(sv[k]);
    }
    *reinterpret_cast<P*>(b.param + first) = p;
#pragma unroll
    for (int k = 0; k < S; ++k) {
      if (b.state[k] != nullptr) *reinterpret_cast<P*>(b.state[k] + first) = s[k];
    }
  }
};

template <int V, typename Run>
__global__ void update_kernel(int64_t n, Run run) {
  for_each_run<V>(n, run);
}

// One update rule per functor (nvcc allows no __device__ lambdas inside dtype dispatch); each
// takes the element's state in the order the kernel's buffers list it.
template <typename A>
struct SgdUpdate {
  math::SgdScalars<A> s;
  __device__ void operator()(A& p, A g, A* state) const { math::sgd_update(p, g, state[0], s); }
};

template <typename A>
struct AdamUpdate {
  math::AdamScalars<A> s;
  __device__ void operator()(A& p, A g, A* state) const {
    math::adam_update(p, g, state[0], state[1], state[2], s);
  }
};

template <typename A>
struct RmspropUpdate {
  math::RmspropScalars<A> s;
  __device__ void operator()(A& p, A g, A* state) const {
    math::rmsprop_update(p, g, state[0], state[1], state[2], s);
  }
};

template <typename A>
struct AdagradUpdate {
  math::AdagradScalars<A> s;
  __device__ void operator()(A& p, A g, A* state) const { math::adagrad_update(p, g, state[0], s); }
};

// Runs `update` over the n elements of a contiguous parameter, its gradient and state.
template <typename T, int S, typename Update>
void launch_update(int64_t n, void* param, const void* grad, const std::array<void*, S>& state,
                   Update update, const Stream& stream, const char* op) {
  if (n == 0) return;
  const cudaStream_t s = launch_stream(stream);
  UpdateRun<T, S, Update> run{{static_cast<T*>(param), static_cast<const T*>(grad), {}}, update};
  std::array<const void*, S + 2> pointers{param, grad};
  for (int k = 0; k < S; ++k) {
    run.b.state[k] = static_cast<T*>(state[k]);
    pointers[k + 2] = state[k];
  }
  constexpr int V = kPacketWidth<T>;
  if (runs_aligned<T, V>(pointers)) {
    update_kernel<V><<<blocks_for(launch_items<V>(n)), kThreadsPerBlock, 0, s>>>(n, run);
  } else {
    update_kernel<1><<<blocks_for(n), kThreadsPerBlock, 0, s>>>(n, run);
  }
  check_launch(op);
}

// ---- loss scaling ----

// Multiplies each element by inv_scale, noting in `found` whether any was inf or NaN.
template <typename T>
struct UnscaleRun {
  T* grad;
  acc_t<T> inv_scale;
  bool found = false;

  template <int V>
  __device__ void operator()(int64_t first) {
    using P = Packet<T, V>;
    P g = *reinterpret_cast<const P*>(grad + first);
#pragma unroll
    for (int v = 0; v < V; ++v) g.v[v] = math::unscale_gradient(g.v[v], inv_scale, found);
    *reinterpret_cast<P*>(grad + first) = g;
  }
};

// Every thread that saw a non-finite element stores the same 1.0f: the result does not depend
// on which stores land, and nothing is read back on the host.
template <int V, typename T>
__global__ void unscale_kernel(int64_t n, UnscaleRun<T> run, float* found_inf) {
  for_each_run<V>(n, run);
  if (run.found) *found_inf = 1.0f;
}

}  // namespace

void sgd_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* momentum_buffer,
              const math::SgdScalars<double>& s, const Stream& stream) {
  dispatch_floating(dtype, "sgd_step", [&]<typename T>() {
    using A = acc_t<T>;
    launch_update<T, 1>(n, param, grad, {momentum_buffer}, SgdUpdate<A>{s.as<A>()}, stream,
                        "sgd_step");
  });
}

void adam_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* exp_avg,
               void* exp_avg_sq, void* max_exp_avg_sq, const math::AdamScalars<double>& s,
               const Stream& stream) {
  dispatch_floating(dtype, "adam_step", [&]<typename T>() {
    using A = acc_t<T>;
    launch_update<T, 3>(n, param, grad, {exp_avg, exp_avg_sq, max_exp_avg_sq},
                        AdamUpdate<A>{s.as<A>()}, stream, "adam_step");
  });
}

void rmsprop_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* square_avg,
                  void* grad_avg, void* momentum_buffer, const math::RmspropScalars<double>& s,
                  const Stream& stream) {
  dispatch_floating(dtype, "rmsprop_step", [&]<typename T>() {
    using A = acc_t<T>;
    launch_update<T, 3>(n, param, grad, {square_avg, grad_avg, momentum_buffer},
                        RmspropUpdate<A>{s.as<A>()}, stream, "rmsprop_step");
  });
}

void adagrad_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* sum,
                  const math::AdagradScalars<double>& s, const Stream& stream) {
  dispatch_floating(dtype, "adagrad_step", [&]<typename T>() {
    using A = acc_t<T>;
    launch_update<T, 1>(n, param, grad, {sum}, AdagradUpdate<A>{s.as<A>()}, stream, "adagrad_step");
  });
}

void unscale_gradient(ScalarType dtype, int64_t n, void* grad, double inv_scale, float* found_inf,
                      const Stream& stream) {
  dispatch_floating(dtype, "unscale_gradient", [&]<typename T>() {
    if (n == 0) return;
    const cudaStream_t s = launch_stream(stream);
    const UnscaleRun<T> run{static_cast<T*>(grad), static_cast<acc_t<T>>(inv_scale)};
    constexpr int V = kPacketWidth<T>;
    if (runs_aligned<T, V>(std::array<const void*, 1>{grad})) {
      unscale_kernel<V>
          <<<blocks_for(launch_items<V>(n)), kThreadsPerBlock, 0, s>>>(n, run, found_inf);
    } else {
      unscale_kernel<1><<<blocks_for(n), kThreadsPerBlock, 0, s>>>(n, run, found_inf);
    }
    check_launch("unscale_gradient");
  });
}

}  // namespace accel::cuda
