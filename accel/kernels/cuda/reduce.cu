// Reductions on the GPU (sum, prod and its gradient, max/min with indices, var/std,
// logsumexp): the device twin of kernels/cpu/reduce.cpp, with its accumulate types and special
// cases, all built on one deterministic fold over the [outer, reduced, inner] view.
//
// The fold: a block of 256 threads takes a tile of adjacent outputs and one chunk of r. Each
// output's terms are split among `lanes` threads that fold them serially, and the lanes are
// combined by a fixed tree in shared memory. Contiguous rows (inner == 1) longer than a warp
// put the lanes of a row side by side, so a warp reads consecutive elements; otherwise the
// lanes are strided by the tile width and a warp reads 32 adjacent outputs at one r. Long
// reductions are cut into chunks folded by different blocks into a scratch buffer, which the
// same fold then combines. Layout and chunking depend on the shape alone and nothing combines
// through atomics, so every run, on any GPU, gives the same bits.
#include <algorithm>
#include <cstdint>
#include <cuda/std/cmath>
#include <cuda/std/limits>
#include <type_traits>

#include "accel/base/dispatch.h"
#include "accel/kernels/cuda/launch.cuh"
#include "accel/kernels/cuda/reduce.h"
#include "accel/kernels/cuda/stream_buffer.h"

