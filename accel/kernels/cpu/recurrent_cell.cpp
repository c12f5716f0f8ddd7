// LSTM and GRU steps on the CPU. Each row's units go through the shared math a vector at a
// time: every gate chunk and state is loaded as a vector of the accumulate type (float for
// 16-bit floats), so sigmoid and tanh run on SLEEF's vector functions, the same ones the
// element-wise ops use. Rows are split across threads.
#include "accel/kernels/cpu/recurrent_cell.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/vector_math.h"

namespace accel::cpu {

namespace {

template <typename T>
using UnitVector = simd::MathVector<acc_t<T>>;

// `count` units from p as a vector (the lanes past them zero).
template <typename T>
UnitVector<T> load(const T* p, int64_t count) {
  using A = acc_t<T>;
  if (count == UnitVector<T>::kLanes) return simd::load_lanes<A>(p);
  UnitVector<T> v(A(0));
  for (int64_t i = 0; i < count; ++i) v.lanes[i] = static_cast<A>(p[i]);
  return v;
}

template <typename T>
void store(T* p, UnitVector<T> v, int64_t count) {
  if (count == UnitVector<T>::kLanes) {
    simd::store_lanes(p, v);
  } else {
    for (int64_t i = 0; i < count; ++i) p[i] = static_cast<T>(v.lanes[i]);
  }
}

// Calls unit(state, gate, count) for each vector of `count` units of each row: `state` is the
// units' offset in a [batch, hidden] array, `gate` their offset in a [batch, gates * hidden]
// one (add k * hidden for chunk k).
template <typename T, typename F>
void each_unit_vector(RecurrentCellShape s, int64_t gates, F unit) {
  constexpr int64_t kLanes = UnitVector<T>::kLanes;
  // A unit computes up to five sigmoids and tanhs: it weighs about what eight plain
  // element-wise operations do.
  const int64_t grain =
      std::max<int64_t>(1, kElementwiseGrain / (8 * std::max<int64_t>(s.hidden, 1)));
  parallel_for(0, s.batch, grain, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      for (int64_t j = 0; j < s.hidden; j += kLanes) {
        unit(row * s.hidden + j, row * gates * s.hidden + j, std::min(kLanes, s.hidden - j));
      }
    }
  });
}

}  // namespace

void lstm_cell(ScalarType type, const void* x, const void* h_proj, const void* bias,
               const void* c_prev, void* gates, void* c, void* tanh_c, void* h,
               RecurrentCellShape shape) {
  dispatch_floating(type, "lstm_cell", [&]<typename T>() {
    const auto* xs = static_cast<const T*>(x);
    const auto* hp = static_cast<const T*>(h_proj);
    const auto* bs = static_cast<const T*>(bias);
    auto* gs = static_cast<T*>(gates);
    const int64_t hidden = shape.hidden;
    each_unit_vector<T>(shape, 4, [&](int64_t state, int64_t gate, int64_t count) {
      auto pre = [&](int64_t k) {
        const auto sum = load(xs + gate + k * hidden, count) + load(hp + gate + k * hidden, count);
        return bs == nullptr ? sum : sum + load(bs + k * hidden + state % hidden, count);
      };
      const auto u = math::lstm_unit(pre(0), pre(1), pre(2), pre(3),
                                     load(static_cast<const T*>(c_prev) + state, count));
      store(gs + gate, u.i, count);
      store(gs + gate + hidden, u.f, count);
      store(gs + gate + 2 * hidden, u.g, count);
      store(gs + gate + 3 * hidden, u.o, count);
      store(static_cast<T*>(c) + state, u.c, count);
      store(static_cast<T*>(tanh_c) + state, u.tanh_c, count);
      store(static_cast<T*>(h) + state, u.h, count);
    });
  });
}

void lstm_cell_backward(ScalarType type, const void* grad_h, const void* grad_c, const void* gates,
                        const void* tanh_c, const void* c_prev, void* grad_gates, void* grad_c_prev,
                        RecurrentCellShape shape) {
  dispatch_floating(type, "lstm_cell", [&]<typename T>() {
    const auto* gs = static_cast<const T*>(gates);
    auto* dg = static_cast<T*>(grad_gates);
    const int64_t hidden = shape.hidden;
    each_unit_vector<T>(shape, 4, [&](int64_t state, int64_t gate, int64_t count) {
      auto activated = [&](int64_t k) { return load(gs + gate + k * hidden, count); };
      auto at = [&](const void* p) { return load(static_cast<const T*>(p) + state, count); };
      const auto d = math::lstm_unit_backward(at(grad_h), at(grad_c), activated(0), activated(1),
                                              activated(2), activated(3), at(tanh_c), at(c_prev));
      store(dg + gate, d.i, count);
      store(dg + gate + hidden, d.f, count);
      store(dg + gate + 2 * hidden, d.g, count);
      store(dg + gate + 3 * hidden, d.o, count);
      store(static_cast<T*>(grad_c_prev) + state, d.c_prev, count);
    });
  });
}

void gru_cell(ScalarType type, const void* x, const void* h_proj, const void* h_prev, void* gates,
              void* h, RecurrentCellShape shape) {
  dispatch_floating(type, "gru_cell", [&]<typename T>() {
    const auto* xs = static_cast<const T*>(x);
    const auto* hp = static_cast<const T*>(h_proj);
    auto* gs = static_cast<T*>(gates);
    const int64_t hidden = shape.hidden;
    each_unit_vector<T>(shape, 3, [&](int64_t state, int64_t gate, int64_t count) {
      auto chunk = [&](const T* p, int64_t k) { return load(p + gate + k * hidden, count); };
      const auto u =
          math::gru_unit(chunk(xs, 0), chunk(xs, 1), chunk(xs, 2), chunk(hp, 0), chunk(hp, 1),
                         chunk(hp, 2), load(static_cast<const T*>(h_prev) + state, count));
      store(gs + gate, u.r, count);
      store(gs + gate + hidden, u.z, count);
      store(gs + gate + 2 * hidden, u.n, count);
      store(static_cast<T*>(h) + state, u.h, count);
    });
  });
}

void gru_cell_backward(ScalarType type, const void* grad_h, const void* gates, const void* h_proj,
                       const void* h_prev, void* grad_x, void* grad_h_proj, void* grad_h_prev,
                       RecurrentCellShape shape) {
  dispatch_floating(type, "gru_cell", [&]<typename T>() {
    const auto* gs = static_cast<const T*>(gates);
    auto* dx = static_cast<T*>(grad_x);
    auto* dhp = static_cast<T*>(grad_h_proj);
    const int64_t hidden = shape.hidden;
    each_unit_vector<T>(shape, 3, [&](int64_t state, int64_t gate, int64_t count) {
      auto activated = [&](int64_t k) { return load(gs + gate + k * hidden, count); };
      auto at = [&](const void* p) { return load(static_cast<const T*>(p) + state, count); };
      const auto d = math::gru_unit_backward(
          at(grad_h), activated(0), activated(1), activated(2),
          load(static_cast<const T*>(h_proj) + gate + 2 * hidden, count), at(h_prev));
      store(dx + gate, d.r, count);
      store(dx + gate + hidden, d.z, count);
      store(dx + gate + 2 * hidden, d.x_n, count);
      store(dhp + gate, d.r, count);
      store(dhp + gate + hidden, d.z, count);
      store(dhp + gate + 2 * hidden, d.h_n, count);
      store(static_cast<T*>(grad_h_prev) + state, d.h_prev, count);
    });
  });
}

}  // namespace accel::cpu
