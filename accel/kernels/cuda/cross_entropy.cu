// Cross-entropy over class indices on the GPU: the forward writes each position's log-sum-exp
// and loss, the backward recomputes every probability from that log-sum-exp, so the
// probabilities are never stored. The device twin of kernels/cpu/cross_entropy.cpp: both call
// the formulas of kernels/common/cross_entropy_math.h.
//
// Each position's classes are handled by one team of threads (kernels/cuda/line_teams.cuh): a
// warp per classifier row [N, C] of up to 1024 classes, a 512-thread block per longer row
// (vocabularies), one thread per position when inner > 1.
#include <cstdint>
#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/binary_math.h"
#include "accel/kernels/cuda/cross_entropy.h"
#include "accel/kernels/cuda/device_error.cuh"
#include "accel/kernels/cuda/line_teams.cuh"

namespace accel::cuda {

namespace {

constexpr const char* kOp = "cross_entropy";  // a host pointer: the device error record keeps it

struct Larger {  // the maximum, NaN winning (as on the CPU)
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return math::maximum_value(a, b);
  }
};

template <typename T>
struct Forward {
  const T* logits;
  const int64_t* target;
  const T* weight;
  T* loss;
  acc_t<T>* lse;
  T* target_weight;
  math::CrossEntropyScalars scalars;
  const char* op;
  DeviceErrorRecord* record;
  // Whether this thread (each has its own copy of the functor) has reported a bad target: a
  // thread reports once, so the blocks' cap bounds the reports a tensor of bad targets makes.
  bool reported = false;

  template <int kSize>
  __device__ void operator()(const Line& position, const Team<kSize>& team) {
    using A = acc_t<T>;
    const Strided<const T> x = position.of(logits);
    const int64_t classes = position.length;
    A max = -::cuda::std::numeric_limits<A>::infinity();
    for (int64_t c = team.rank(); c < classes; c += kSize) {
      max = math::maximum_value(max, static_cast<A>(x[c]));
    }
    const A shift = math::softmax_shift(team.combine(max, Larger{}));
    A total = 0;
    for (int64_t c = team.rank(); c < classes; c += kSize) {
      total += ::cuda::std::exp(static_cast<A>(x[c]) - shift);
    }
    const A row_lse = shift + ::cuda::std::log(team.combine(total, Plus{}));
    const int64_t p = position.index;
    const int64_t t = target[p];
    const auto terms = math::cross_entropy_terms<A>(t, weight, classes, scalars);
    A smoothing_sum = 0;
    if (terms.spread != A(0)) {  // the same for the whole team
      for (int64_t c = team.rank(); c < classes; c += kSize) {
        smoothing_sum += math::class_weight<A>(weight, c) * (static_cast<A>(x[c]) - row_lse);
      }
      smoothing_sum = team.combine(smoothing_sum, Plus{});
    }
    if (team.rank() != 0) return;
    if (!reported && !math::is_valid_class_target(t, classes, scalars.ignore_index)) {
      reported = true;
      report_device_error(record, DeviceErrorKind::ClassTargetOutOfRange, op, t, classes,
                          scalars.ignore_index);
    }
    const A target_log_prob = terms.kept ? static_cast<A>(x[t]) - row_lse : A(0);
    loss[p] = static_cast<T>(math::cross_entropy_loss(terms, target_log_prob, smoothing_sum));
    lse[p] = row_lse;
    if (target_weight != nullptr) target_weight[p] = static_cast<T>(terms.target_weight);
  }
};

template <typename T>
struct Backward {
  const T* logits;
  const int64_t* target;
  const T* weight;
  const acc_t<T>* lse;
  const T* grad;
  bool grad_is_scalar;
  T* grad_logits;
  math::CrossEntropyScalars scalars;

  template <int kSize>
  __device__ void operator()(const Line& position, const Team<kSize>& team) const {
    using A = acc_t<T>;
    const Strided<const T> x = position.of(logits);
    const Strided<T> dx = position.of(grad_logits);
    const int64_t classes = position.length;
    const int64_t p = position.index;
    const int64_t t = target[p];
    const auto terms = math::cross_entropy_terms<A>(t, weight, classes, scalars);
    // Every class's weight enters the softmax's scale only under label smoothing.
    A weight_sum = static_cast<A>(classes);
    if (terms.spread != A(0) && weight != nullptr) {  // the same for the whole team
      weight_sum = 0;
      for (int64_t c = team.rank(); c < classes; c += kSize) {
        weight_sum += static_cast<A>(weight[c]);
      }
      weight_sum = team.combine(weight_sum, Plus{});
    }
    const A scale = math::cross_entropy_softmax_scale(terms, weight_sum);
    const A g = static_cast<A>(grad[grad_is_scalar ? 0 : p]);
    const A row_lse = lse[p];
    for (int64_t c = team.rank(); c < classes; c += kSize) {
      const A prob = ::cuda::std::exp(static_cast<A>(x[c]) - row_lse);
      dx[c] = static_cast<T>(math::cross_entropy_grad(terms, scale, g, prob,
                                                      math::class_weight<A>(weight, c), c == t));
    }
  }
};

}  // namespace

void cross_entropy_forward(ScalarType type, const void* logits, const int64_t* target,
                           const void* weight, void* loss, void* lse, void* target_weight,
                           ReduceShape shape, const math::CrossEntropyScalars& s,
                           const Stream& stream) {
  dispatch_floating(type, kOp, [&]<typename T>() {
    const Forward<T> forward{static_cast<const T*>(logits),
                             target,
                             static_cast<const T*>(weight),
                             static_cast<T*>(loss),
                             static_cast<acc_t<T>*>(lse),
                             static_cast<T*>(target_weight),
                             s,
                             kOp,
                             device_error_record(stream.device().index)};
    for_each_line(shape, forward, stream, kOp);
  });
}

void cross_entropy_backward(ScalarType type, const void* logits, const int64_t* target,
                            const void* weight, const void* lse, const void* grad,
                            bool grad_is_scalar, void* grad_logits, ReduceShape shape,
                            const math::CrossEntropyScalars& s, const Stream& stream) {
  dispatch_floating(type, kOp, [&]<typename T>() {
    const Backward<T> backward{static_cast<const T*>(logits), target,
                               static_cast<const T*>(weight), static_cast<const acc_t<T>*>(lse),
                               static_cast<const T*>(grad),   grad_is_scalar,
                               static_cast<T*>(grad_logits),  s};
    for_each_line(shape, backward, stream, kOp);
  });
}

}  // namespace accel::cuda