namespace accel::cuda {

namespace {

// ---- the fold engine ----

constexpr int kFoldThreads = 256;
// Terms per chunk: a block folds at most this many terms of each of its outputs, so a long
// reduction spreads over many blocks. Rows hold up to 64 terms per thread, columns 128.
constexpr int64_t kRowChunk = 16384;
constexpr int64_t kColumnChunk = 1024;
constexpr int64_t kMaxChunks = 65535;      // the grid's y limit
constexpr int64_t kMaxTiles = 0x7fffffff;  // the grid's x limit; a loop covers any more

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

struct FoldLayout {
  int lanes;            // threads per output, a power of two
  bool adjacent_lanes;  // a row's lanes are adjacent threads (else strided by the tile width)
  int64_t chunk;        // terms of r per block
};

FoldLayout plan_fold(ReduceShape s) {
  const bool rows = s.inner == 1 && s.reduced > 32;
  // Rows get about 16 terms per lane before the chunking; columns up to 8 lanes.
  const int64_t wanted = rows ? ceil_div(s.reduced, 16) : s.reduced;
  const int max_lanes = rows ? kFoldThreads : 8;
  int lanes = rows ? 32 : 1;
  while (lanes < max_lanes && lanes < wanted) lanes *= 2;
  const int64_t chunk = std::max(rows ? kRowChunk : kColumnChunk, ceil_div(s.reduced, kMaxChunks));
  return {lanes, rows, chunk};
}

// out[j] (j = o * inner + i) = store(fold of term(in[o, r, i], r, j) over r). With
// `partials`, block (tile, c) instead writes the fold of its chunk c of r to
// partials[o, c, i] as it is.
template <typename Fold, typename Src, typename Term, typename Store>
__global__ void __launch_bounds__(kFoldThreads)
    fold_kernel(const Src* in, ReduceShape s, FoldLayout layout, Fold combine, Term term,
                Store store, typename Fold::Acc* partials) {
  using Acc = typename Fold::Acc;
  __shared__ Acc folded[kFoldThreads];
  const int t = static_cast<int>(threadIdx.x);
  const int columns = kFoldThreads / layout.lanes;
  const int column = layout.adjacent_lanes ? t / layout.lanes : t % columns;
  const int lane = layout.adjacent_lanes ? t % layout.lanes : t / columns;
  const int partner_distance = layout.adjacent_lanes ? 1 : columns;
  const int64_t chunk = blockIdx.y;
  const int64_t r_begin = chunk * layout.chunk + lane;
  const int64_t chunk_end = (chunk + 1) * layout.chunk;
  const int64_t r_end = chunk_end < s.reduced ? chunk_end : s.reduced;
  const int64_t outputs = s.outer * s.inner;
  const int64_t tiles = (outputs + columns - 1) / columns;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t j = tile * columns + column;
    const int64_t o = j / s.inner;
    const int64_t i = j - o * s.inner;
    Acc acc = combine.identity();
    if (j < outputs && r_begin < r_end) {
      const Src* x = in + (o * s.reduced + r_begin) * s.inner + i;
      const int64_t step = layout.lanes * s.inner;
#pragma unroll 4
      for (int64_t r = r_begin; r < r_end; r += layout.lanes, x += step) {
        acc = combine(acc, term(*x, r, j));
      }
    }
    folded[t] = acc;
    __syncthreads();
    for (int width = layout.lanes / 2; width > 0; width /= 2) {
      if (lane < width) folded[t] = combine(folded[t], folded[t + width * partner_distance]);
      __syncthreads();
    }
    // Each thread reads only its own slot from here, so the next tile may start writing.
    if (lane == 0 && j < outputs) {
      if (partials != nullptr) {
        partials[(o * gridDim.y + chunk) * s.inner + i] = folded[t];
      } else {
        store(j, folded[t]);
      }
    }
  }
}

// A term that is its element converted to A (partial results pass through unchanged).
template <typename A>
struct Cast {
  template <typename In>
  __device__ A operator()(In v, int64_t, int64_t) const {
    return static_cast<A>(v);
  }
};

// Folds term(in[o, r, i]) over r with `combine` and hands each output's result to store(j, acc).
// Fold is a functor with `Acc`, identity() and a call operator combining two Accs.
template <typename Fold, typename Src, typename Term, typename Store>
void fold(const Src* in, ReduceShape s, Fold combine, Term term, Store store, cudaStream_t stream,
          const char* op) {
  using Acc = typename Fold::Acc;
  const int64_t outputs = s.outer * s.inner;
  if (outputs == 0) return;
  const FoldLayout layout = plan_fold(s);
  const int64_t chunks = std::max<int64_t>(1, ceil_div(s.reduced, layout.chunk));
  const dim3 grid(
      static_cast<unsigned>(std::min(ceil_div(outputs, kFoldThreads / layout.lanes), kMaxTiles)),
      static_cast<unsigned>(chunks));
  if (chunks == 1) {
    fold_kernel<<<grid, kFoldThreads, 0, stream>>>(in, s, layout, combine, term, store, nullptr);
    check_launch(op);
    return;
  }
  StreamBuffer partials(outputs * chunks * static_cast<int64_t>(sizeof(Acc)), stream, op);
  fold_kernel<<<grid, kFoldThreads, 0, stream>>>(in, s, layout, combine, term, store,
                                                 partials.get<Acc>());
  check_launch(op);
  fold(partials.get<const Acc>(), ReduceShape{s.outer, chunks, s.inner}, combine, Cast<Acc>{},
       store, stream, op);
}

// ---- sum and prod ----

// Signed integers wrap around on overflow, as on the CPU, instead of being undefined: the
// arithmetic runs in the unsigned type.
template <typename T>
using wrapping_t = typename std::conditional_t<std::is_integral_v<T> && std::is_signed_v<T>,
                                               std::make_unsigned<T>, std::type_identity<T>>::type;

template <typename A>
struct Sum {
  using Acc = A;
  __device__ A identity() const { return A(0); }
  __device__ A operator()(A a, A b) const {
    return static_cast<A>(static_cast<wrapping_t<A>>(a) + static_cast<wrapping_t<A>>(b));
  }
};

template <typename A>
struct Product {
  using Acc = A;
  __device__ A identity() const { return A(1); }
  __device__ A operator()(A a, A b) const {
    return static_cast<A>(static_cast<wrapping_t<A>>(a) * static_cast<wrapping_t<A>>(b));
  }
};

template <typename A>
struct Square {
  template <typename In>
  __device__ A operator()(In v, int64_t, int64_t) const {
    return static_cast<A>(v) * static_cast<A>(v);
  }
};

template <typename Out>
struct CastStore {
  Out* out;
  template <typename A>
  __device__ void operator()(int64_t j, A total) const {
    out[j] = static_cast<Out>(total);
  }
};

// The square root of each total (the 2-norm from the sum of squares).
template <typename T>
struct RootStore {
  T* out;
  template <typename A>
  __device__ void operator()(int64_t j, A total) const {
    out[j] = static_cast<T>(::cuda::std::sqrt(total));
  }
};

// sum or prod (Op) of any input dtype into any numeric output, accumulating in acc_t<Out>.
template <template <typename> class Op>
void fold_numbers(ScalarType out_type, ScalarType in_type, const void* in, void* out,
                  ReduceShape shape, const Stream& stream, const char* op) {
  const cudaStream_t s = launch_stream(stream);
  dispatch_numeric(out_type, op, [&]<typename Out>() {
    dispatch_all(in_type, op, [&]<typename In>() {
      using A = acc_t<Out>;
      fold(static_cast<const In*>(in), shape, Op<A>{}, Cast<A>{},
           CastStore<Out>{static_cast<Out*>(out)}, s, op);
    });
  });
}

// The product of an output's nonzero terms and how many of its terms are zero: enough for
// each term's "product of the others".
template <typename C>
struct ZeroSplit {
  C nonzero_product;
  int64_t zeros;
};

template <typename C>
struct ProductOfNonzeros {
  using Acc = ZeroSplit<C>;
  __device__ Acc identity() const { return {C(1), 0}; }
  __device__ Acc operator()(Acc a, Acc b) const {
    return {a.nonzero_product * b.nonzero_product, a.zeros + b.zeros};
  }
};

template <typename C>
struct SplitZero {
  template <typename T>
  __device__ ZeroSplit<C> operator()(T v, int64_t, int64_t) const {
    const C c = static_cast<C>(v);
    return c == C(0) ? ZeroSplit<C>{C(1), 1} : ZeroSplit<C>{c, 0};
  }
};

template <typename C>
struct SplitStore {
  ZeroSplit<C>* splits;
  __device__ void operator()(int64_t j, ZeroSplit<C> split) const { splits[j] = split; }
};

template <typename T>
__global__ void prod_backward_kernel(const T* in, const T* grad, T* grad_in,
                                     const ZeroSplit<acc_t<T>>* splits, ReduceShape s) {
  using C = acc_t<T>;
  const int64_t n = s.outer * s.reduced * s.inner;
  for (int64_t e = global_thread_index(); e < n; e += grid_stride()) {
    const int64_t j = e / (s.reduced * s.inner) * s.inner + e % s.inner;
    const ZeroSplit<C> split = splits[j];
    const C v = static_cast<C>(in[e]);
    const C g = static_cast<C>(grad[j]);
    C d = C(0);
    if (split.zeros == 0) {
      d = g * (split.nonzero_product / v);
    } else if (split.zeros == 1 && v == C(0)) {
      d = g * split.nonzero_product;
    }
    grad_in[e] = static_cast<T>(d);
  }
}

// ---- max and min ----

template <typename C>
__device__ bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) {
    return v != v;
  } else {
    return false;
  }
}

