// Runs the optimizer update rules over contiguous buffers for every floating dtype: each
// element is loaded into the accumulate type, updated, and stored back (16-bit floats round
// once per step). Optional state buffers that are absent read and write a local stand-in.
#include "accel/kernels/cpu/optimizer_step.h"

#include <algorithm>
#include <array>
#include <tuple>
#include <type_traits>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

namespace {

// Updates `count` elements. The pointers do not overlap and `update` is a copy on this thread,
// so no store can change what the loop reads: the compiler keeps the scalars in registers,
// turns the rules' per-call branches into selects and vectorizes (when these could alias it
// reloaded every scalar and tested every flag per element, 2.6 ns an element).
template <typename T, typename Update>
void update_tile(int64_t count, T* __restrict param, const T* __restrict grad, Update update,
                 T* __restrict s0) {
  using A = acc_t<T>;
  for (int64_t i = 0; i < count; ++i) {
    A p = A(param[i]), v0 = A(s0[i]);
    update(p, A(grad[i]), v0);
    param[i] = static_cast<T>(p);
    s0[i] = static_cast<T>(v0);
  }
}

template <typename T, typename Update>
void update_tile(int64_t count, T* __restrict param, const T* __restrict grad, Update update,
                 T* __restrict s0, T* __restrict s1, T* __restrict s2) {
  using A = acc_t<T>;
  for (int64_t i = 0; i < count; ++i) {
    A p = A(param[i]), v0 = A(s0[i]), v1 = A(s1[i]), v2 = A(s2[i]);
    update(p, A(grad[i]), v0, v1, v2);
    param[i] = static_cast<T>(p);
    s0[i] = static_cast<T>(v0);
    s1[i] = static_cast<T>(v1);
    s2[i] = static_cast<T>(v2);
  }
}

// Calls update(p, g, state...) on element i of each buffer, as values of the accumulate type,
// in tiles; a null state buffer reads zeros from a stand-in whose values are discarded.
template <typename T, size_t S, typename Update>
void for_each_element(int64_t n, void* param, const void* grad, std::array<void*, S> state,
                      const Update& update) {
  constexpr int64_t kTile = 512;
  T* p = static_cast<T*>(param);
  const T* g = static_cast<const T*>(grad);
  parallel_for(0, n, kElementwiseGrain, [&](int64_t begin, int64_t end) {
    std::array<std::array<T, kTile>, S> absent;
    for (int64_t first = begin; first < end; first += kTile) {
      const int64_t count = std::min(kTile, end - first);
      std::array<T*, S> tile_state;
      for (size_t k = 0; k < S; ++k) {
        if (state[k] != nullptr) {
          tile_state[k] = static_cast<T*>(state[k]) + first;
        } else {
          absent[k].fill(T(0));
          tile_state[k] = absent[k].data();
        }
      }
      std::apply([&](auto*... s) { update_tile(count, p + first, g + first, update, s...); },
                 tile_state);
    }
  });
}

// Calls body(std::bool_constant<flag>...): one instantiation per combination of the flags. An
// update captures the constants (empty types) and writes them into its copy of the scalars,
// so the rule's options are known inside the loop and their branches disappear.
template <typename Body>
void with_constant_flags(const Body& body) {
  body();
}

template <typename Body, typename... Rest>
void with_constant_flags(const Body& body, bool first, Rest... rest) {
  if (first) {
    with_constant_flags([&](auto... later) { body(std::true_type{}, later...); }, rest...);
  } else {
    with_constant_flags([&](auto... later) { body(std::false_type{}, later...); }, rest...);
  }
}

}  // namespace

void sgd_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* momentum_buffer,
              const math::SgdScalars<double>& s) {
  dispatch_floating(dtype, "sgd_step", [&]<typename T>() {
    with_constant_flags(
        [&](auto nesterov, auto maximize, auto first_step) {
          for_each_element<T, 1>(
              n, param, grad, {momentum_buffer},
              [sa = s.as<acc_t<T>>(), nesterov, maximize, first_step](auto& p, auto g, auto& buf) {
                auto c = sa;
                c.nesterov = nesterov;
                c.maximize = maximize;
                c.first_step = first_step;
                math::sgd_update(p, g, buf, c);
              });
        },
        s.nesterov, s.maximize, s.first_step);
  });
}

void adam_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* exp_avg,
               void* exp_avg_sq, void* max_exp_avg_sq, const math::AdamScalars<double>& s) {
  dispatch_floating(dtype, "adam_step", [&]<typename T>() {
    with_constant_flags(
        [&](auto decoupled_weight_decay, auto amsgrad, auto maximize) {
          for_each_element<T, 3>(n, param, grad, {exp_avg, exp_avg_sq, max_exp_avg_sq},
                                 [sa = s.as<acc_t<T>>(), decoupled_weight_decay, amsgrad, maximize](
                                     auto& p, auto g, auto& m, auto& v, auto& vmax) {
                                   auto c = sa;
                                   c.decoupled_weight_decay = decoupled_weight_decay;
                                   c.amsgrad = amsgrad;
                                   c.maximize = maximize;
                                   math::adam_update(p, g, m, v, vmax, c);
                                 });
        },
        s.decoupled_weight_decay, s.amsgrad, s.maximize);
  });
}

void rmsprop_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* square_avg,
                  void* grad_avg, void* momentum_buffer, const math::RmspropScalars<double>& s) {
  dispatch_floating(dtype, "rmsprop_step", [&]<typename T>() {
    with_constant_flags(
        [&](auto centered, auto maximize) {
          for_each_element<T, 3>(n, param, grad, {square_avg, grad_avg, momentum_buffer},
                                 [sa = s.as<acc_t<T>>(), centered, maximize](
                                     auto& p, auto g, auto& sq, auto& ga, auto& buf) {
                                   auto c = sa;
                                   c.centered = centered;
                                   c.maximize = maximize;
                                   math::rmsprop_update(p, g, sq, ga, buf, c);
                                 });
        },
        s.centered, s.maximize);
  });
}

void adagrad_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* sum,
                  const math::AdagradScalars<double>& s) {
  dispatch_floating(dtype, "adagrad_step", [&]<typename T>() {
    with_constant_flags(
        [&](auto maximize) {
          for_each_element<T, 1>(n, param, grad, {sum},
                                 [sa = s.as<acc_t<T>>(), maximize](auto& p, auto g, auto& acc) {
                                   auto c = sa;
                                   c.maximize = maximize;
                                   math::adagrad_update(p, g, acc, c);
                                 });
        },
        s.maximize);
  });
}

}  // namespace accel::cpu
