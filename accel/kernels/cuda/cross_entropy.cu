// Cross-entropy over class indices on the GPU: the forward writes each position's log-sum-exp
// and loss, the backward recomputes every probability from that log-sum-exp, so the
// probabilities are never stored. The device twin of kernels/cpu/cross_entropy.cpp: both call
// the formulas of kernels/common/cross_entropy_math.h.
//
// Each position's classes are handled by one team of threads: a warp per position when
// positions are contiguous rows of up to 1024 classes (classifier logits [N, C]), a 512-thread
// block for longer rows (vocabularies), one thread per position when inner > 1, adjacent
// threads taking adjacent positions so that their reads coalesce. A team combines its members'
// partial maxima and sums in a fixed tree, with no atomics, so every run gives the same bits.
#include <algorithm>
#include <cstdint>
#include <cuda/std/cmath>
#include <cuda/std/limits>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/binary_math.h"
#include "accel/kernels/cuda/cross_entropy.h"
#include "accel/kernels/cuda/device_error.cuh"
#include "accel/kernels/cuda/launch.cuh"

namespace accel::cuda {

namespace {

constexpr const char* kOp = "cross_entropy";  // a host pointer: the device error record keeps it
constexpr int kWarp = 32;
constexpr int kLongRowTeam = 512;
constexpr int64_t kWarpRowMax = 1024;  // the longest row a warp takes (32 classes per lane)
// Grid-stride loops cover what this leaves over; it also bounds how many reports a tensor
// full of bad targets makes (a thread reports at most once).
constexpr int64_t kMaxBlocks = 4096;

struct Larger {  // the maximum, NaN winning (as on the CPU)
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return math::maximum_value(a, b);
  }
};

struct Plus {
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return a + b;
  }
};

// kSize threads handling one position together; member rank() takes classes rank(),
// rank() + kSize, ... combine() hands every member the same combination of the members'
// values, taken in a fixed order: lane 0 of each warp folds its warp by halving shuffles, and
// in a block-wide team thread 0's fold of the warps' results (in warp order) is shared.
template <int kSize>
struct Team {
  static constexpr int kThreads = std::max(kSize, 256);  // per block
  static constexpr int kPerBlock = kThreads / kSize;

  __device__ int rank() const { return static_cast<int>(threadIdx.x) % kSize; }

  template <typename A, typename Op>
  __device__ A combine(A v, Op op) const {
    if constexpr (kSize == 1) {
      return v;
    } else {
      for (int offset = kWarp / 2; offset > 0; offset /= 2) {
        v = op(v, __shfl_down_sync(0xffffffffu, v, offset));
      }
      if constexpr (kSize == kWarp) {
        return __shfl_sync(0xffffffffu, v, 0);
      } else {
        __shared__ A per_warp[kSize / kWarp];
        __shared__ A result;
        if (threadIdx.x % kWarp == 0) per_warp[threadIdx.x / kWarp] = v;
        __syncthreads();
        if (threadIdx.x == 0) {
          for (int w = 1; w < kSize / kWarp; ++w) v = op(v, per_warp[w]);
          result = v;
        }
        __syncthreads();
        const A total = result;
        __syncthreads();  // read by all before a later combine overwrites it
        return total;
      }
    }
  }
};

// position(p, first, s, team, reported) for every position p, `first` being the offset of its
// class-0 logit; `reported` is the thread's own flag, set once it has reported a bad target.
// A team's loop bound is the same for all its members, as its shuffles and barriers need.
template <int kSize, typename Position>
__global__ void __launch_bounds__(Team<kSize>::kThreads)
    positions_kernel(ReduceShape s, Position position) {
  const Team<kSize> team;
  bool reported = false;
  const int64_t positions = s.outer * s.inner;
  for (int64_t p = static_cast<int64_t>(blockIdx.x) * Team<kSize>::kPerBlock + threadIdx.x / kSize;
       p < positions; p += static_cast<int64_t>(gridDim.x) * Team<kSize>::kPerBlock) {
    const int64_t o = p / s.inner;
    position(p, o * s.reduced * s.inner + (p - o * s.inner), s, team, reported);
  }
}