// Whether a is a strictly better maximum (or minimum) than b; NaN beats every number, as in
// PyTorch.
template <bool Max, typename C>
__device__ bool beats(C a, C b) {
  if (is_nan(a) || is_nan(b)) return is_nan(a) && !is_nan(b);
  return Max ? a > b : a < b;
}

// The value every element beats or ties: -inf (or the lowest value) for a maximum.
template <bool Max, typename C>
__device__ C worst() {
  using limits = ::cuda::std::numeric_limits<C>;
  if constexpr (limits::has_infinity) {
    return Max ? -limits::infinity() : limits::infinity();
  } else {
    return Max ? limits::lowest() : limits::max();
  }
}

template <bool Max, typename C>
struct Extreme {
  using Acc = C;
  __device__ C identity() const { return worst<Max, C>(); }
  __device__ C operator()(C a, C b) const { return beats<Max>(b, a) ? b : a; }
};

template <typename C>
struct Candidate {
  C value;
  int64_t index;
};

// The extremum with the first index attaining it: ties go to the smaller index, which makes
// the combination independent of the tree's order. The identity's index loses every tie.
template <bool Max, typename C>
struct ExtremeCandidate {
  using Acc = Candidate<C>;
  __device__ Acc identity() const {
    return {worst<Max, C>(), ::cuda::std::numeric_limits<int64_t>::max()};
  }
  __device__ Acc operator()(Acc a, Acc b) const {
    if (beats<Max>(b.value, a.value)) return b;
    if (beats<Max>(a.value, b.value)) return a;
    return b.index < a.index ? b : a;
  }
};

