// Layer normalization on the CPU. The forward reads a row three times while it is in cache (its
// sum, its squared deviations from the mean, then the normalized output); the backward takes
// two sums over each row of the gradient and, in one more pass, writes the input's gradient and
// adds the row into its block's partial sums for the weight and bias (LayerNormShape). Sums run
// in float for 16-bit floats and float32, in double for float64.
#include "accel/kernels/cpu/layer_norm.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/row_fold.h"

namespace accel::cpu {

namespace {

constexpr const char* kOp = "layer_norm";

// Calls f.template operator()<HasWeight, HasBias>() for the affine parameters present, so
// each combination is its own loop without per-element tests.
template <typename F>
void with_affine(bool has_weight, bool has_bias, F&& f) {
  if (has_weight && has_bias) {
    f.template operator()<true, true>();
  } else if (has_weight) {
    f.template operator()<true, false>();
  } else if (has_bias) {
    f.template operator()<false, true>();
  } else {
    f.template operator()<false, false>();
  }
}

// Rows per parallel_for chunk: enough elements to be worth a thread.
int64_t row_grain(int64_t cols) {
  return std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(cols, 1));
}

template <typename T, bool HasWeight, bool HasBias>
void forward_typed(const T* in, const T* weight, const T* bias, T* out, acc_t<T>* mean,
                   acc_t<T>* rstd, LayerNormShape s, double eps) {
  using A = acc_t<T>;
  const A n = static_cast<A>(s.cols);
  parallel_for(0, s.rows, row_grain(s.cols), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const T* x = in + r * s.cols;
      const A m = fold_row<Add, A>(s.cols, [x](int64_t i) { return static_cast<A>(x[i]); }) / n;
      const A var = fold_row<Add, A>(s.cols,
                                     [x, m](int64_t i) {
                                       const A d = static_cast<A>(x[i]) - m;
                                       return d * d;
                                     }) /
                    n;
      const A rs = A(1) / std::sqrt(var + static_cast<A>(eps));
      mean[r] = m;
      rstd[r] = rs;
      T* y = out + r * s.cols;
      for (int64_t i = 0; i < s.cols; ++i) {
        A v = (static_cast<A>(x[i]) - m) * rs;
        if constexpr (HasWeight) v *= static_cast<A>(weight[i]);
        if constexpr (HasBias) v += static_cast<A>(bias[i]);
        y[i] = static_cast<T>(v);
      }
    }
  });
}

// grad_in = rstd * (gw - mean(gw) - xhat * mean(gw * xhat)) with gw = grad * weight and xhat
// = (x - mean) * rstd; the weight's gradient sums grad * xhat over the rows, the bias's grad.
template <typename T, bool HasWeight>
void backward_typed(const T* grad, const T* in, const acc_t<T>* mean, const acc_t<T>* rstd,
                    const T* weight, T* grad_in, T* grad_weight, T* grad_bias, LayerNormShape s) {
  using A = acc_t<T>;
  const A n = static_cast<A>(s.cols);
  const int64_t per_block = s.rows_per_block();
  const int64_t blocks = s.row_blocks();
  const size_t partial_size = static_cast<size_t>(blocks * s.cols);
  std::vector<A> weight_partials(grad_weight != nullptr ? partial_size : 0);
  std::vector<A> bias_partials(grad_bias != nullptr ? partial_size : 0);
  auto scaled = [&](const T* g, int64_t i) {
    if constexpr (HasWeight) {
      return static_cast<A>(g[i]) * static_cast<A>(weight[i]);
    } else {
      return static_cast<A>(g[i]);
    }
  };
  parallel_for(0, blocks, row_grain(per_block * s.cols), [&](int64_t first, int64_t last) {
    for (int64_t block = first; block < last; ++block) {
      A* weight_sums = grad_weight != nullptr ? weight_partials.data() + block * s.cols : nullptr;
      A* bias_sums = grad_bias != nullptr ? bias_partials.data() + block * s.cols : nullptr;
      const int64_t row_end = std::min(s.rows, (block + 1) * per_block);
      for (int64_t r = block * per_block; r < row_end; ++r) {
        const T* x = in + r * s.cols;
        const T* g = grad + r * s.cols;
        const A m = mean[r];
        const A rs = rstd[r];
        if (grad_in != nullptr) {
          const A gw_mean = fold_row<Add, A>(s.cols, [&](int64_t i) { return scaled(g, i); }) / n;
          const A gw_xhat_mean =
              fold_row<Add, A>(
                  s.cols,
                  [&](int64_t i) { return scaled(g, i) * ((static_cast<A>(x[i]) - m) * rs); }) /
              n;
          T* dx = grad_in + r * s.cols;
          for (int64_t i = 0; i < s.cols; ++i) {
            const A xhat = (static_cast<A>(x[i]) - m) * rs;
            dx[i] = static_cast<T>(rs * (scaled(g, i) - gw_mean - xhat * gw_xhat_mean));
          }
        }
        if (weight_sums != nullptr) {
          for (int64_t i = 0; i < s.cols; ++i) {
            weight_sums[i] += static_cast<A>(g[i]) * ((static_cast<A>(x[i]) - m) * rs);
          }
        }
        if (bias_sums != nullptr) {
          for (int64_t i = 0; i < s.cols; ++i) bias_sums[i] += static_cast<A>(g[i]);
        }
      }
    }
  });
  // Each column's block sums, in block order.
  auto combine = [&](const std::vector<A>& partials, T* out) {
    parallel_for(0, s.cols, row_grain(blocks), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        A total = 0;
        for (int64_t block = 0; block < blocks; ++block) total += partials[block * s.cols + i];
        out[i] = static_cast<T>(total);
      }
    });
  };
  if (grad_weight != nullptr) combine(weight_partials, grad_weight);
  if (grad_bias != nullptr) combine(bias_partials, grad_bias);
}

}  // namespace

void layer_norm(ScalarType type, const void* in, const void* weight, const void* bias, void* out,
                void* mean, void* rstd, LayerNormShape shape, double eps) {
  dispatch_floating(type, kOp, [&]<typename T>() {
    with_affine(weight != nullptr, bias != nullptr, [&]<bool HasWeight, bool HasBias>() {
      forward_typed<T, HasWeight, HasBias>(static_cast<const T*>(in), static_cast<const T*>(weight),
                                           static_cast<const T*>(bias), static_cast<T*>(out),
                                           static_cast<acc_t<T>*>(mean),
                                           static_cast<acc_t<T>*>(rstd), shape, eps);
    });
  });
}

void layer_norm_backward(ScalarType type, const void* grad, const void* in, const void* mean,
                         const void* rstd, const void* weight, void* grad_in, void* grad_weight,
                         void* grad_bias, LayerNormShape shape) {
  dispatch_floating(type, "layer_norm_backward", [&]<typename T>() {
    auto run = [&]<bool HasWeight>() {
      backward_typed<T, HasWeight>(static_cast<const T*>(grad), static_cast<const T*>(in),
                                   static_cast<const acc_t<T>*>(mean),
                                   static_cast<const acc_t<T>*>(rstd),
                                   static_cast<const T*>(weight), static_cast<T*>(grad_in),
                                   static_cast<T*>(grad_weight), static_cast<T*>(grad_bias), shape);
    };
    if (weight != nullptr) {
      run.template operator()<true>();
    } else {
      run.template operator()<false>();
    }
  });
}

}  // namespace accel::cpu