template <int kSize, typename Position>
void launch_teams(ReduceShape s, Position position, cudaStream_t stream) {
  constexpr int64_t kPerBlock = Team<kSize>::kPerBlock;
  const int64_t blocks = std::min((s.outer * s.inner + kPerBlock - 1) / kPerBlock, kMaxBlocks);
  positions_kernel<kSize>
      <<<static_cast<unsigned>(blocks), Team<kSize>::kThreads, 0, stream>>>(s, position);
}

// Runs `position` over every position with the team size that suits the layout.
template <typename Position>
void for_each_position(ReduceShape s, Position position, const Stream& stream) {
  const cudaStream_t cuda_stream = launch_stream(stream);
  if (s.outer * s.inner == 0) return;
  if (s.inner > 1) {
    launch_teams<1>(s, position, cuda_stream);
  } else if (s.reduced <= kWarpRowMax) {
    launch_teams<kWarp>(s, position, cuda_stream);
  } else {
    launch_teams<kLongRowTeam>(s, position, cuda_stream);
  }
  check_launch(kOp);
}

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

  template <int kSize>
  __device__ void operator()(int64_t p, int64_t first, ReduceShape s, const Team<kSize>& team,
                             bool& reported) const {
    using A = acc_t<T>;
    const T* x = logits + first;
    const int64_t stride = s.inner;
    const int64_t classes = s.reduced;
    A max = -::cuda::std::numeric_limits<A>::infinity();
    for (int64_t c = team.rank(); c < classes; c += kSize) {
      max = math::maximum_value(max, static_cast<A>(x[c * stride]));
    }
    const A shift = math::softmax_shift(team.combine(max, Larger{}));
    A total = 0;
    for (int64_t c = team.rank(); c < classes; c += kSize) {
      total += ::cuda::std::exp(static_cast<A>(x[c * stride]) - shift);
    }
    const A row_lse = shift + ::cuda::std::log(team.combine(total, Plus{}));
    const int64_t t = target[p];
    const auto terms = math::cross_entropy_terms<A>(t, weight, classes, scalars);
    A smoothing_sum = 0;
    if (terms.spread != A(0)) {  // the same for the whole team
      for (int64_t c = team.rank(); c < classes; c += kSize) {
        smoothing_sum +=
            math::class_weight<A>(weight, c) * (static_cast<A>(x[c * stride]) - row_lse);
      }
      smoothing_sum = team.combine(smoothing_sum, Plus{});
    }
    if (team.rank() != 0) return;
    if (!reported && !math::is_valid_class_target(t, classes, scalars.ignore_index)) {
      reported = true;
      report_device_error(record, DeviceErrorKind::ClassTargetOutOfRange, op, t, classes,
                          scalars.ignore_index);
    }
    const A target_log_prob = terms.kept ? static_cast<A>(x[t * stride]) - row_lse : A(0);
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
  __device__ void operator()(int64_t p, int64_t first, ReduceShape s, const Team<kSize>& team,
                             bool& /*reported: the forward has reported a bad target*/) const {
    using A = acc_t<T>;
    const T* x = logits + first;
    T* dx = grad_logits + first;
    const int64_t stride = s.inner;
    const int64_t classes = s.reduced;
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
      const A prob = ::cuda::std::exp(static_cast<A>(x[c * stride]) - row_lse);
      dx[c * stride] = static_cast<T>(math::cross_entropy_grad(
          terms, scale, g, prob, math::class_weight<A>(weight, c), c == t));
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
    for_each_position(shape, forward, stream);
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
    for_each_position(shape, backward, stream);
  });
}

}  // namespace accel::cuda