template <typename C>
struct AsCandidate {
  template <typename T>
  __device__ Candidate<C> operator()(T v, int64_t r, int64_t) const {
    return {static_cast<C>(v), r};
  }
};

template <typename T>
struct ExtremumStore {
  T* values;  // either may be null
  int64_t* indices;
  __device__ void operator()(int64_t j, Candidate<acc_t<T>> best) const {
    if (values != nullptr) values[j] = static_cast<T>(best.value);
    if (indices != nullptr) indices[j] = best.index;
  }
};

template <typename T>
__global__ void scatter_reduced_kernel(const T* grad, const int64_t* indices, T* grad_in,
                                       ReduceShape s) {
  const int64_t outputs = s.outer * s.inner;
  for (int64_t j = global_thread_index(); j < outputs; j += grid_stride()) {
    const int64_t o = j / s.inner;
    const int64_t i = j - o * s.inner;
    grad_in[(o * s.reduced + indices[j]) * s.inner + i] = grad[j];
  }
}

// ---- variance: two passes in double, as on the CPU ----

struct MeanStore {
  double* mean;
  double count;
  __device__ void operator()(int64_t j, double total) const { mean[j] = total / count; }
};

struct SquaredDeviation {
  const double* mean;
  template <typename T>
  __device__ double operator()(T v, int64_t, int64_t j) const {
    const double d = static_cast<double>(v) - mean[j];
    return d * d;
  }
};

template <typename T>
struct MomentsStore {
  T* out;
  T* mean_out;  // may be null
  const double* mean;
  double divisor;
  bool take_sqrt;
  __device__ void operator()(int64_t j, double m2) const {
    const double var = m2 / divisor;
    out[j] = static_cast<T>(take_sqrt ? ::cuda::std::sqrt(var) : var);
    if (mean_out != nullptr) mean_out[j] = static_cast<T>(mean[j]);
  }
};

// ---- logsumexp: the maximum, then the sum of exps shifted by it ----

// An infinite maximum would give inf - inf: shift by 0 instead, as the CPU does.
template <typename C>
struct ShiftStore {
  C* shift;
  __device__ void operator()(int64_t j, C max) const {
    shift[j] = ::cuda::std::isinf(max) ? C(0) : max;
  }
};

template <typename C>
struct ShiftedExp {
  const C* shift;
  template <typename T>
  __device__ C operator()(T v, int64_t, int64_t j) const {
    return ::cuda::std::exp(static_cast<C>(v) - shift[j]);
  }
};

template <typename T>
struct LogSumStore {
  T* out;
  const acc_t<T>* shift;
  __device__ void operator()(int64_t j, acc_t<T> total) const {
    out[j] = static_cast<T>(::cuda::std::log(total) + shift[j]);
  }
};

}  // namespace

void sum(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape,
         const Stream& stream) {
  fold_numbers<Sum>(out_type, in_type, in, out, shape, stream, "sum");
}

void two_norm(ScalarType type, const void* in, void* out, ReduceShape shape, const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  dispatch_floating(type, "norm", [&]<typename T>() {
    using A = acc_t<T>;
    fold(static_cast<const T*>(in), shape, Sum<A>{}, Square<A>{},
         RootStore<T>{static_cast<T*>(out)}, s, "norm");
  });
}

void prod(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape,
          const Stream& stream) {
  fold_numbers<Product>(out_type, in_type, in, out, shape, stream, "prod");
}

