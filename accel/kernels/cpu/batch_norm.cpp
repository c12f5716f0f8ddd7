// Batch normalization on the CPU. A channel's elements are `batch` runs of `spatial` contiguous
// elements: its sums fold each run (row_fold.h) and add the runs in batch order, on one thread.
// The element-wise passes take each run's channel numbers once, then walk the run.
#include "accel/kernels/cpu/batch_norm.h"

#include <algorithm>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/row_fold.h"

namespace accel::cpu {

namespace {

// Channels per parallel_for chunk: enough elements to be worth a thread.
int64_t channel_grain(BatchNormShape s) {
  return std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(s.count(), 1));
}

// The sum over channel c's elements of term(run, i), run pointing at element 0 of one of its
// batch runs: each run folded, the runs added in batch order.
template <typename A, typename Term>
A channel_sum(BatchNormShape s, int64_t c, const Term& term) {
  A total = 0;
  for (int64_t n = 0; n < s.batch; ++n) {
    const int64_t first = (n * s.channels + c) * s.spatial;
    total += fold_row<Add, A>(s.spatial, [&](int64_t i) { return term(first + i); });
  }
  return total;
}

// run(first, last, c) for each run [first, last) of `spatial` elements of one channel c, the
// runs split across threads.
template <typename Run>
void for_each_channel_run(BatchNormShape s, const Run& run) {
  parallel_for(0, s.batch * s.channels,
               std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(s.spatial, 1)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t row = begin; row < end; ++row) {
                   run(row * s.spatial, (row + 1) * s.spatial, row % s.channels);
                 }
               });
}

template <typename T>
void statistics_typed(const T* in, acc_t<T>* mean, acc_t<T>* var, BatchNormShape s) {
  using A = acc_t<T>;
  const A count = static_cast<A>(s.count());
  parallel_for(0, s.channels, channel_grain(s), [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      const A m = channel_sum<A>(s, c, [in](int64_t i) { return static_cast<A>(in[i]); }) / count;
      mean[c] = m;
      var[c] = channel_sum<A>(s, c,
                              [in, m](int64_t i) {
                                const A d = static_cast<A>(in[i]) - m;
                                return d * d;
                              }) /
               count;
    }
  });
}

// (x - mean) * k + bias with the multiplier k = invstd * weight per channel.
template <typename T>
void normalize_typed(const T* in, const acc_t<T>* mean, const acc_t<T>* invstd,
                     const acc_t<T>* weight, const acc_t<T>* bias, T* out, BatchNormShape s) {
  using A = acc_t<T>;
  for_each_channel_run(s, [&](int64_t first, int64_t last, int64_t c) {
    const A m = mean[c];
    const A k = weight != nullptr ? invstd[c] * weight[c] : invstd[c];
    const A b = bias != nullptr ? bias[c] : A(0);
    for (int64_t i = first; i < last; ++i) {
      out[i] = static_cast<T>((static_cast<A>(in[i]) - m) * k + b);
    }
  });
}

template <typename T>
void backward_reduce_typed(const T* grad, const T* in, const acc_t<T>* mean, const acc_t<T>* invstd,
                           acc_t<T>* sum_grad, acc_t<T>* sum_grad_xhat, BatchNormShape s) {
  using A = acc_t<T>;
  parallel_for(0, s.channels, channel_grain(s), [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      const A m = mean[c], rs = invstd[c];
      sum_grad[c] = channel_sum<A>(s, c, [grad](int64_t i) { return static_cast<A>(grad[i]); });
      sum_grad_xhat[c] = channel_sum<A>(s, c, [grad, in, m, rs](int64_t i) {
        return static_cast<A>(grad[i]) * ((static_cast<A>(in[i]) - m) * rs);
      });
    }
  });
}

// (grad - sum_grad / count - xhat * sum_grad_xhat / count) * invstd * weight, with xhat = (x -
// mean) * invstd, as grad * k - (x - mean) * q - offset per channel: k = invstd * weight, q = k *
// invstd * sum_grad_xhat / count, offset = k * sum_grad / count.
template <typename T>
void backward_input_typed(const T* grad, const T* in, const acc_t<T>* mean, const acc_t<T>* invstd,
                          const acc_t<T>* weight, const acc_t<T>* sum_grad,
                          const acc_t<T>* sum_grad_xhat, T* grad_in, BatchNormShape s) {
  using A = acc_t<T>;
  const A count = static_cast<A>(s.count());
  for_each_channel_run(s, [&](int64_t first, int64_t last, int64_t c) {
    const A m = mean[c];
    const A k = weight != nullptr ? invstd[c] * weight[c] : invstd[c];
    const A q = sum_grad_xhat != nullptr ? k * invstd[c] * sum_grad_xhat[c] / count : A(0);
    const A offset = sum_grad != nullptr ? k * sum_grad[c] / count : A(0);
    for (int64_t i = first; i < last; ++i) {
      grad_in[i] =
          static_cast<T>(static_cast<A>(grad[i]) * k - (static_cast<A>(in[i]) - m) * q - offset);
    }
  });
}

}  // namespace

void batch_norm_statistics(ScalarType type, const void* in, void* mean, void* var,
                           BatchNormShape shape) {
  dispatch_floating(type, "batch_norm", [&]<typename T>() {
    statistics_typed(static_cast<const T*>(in), static_cast<acc_t<T>*>(mean),
                     static_cast<acc_t<T>*>(var), shape);
  });
}

void batch_norm_normalize(ScalarType type, const void* in, const void* mean, const void* invstd,
                          const void* weight, const void* bias, void* out, BatchNormShape shape) {
  dispatch_floating(type, "batch_norm", [&]<typename T>() {
    using A = acc_t<T>;
    normalize_typed(static_cast<const T*>(in), static_cast<const A*>(mean),
                    static_cast<const A*>(invstd), static_cast<const A*>(weight),
                    static_cast<const A*>(bias), static_cast<T*>(out), shape);
  });
}

void batch_norm_backward_reduce(ScalarType type, const void* grad, const void* in, const void* mean,
                                const void* invstd, void* sum_grad, void* sum_grad_xhat,
                                BatchNormShape shape) {
  dispatch_floating(type, "batch_norm_backward", [&]<typename T>() {
    using A = acc_t<T>;
    backward_reduce_typed(static_cast<const T*>(grad), static_cast<const T*>(in),
                          static_cast<const A*>(mean), static_cast<const A*>(invstd),
                          static_cast<A*>(sum_grad), static_cast<A*>(sum_grad_xhat), shape);
  });
}

void batch_norm_backward_input(ScalarType type, const void* grad, const void* in, const void* mean,
                               const void* invstd, const void* weight, const void* sum_grad,
                               const void* sum_grad_xhat, void* grad_in, BatchNormShape shape) {
  dispatch_floating(type, "batch_norm_backward", [&]<typename T>() {
    using A = acc_t<T>;
    backward_input_typed(static_cast<const T*>(grad), static_cast<const T*>(in),
                         static_cast<const A*>(mean), static_cast<const A*>(invstd),
                         static_cast<const A*>(weight), static_cast<const A*>(sum_grad),
                         static_cast<const A*>(sum_grad_xhat), static_cast<T*>(grad_in), shape);
  });
}

}  // namespace accel::cpu
