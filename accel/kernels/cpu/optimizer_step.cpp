// Runs the optimizer update rules over contiguous buffers for every floating dtype: each
// element is loaded into the accumulate type, updated, and stored back (16-bit floats round
// once per step). Optional state buffers that are absent read and write a local dummy.
#include "accel/kernels/cpu/optimizer_step.h"

#include <array>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

namespace {

// Calls update(p, g, state...) on element i of each buffer, as values of the accumulate type;
// a null state buffer contributes a zero that is discarded.
template <typename T, size_t S, typename Update>
void for_each_element(int64_t n, void* param, const void* grad, std::array<void*, S> state,
                      Update update) {
  using A = acc_t<T>;
  T* p = static_cast<T*>(param);
  const T* g = static_cast<const T*>(grad);
  parallel_for(0, n, kElementwiseGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      A pv = A(p[i]);
      std::array<A, S> sv{};
      for (size_t k = 0; k < S; ++k) {
        if (state[k]) sv[k] = A(static_cast<T*>(state[k])[i]);
      }
      [&]<size_t... K>(std::index_sequence<K...>) { update(pv, A(g[i]), sv[K]...); }
      (std::make_index_sequence<S>{});
      p[i] = static_cast<T>(pv);
      for (size_t k = 0; k < S; ++k) {
        if (state[k]) static_cast<T*>(state[k])[i] = static_cast<T>(sv[k]);
      }
    }
  });
}

}  // namespace

void sgd_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* momentum_buffer,
              const math::SgdScalars<double>& s) {
  dispatch_floating(dtype, "sgd_step", [&]<typename T>() {
    const auto sa = s.as<acc_t<T>>();
    for_each_element<T, 1>(n, param, grad, {momentum_buffer},
                           [&](auto& p, auto g, auto& buf) { math::sgd_update(p, g, buf, sa); });
  });
}

void adam_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* exp_avg,
               void* exp_avg_sq, void* max_exp_avg_sq, const math::AdamScalars<double>& s) {
  dispatch_floating(dtype, "adam_step", [&]<typename T>() {
    const auto sa = s.as<acc_t<T>>();
    for_each_element<T, 3>(n, param, grad, {exp_avg, exp_avg_sq, max_exp_avg_sq},
                           [&](auto& p, auto g, auto& m, auto& v, auto& vmax) {
                             math::adam_update(p, g, m, v, vmax, sa);
                           });
  });
}

void rmsprop_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* square_avg,
                  void* grad_avg, void* momentum_buffer, const math::RmspropScalars<double>& s) {
  dispatch_floating(dtype, "rmsprop_step", [&]<typename T>() {
    const auto sa = s.as<acc_t<T>>();
    for_each_element<T, 3>(n, param, grad, {square_avg, grad_avg, momentum_buffer},
                           [&](auto& p, auto g, auto& sq, auto& ga, auto& buf) {
                             math::rmsprop_update(p, g, sq, ga, buf, sa);
                           });
  });
}

void adagrad_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* sum,
                  const math::AdagradScalars<double>& s) {
  dispatch_floating(dtype, "adagrad_step", [&]<typename T>() {
    const auto sa = s.as<acc_t<T>>();
    for_each_element<T, 1>(n, param, grad, {sum}, [&](auto& p, auto g, auto& acc) {
      math::adagrad_update(p, g, acc, sa);
    });
  });
}

}  // namespace accel::cpu