void prod_backward(ScalarType type, const void* in, const void* grad, void* grad_in,
                   ReduceShape shape, const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  dispatch_floating(type, "prod", [&]<typename T>() {
    using C = acc_t<T>;
    const int64_t n = shape.outer * shape.reduced * shape.inner;
    if (n == 0) return;
    const auto* x = static_cast<const T*>(in);
    StreamBuffer splits(shape.outer * shape.inner * static_cast<int64_t>(sizeof(ZeroSplit<C>)), s,
                        "prod");
    fold(x, shape, ProductOfNonzeros<C>{}, SplitZero<C>{},
         SplitStore<C>{splits.get<ZeroSplit<C>>()}, s, "prod");
    prod_backward_kernel<<<blocks_for(n), kThreadsPerBlock, 0, s>>>(
        x, static_cast<const T*>(grad), static_cast<T*>(grad_in), splits.get<ZeroSplit<C>>(),
        shape);
    check_launch("prod");
  });
}

void extremum(Extremum kind, ScalarType type, const void* in, void* values, int64_t* indices,
              ReduceShape shape, const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  const char* op = kind == Extremum::Max ? "max" : "min";
  dispatch_all(type, op, [&]<typename T>() {
    using C = acc_t<T>;
    const auto* x = static_cast<const T*>(in);
    const ExtremumStore<T> store{static_cast<T*>(values), indices};
    if (kind == Extremum::Max) {
      fold(x, shape, ExtremeCandidate<true, C>{}, AsCandidate<C>{}, store, s, op);
    } else {
      fold(x, shape, ExtremeCandidate<false, C>{}, AsCandidate<C>{}, store, s, op);
    }
  });
}

void scatter_reduced(ScalarType type, const void* grad, const int64_t* indices, void* grad_in,
                     ReduceShape shape, const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  dispatch_floating(type, "scatter_reduced", [&]<typename T>() {
    const int64_t outputs = shape.outer * shape.inner;
    if (outputs == 0) return;
    scatter_reduced_kernel<<<blocks_for(outputs), kThreadsPerBlock, 0, s>>>(
        static_cast<const T*>(grad), indices, static_cast<T*>(grad_in), shape);
    check_launch("scatter_reduced");
  });
}

void moments(ScalarType type, const void* in, void* out, void* mean, ReduceShape shape,
             int64_t correction, bool take_sqrt, const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  const char* op = take_sqrt ? "std" : "var";
  dispatch_floating(type, op, [&]<typename T>() {
    const int64_t outputs = shape.outer * shape.inner;
    if (outputs == 0) return;
    const auto* x = static_cast<const T*>(in);
    StreamBuffer means(outputs * static_cast<int64_t>(sizeof(double)), s, op);
    fold(x, shape, Sum<double>{}, Cast<double>{},
         MeanStore{means.get<double>(), static_cast<double>(shape.reduced)}, s, op);
    const double divisor = static_cast<double>(std::max<int64_t>(0, shape.reduced - correction));
    fold(x, shape, Sum<double>{}, SquaredDeviation{means.get<double>()},
         MomentsStore<T>{static_cast<T*>(out), static_cast<T*>(mean), means.get<double>(), divisor,
                         take_sqrt},
         s, op);
  });
}

void logsumexp(ScalarType type, const void* in, void* out, ReduceShape shape,
               const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  dispatch_floating(type, "logsumexp", [&]<typename T>() {
    using C = acc_t<T>;
    const int64_t outputs = shape.outer * shape.inner;
    if (outputs == 0) return;
    const auto* x = static_cast<const T*>(in);
    StreamBuffer shifts(outputs * static_cast<int64_t>(sizeof(C)), s, "logsumexp");
    fold(x, shape, Extreme<true, C>{}, Cast<C>{}, ShiftStore<C>{shifts.get<C>()}, s, "logsumexp");
    fold(x, shape, Sum<C>{}, ShiftedExp<C>{shifts.get<C>()},
         LogSumStore<T>{static_cast<T*>(out), shifts.get<C>()}, s, "logsumexp");
  });
}

}  // namespace accel::cuda
