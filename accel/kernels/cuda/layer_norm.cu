// Layer normalization on the GPU. Each row is one line of kernels/cuda/line_teams.cuh (a warp
// for rows of up to 1024 elements, a 512-thread block for longer ones): the forward combines
// the row's sum, then its squared deviations from the mean, then writes the output; the
// backward combines sum(grad * weight) and sum(grad * weight * xhat) and writes the input's
// gradient. The weight and bias gradients are column sums: one thread per column and block of
// rows sums its block in row order into scratch memory, and a second kernel adds each column's
// blocks in order (LayerNormShape), so every run gives the same bits.
#include <algorithm>
#include <cstdint>
#include <cuda/std/cmath>
#include <utility>

#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/layer_norm.h"
#include "accel/kernels/cuda/line_teams.cuh"
#include "accel/kernels/cuda/stream_buffer.h"

namespace accel::cuda {

namespace {

template <typename T>
struct Normalize {
  const T* in;
  const T* weight;  // null: no weight
  const T* bias;    // null: no bias
  T* out;
  acc_t<T>* mean;
  acc_t<T>* rstd;
  acc_t<T> eps;
  template <int kSize>
  __device__ void operator()(const Line& line, const Team<kSize>& team) const {
    using A = acc_t<T>;
    const Strided<const T> x = line.of(in);
    const A n = static_cast<A>(line.length);
    A total = 0;
    for (int64_t i = team.rank(); i < line.length; i += kSize) total += static_cast<A>(x[i]);
    const A m = team.combine(total, Plus{}) / n;
    A squares = 0;
    for (int64_t i = team.rank(); i < line.length; i += kSize) {
      const A d = static_cast<A>(x[i]) - m;
      squares += d * d;
    }
    const A rs = A(1) / ::cuda::std::sqrt(team.combine(squares, Plus{}) / n + eps);
    if (team.rank() == 0) {
      mean[line.index] = m;
      rstd[line.index] = rs;
    }
    const Strided<T> y = line.of(out);
    for (int64_t i = team.rank(); i < line.length; i += kSize) {
      A v = (static_cast<A>(x[i]) - m) * rs;
      if (weight != nullptr) v *= static_cast<A>(weight[i]);
      if (bias != nullptr) v += static_cast<A>(bias[i]);
      y[i] = static_cast<T>(v);
    }
  }
};

template <typename T>
struct NormalizeBackward {
  const T* grad;
  const T* in;
  const acc_t<T>* mean;
  const acc_t<T>* rstd;
  const T* weight;  // null: no weight
  T* grad_in;
  template <int kSize>
  __device__ void operator()(const Line& line, const Team<kSize>& team) const {
    using A = acc_t<T>;
    const Strided<const T> x = line.of(in);
    const Strided<const T> g = line.of(grad);
    const A n = static_cast<A>(line.length);
    const A m = mean[line.index];
    const A rs = rstd[line.index];
    auto scaled = [&](int64_t i) {
      const A gi = static_cast<A>(g[i]);
      return weight != nullptr ? gi * static_cast<A>(weight[i]) : gi;
    };
    A gw_total = 0;
    A gw_xhat_total = 0;
    for (int64_t i = team.rank(); i < line.length; i += kSize) {
      gw_total += scaled(i);
      gw_xhat_total += scaled(i) * ((static_cast<A>(x[i]) - m) * rs);
    }
    const A gw_mean = team.combine(gw_total, Plus{}) / n;
    const A gw_xhat_mean = team.combine(gw_xhat_total, Plus{}) / n;
    const Strided<T> dx = line.of(grad_in);
    for (int64_t i = team.rank(); i < line.length; i += kSize) {
      const A xhat = (static_cast<A>(x[i]) - m) * rs;
      dx[i] = static_cast<T>(rs * (scaled(i) - gw_mean - xhat * gw_xhat_mean));
    }
  }
};

// partials[block, c] = the sums over the block's rows of grad * xhat (weight) and grad (bias);
// either output may be null. Grid: (column groups, row blocks).
template <typename T>
__global__ void column_partials(const T* grad, const T* in, const acc_t<T>* mean,
                                const acc_t<T>* rstd, acc_t<T>* weight_partials,
                                acc_t<T>* bias_partials, LayerNormShape s) {
  using A = acc_t<T>;
  const int64_t c = global_thread_index();
  if (c >= s.cols) return;
  const int64_t block = blockIdx.y;
  const int64_t per_block = s.rows_per_block();
  const int64_t row_end = (block + 1) * per_block < s.rows ? (block + 1) * per_block : s.rows;
  A weight_sum = 0;
  A bias_sum = 0;
  for (int64_t r = block * per_block; r < row_end; ++r) {
    const A g = static_cast<A>(grad[r * s.cols + c]);
    weight_sum += g * ((static_cast<A>(in[r * s.cols + c]) - mean[r]) * rstd[r]);
    bias_sum += g;
  }
  if (weight_partials != nullptr) weight_partials[block * s.cols + c] = weight_sum;
  if (bias_partials != nullptr) bias_partials[block * s.cols + c] = bias_sum;
}

// out[c] = the sum of partials[block, c] over the blocks, in block order.
template <typename T>
__global__ void combine_columns(const acc_t<T>* partials, T* out, int64_t cols, int64_t blocks) {
  const int64_t c = global_thread_index();
  if (c >= cols) return;
  acc_t<T> total = 0;
  for (int64_t block = 0; block < blocks; ++block) total += partials[block * cols + c];
  out[c] = static_cast<T>(total);
}

ReduceShape rows_of(LayerNormShape s) { return ReduceShape{s.rows, s.cols, 1}; }

}  // namespace

void layer_norm(ScalarType type, const void* in, const void* weight, const void* bias, void* out,
                void* mean, void* rstd, LayerNormShape shape, double eps, const Stream& stream) {
  dispatch_floating(type, "layer_norm", [&]<typename T>() {
    using A = acc_t<T>;
    for_each_line(rows_of(shape),
                  Normalize<T>{static_cast<const T*>(in), static_cast<const T*>(weight),
                               static_cast<const T*>(bias), static_cast<T*>(out),
                               static_cast<A*>(mean), static_cast<A*>(rstd), static_cast<A>(eps)},
                  stream, "layer_norm");
  });
}

void layer_norm_backward(ScalarType type, const void* grad, const void* in, const void* mean,
                         const void* rstd, const void* weight, void* grad_in, void* grad_weight,
                         void* grad_bias, LayerNormShape shape, const Stream& stream) {
  constexpr const char* op = "layer_norm_backward";
  dispatch_floating(type, op, [&]<typename T>() {
    using A = acc_t<T>;
    const auto* g = static_cast<const T*>(grad);
    const auto* x = static_cast<const T*>(in);
    const auto* m = static_cast<const A*>(mean);
    const auto* rs = static_cast<const A*>(rstd);
    if (grad_in != nullptr) {
      for_each_line(rows_of(shape),
                    NormalizeBackward<T>{g, x, m, rs, static_cast<const T*>(weight),
                                         static_cast<T*>(grad_in)},
                    stream, op);
    }
    if ((grad_weight == nullptr && grad_bias == nullptr) || shape.cols == 0) return;
    const cudaStream_t s = launch_stream(stream);
    // The weight's partial sums, then the bias's; at least one block, so that rows == 0 still
    // writes zero gradients.
    const int64_t blocks = std::max<int64_t>(shape.row_blocks(), 1);
    const StreamBuffer partials(2 * blocks * shape.cols * static_cast<int64_t>(sizeof(A)), s, op);
    A* const weight_partials = partials.get<A>();
    A* const bias_partials = weight_partials + blocks * shape.cols;
    const dim3 grid(blocks_for(shape.cols), static_cast<unsigned>(blocks));
    column_partials<T><<<grid, kThreadsPerBlock, 0, s>>>(
        g, x, m, rs, grad_weight != nullptr ? weight_partials : nullptr,
        grad_bias != nullptr ? bias_partials : nullptr, shape);
    check_launch(op);
    for (auto [partial, out] : {std::pair{weight_partials, grad_weight},
                                std::pair{bias_partials, static_cast<void*>(grad_bias)}}) {
      if (out == nullptr) continue;
      combine_columns<T><<<blocks_for(shape.cols), kThreadsPerBlock, 0, s>>>(
          partial, static_cast<T*>(out), shape.cols, blocks);
      check_launch(op);
    }
  });
}

}  // namespace accel::cuda
