// The benchmark workloads, written once for every tensor library that runs them: accel and
// LibTorch spell these calls alike, so each library supplies a small adapter `Lib` and gets
// identical workloads (small-op overhead of a + b with and without autograd recording, matmul
// GFLOP/s, the bandwidth of a large element-wise add and of a transposed copy, activations built
// on exp, tanh and erf, a Linear layer's forward + backward, normalization and loss layers, a
// small CNN's training step, an LSTM and multi-head attention, topk, cumsum, sort, unique,
// searchsorted, grid_sample, indexing and padding ops and the linear-algebra factorizations). No
// accel, Eigen or Torch headers here: the adapters live in accel_workloads.cpp and
// torch_workloads.cpp.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace bench {

// Each workload runs at these intra-op thread counts (the benchmark argument "threads").
inline constexpr int kThreadCounts[] = {1, 2};

// Per-op overhead: a + b on small float32 tensors, with and without autograd recording: [1]
// is pure overhead; [16..64, 128] are the sizes of the MLP's activations.
struct AddShape {
  const char* name;
  const char* name_with_autograd;
  int64_t numel;
};
inline constexpr AddShape kAddShapes[] = {
    {"add[1]", "add[1]+autograd", 1},
    {"add[16,128]", "add[16,128]+autograd", 16 * 128},
    {"add[32,128]", "add[32,128]+autograd", 32 * 128},
    {"add[64,128]", "add[64,128]+autograd", 64 * 128},
};

// Matrix products: [m, k] x [k, n] in float32.
struct GemmShape {
  const char* name;
  int64_t m, k, n;
  double flops() const { return 2.0 * static_cast<double>(m * k * n); }
};
// The MLP's first layer, the CNN's convolutions as one product over the batch (weights times
// unfolded images) and its first Linear, and a large square product.
inline constexpr GemmShape kGemmShapes[] = {
    {"matmul[32x784]x[784x128]", 32, 784, 128},
    {"matmul[32x9]x[9x50176]", 32, 9, 50176},
    {"matmul[64x288]x[288x12544]", 64, 288, 12544},
    {"matmul[64x3136]x[3136x128]", 64, 3136, 128},
    {"matmul[1024x1024]x[1024x1024]", 1024, 1024, 1024},
};

// Linear(784 -> 128) forward + backward at a batch size, the input not requiring grad (a first
// layer): the GEMMs it contains are the forward x W^T and the weight gradient g^T x, which
// the Eigen baseline times alone.
struct LinearShape {
  const char* name;
  int64_t batch, in, out;
  double flops() const { return 2.0 * 2.0 * static_cast<double>(batch * in * out); }
};
inline constexpr LinearShape kLinearShapes[] = {
    {"linear[32x784->128] fwd+bwd", 32, 784, 128},
    {"linear[256x784->128] fwd+bwd", 256, 784, 128},
    {"linear[64x3136->128] fwd+bwd", 64, 3136, 128},
};

// The small CNN's layers alone, forward + backward at its batch size: each convolution
// (3x3, pad 1; the first has no input gradient, as the first layer of a model), the first
// max-pool, and the classifier's first Linear.
struct ConvShape {
  const char* name;
  int64_t in_channels, out_channels, size;  // square images
  bool input_grad;
};
inline constexpr ConvShape kConvShapes[] = {
    {"conv2d[64x1x28x28->32,3x3] fwd+bwd", 1, 32, 28, false},
    {"conv2d[64x32x14x14->64,3x3] fwd+bwd", 32, 64, 14, true},
};
inline constexpr const char* kMaxPool = "max_pool2d[64x32x28x28,2] fwd+bwd";

// One training step of the small CNN on MNIST-shaped input (batch 64, 1x28x28):
// Conv2d(1->32, 3x3, pad 1), ReLU, MaxPool2d(2), Conv2d(32->64, 3x3, pad 1), ReLU,
// MaxPool2d(2), Flatten, Linear(3136->128), ReLU, Linear(128->10); cross-entropy; Adam(1e-3).
inline constexpr const char* kSmallCnnStep = "small_cnn train step [64x1x28x28]";
inline constexpr int64_t kCnnBatch = 64;

// A large element-wise op: out = a + b over kLargeNumel float32 elements each. Bandwidth
// counts bytes read plus bytes written: three arrays of 64 MB per call.
inline constexpr const char* kAddLarge = "add[16M]+[16M]";
inline constexpr int64_t kLargeNumel = int64_t{16} << 20;
inline constexpr double kAddLargeBytes = 3.0 * kLargeNumel * sizeof(float);

// A transposed copy, x.t().contiguous() of a float32 [kTransposeSize, kTransposeSize] matrix:
// reads and writes 16 MB each, one side in strides of a whole row.
inline constexpr const char* kTranspose = "transpose copy [2048x2048]";
inline constexpr int64_t kTransposeSize = 2048;

// Element-wise functions built on exp, log, tanh or erf, and branchy activations (forward,
// float32): where a library's vectorized transcendental math and selects show.
enum class Activation { Exp, Log, Tanh, Sigmoid, Gelu, Silu, Elu, Softplus, Hardswish, Mish };
struct ActivationShape {
  const char* name;
  Activation function;
};
inline constexpr ActivationShape kActivations[] = {
    {"exp[1M]", Activation::Exp},
    {"log[1M]", Activation::Log},
    {"tanh[1M]", Activation::Tanh},
    {"sigmoid[1M]", Activation::Sigmoid},
    {"gelu[1M]", Activation::Gelu},
    {"silu[1M]", Activation::Silu},
    {"elu[1M]", Activation::Elu},
    {"softplus[1M]", Activation::Softplus},
    {"hardswish[1M]", Activation::Hardswish},
    {"mish[1M]", Activation::Mish},
};
inline constexpr int64_t kActivationNumel = int64_t{1} << 20;

// Sampling 1M float32 values: what random initialization, noise and masks start from.
inline constexpr const char* kRandn = "randn[1M]";
inline constexpr const char* kRand = "rand[1M]";
inline constexpr int64_t kSampleNumel = int64_t{1} << 20;

// Normalization and loss layers in training, forward + backward with the input requiring grad
// (a layer inside a network): LayerNorm over a transformer-sized row, BatchNorm2d over a CNN's
// activations, cross-entropy over a classifier's logits. Rates count rows (samples).
inline constexpr const char* kLayerNorm = "layer_norm[256x4096] fwd+bwd";
inline constexpr int64_t kLayerNormRows = 256;
inline constexpr int64_t kLayerNormCols = 4096;
inline constexpr const char* kBatchNorm = "batch_norm2d[32x64x32x32] train fwd+bwd";
inline constexpr int64_t kBatchNormBatch = 32;
inline constexpr const char* kCrossEntropy = "cross_entropy[512x1000] fwd+bwd";
inline constexpr int64_t kCrossEntropyRows = 512;
inline constexpr int64_t kCrossEntropyClasses = 1000;

// Sequence layers in training, forward + backward with the input requiring grad: an LSTM and a
// GRU over 32 steps of a batch of 64, and self-attention over 64 positions of a batch of 32 (rates
// count sequences); and the selections a classifier's metrics use: top-5 of 1000 logits per
// row (rows/s) and a running sum along rows (bytes/s of a 1024 x 1024 float32 input and its
// output).
inline constexpr const char* kLstm = "lstm[32x64x256->256] fwd+bwd";
inline constexpr const char* kGru = "gru[32x64x256->256] fwd+bwd";
inline constexpr int64_t kLstmSteps = 32;
inline constexpr int64_t kLstmBatch = 64;
inline constexpr int64_t kLstmWidth = 256;
inline constexpr const char* kAttention = "multihead_attention[64x32x256,8 heads] fwd+bwd";
inline constexpr int64_t kAttentionLength = 64;
inline constexpr int64_t kAttentionBatch = 32;
inline constexpr int64_t kAttentionWidth = 256;
inline constexpr const char* kTopk = "topk[512x1000,5]";
inline constexpr const char* kCumsum = "cumsum[1024x1024]";
inline constexpr const char* kSort = "sort[1M]";
inline constexpr const char* kUnique = "unique[1M of 1000 values]";
inline constexpr const char* kSearchsorted = "searchsorted[1M into 1000]";
inline constexpr int64_t kSortLength = 1 << 20;
// Factorizations in float32: one mid-sized matrix each (matrices/s), and a batch of small ones.
struct LinalgShape {
  const char* name;
  int64_t batch;  // 0: one matrix without batch dims
  int64_t rows, cols;
};
inline constexpr LinalgShape kSolveShape = {"linalg.solve[256x256, 256 rhs]", 0, 256, 256};
inline constexpr LinalgShape kCholeskyShape = {"linalg.cholesky[256x256]", 0, 256, 256};
inline constexpr LinalgShape kQrShape = {"linalg.qr[512x128]", 0, 512, 128};
inline constexpr LinalgShape kEighShape = {"linalg.eigh[128x128]", 0, 128, 128};
inline constexpr LinalgShape kSvdShape = {"linalg.svd[128x128]", 0, 128, 128};
inline constexpr LinalgShape kBatchedInvShape = {"linalg.inv[4096 of 4x4]", 4096, 4, 4};

// A spatial transformer's sampling in training: bilinear grid_sample of a [16, 16, 64, 64]
// float32 batch at the grid of random affine transforms, forward + backward into the input and
// the grid (images/s).
inline constexpr const char* kGridSample = "grid_sample[16x16x64x64] fwd+bwd";
inline constexpr int64_t kGridSampleBatch = 16;

// Indexing and layer ops of a model's data path, one call each on float32 (rates count the
// elements of the main input): a boolean mask's selection, rows picked and added by index (an
// embedding's lookup and its gradient), gathers and scatters along rows, reflection padding of
// a CNN's activations, a tensor's 2-norm (gradient clipping), global average pooling and a
// histogram of labels.
enum class IndexingOp {
  MaskedSelect,
  IndexSelect,
  IndexAdd,
  EmbeddingBackward,
  Gather,
  ScatterAdd,
  ReflectPad,
  Norm,
  GlobalAvgPool,
  Bincount
};
struct IndexingShape {
  const char* name;
  IndexingOp op;
};
inline constexpr IndexingShape kIndexingOps[] = {
    {"masked_select[1024x1024]", IndexingOp::MaskedSelect},
    {"index_select[1024x1024, 4096 rows]", IndexingOp::IndexSelect},
    {"index_add[1024x1024, 1024 rows]", IndexingOp::IndexAdd},
    {"embedding[10000x256, 64x128] bwd", IndexingOp::EmbeddingBackward},
    {"gather[1024x1024] along rows", IndexingOp::Gather},
    {"scatter_add[1024x1024] along rows", IndexingOp::ScatterAdd},
    {"pad reflect[32x64x32x32, 1]", IndexingOp::ReflectPad},
    {"norm[1M]", IndexingOp::Norm},
    {"adaptive_avg_pool2d[32x64x32x32 -> 1]", IndexingOp::GlobalAvgPool},
    {"bincount[1M of 1000 values]", IndexingOp::Bincount},
};

// Implementation labels: the second part of each benchmark name, "<workload>/<impl>".
inline constexpr const char* kAccel = "accel";
inline constexpr const char* kLibTorch = "libtorch";
inline constexpr const char* kEigen = "eigen";
inline constexpr const char* kMemcpy = "memcpy";
inline constexpr const char* kLoop = "loop";

// Counter names the summary reads.
inline constexpr const char* kFlopsCounter = "FLOP/s";
inline constexpr const char* kBytesCounter = "bytes/s";
inline constexpr const char* kSamplesCounter = "samples/s";

// The targets: accel's time for a + b at most 1/5 of LibTorch's on [1] (pure overhead) and at
// most 1/1.5 of it on the activation sizes, matmul and the Linear layer at least 90% of the
// rate of Eigen's GEMMs, the large add at least 70% of memcpy's bandwidth, the small CNN's step
// at least 1.2x LibTorch's samples/s.
struct Target {
  const char* workload;  // null: every workload with this baseline and kind of figure
  const char* baseline;
  bool higher_is_better;  // rates: accel/baseline >= ratio; times: accel/baseline <= ratio
  double ratio;
};
inline constexpr Target kTargets[] = {
    {"add[1]", kLibTorch, false, 0.2},
    {"add[1]+autograd", kLibTorch, false, 0.2},
    {"add[16,128]", kLibTorch, false, 1 / 1.5},
    {"add[16,128]+autograd", kLibTorch, false, 1 / 1.5},
    {"add[32,128]", kLibTorch, false, 1 / 1.5},
    {"add[32,128]+autograd", kLibTorch, false, 1 / 1.5},
    {"add[64,128]", kLibTorch, false, 1 / 1.5},
    {"add[64,128]+autograd", kLibTorch, false, 1 / 1.5},
    {nullptr, kEigen, true, 0.9},
    {nullptr, kMemcpy, true, 0.7},
    {kSmallCnnStep, kLibTorch, true, 1.2},
};

// How a workload is timed. The calling thread's CPU time equals wall time on an idle machine
// and, unlike wall time, stays right when other processes share the cores; it serves work
// that runs on the calling thread alone: small ops, and any workload at one thread.
// Multi-threaded work needs wall time (and an otherwise idle machine).
enum class Clock { CallingThreadCpu, WallWhenThreaded };

// Workload names in the order they were first registered (the summary's row order).
inline std::map<std::string, size_t>& workload_order() {
  static std::map<std::string, size_t> order;
  return order;
}

// Registers `fn(state, args...)` as "<workload>/<impl>" at every thread count.
template <typename... Args>
void add_benchmark(const char* workload, const char* impl, Clock clock,
                   void (*fn)(benchmark::State&, Args...), std::type_identity_t<Args>... args) {
  const std::string name = std::string(workload) + "/" + impl;
  workload_order().emplace(workload, workload_order().size());
  for (int t : kThreadCounts) {
    benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(name.c_str(), fn, args...);
    b->ArgName("threads")->Arg(t);
    if (clock == Clock::WallWhenThreaded && t > 1) b->UseRealTime();
  }
}

inline void set_rate(benchmark::State& state, const char* counter, double per_iteration) {
  state.counters[counter] =
      benchmark::Counter(per_iteration, benchmark::Counter::kIsIterationInvariantRate);
}

// ---- the workloads, for an adapter Lib with set_num_threads(n), ones(numel), randn(sizes),
// rand(sizes), randint(high, n), matmul(a, b), cross_entropy(logits, target), and the module and
// optimizer types the layers and the CNN need (Lib::Linear, Lib::LayerNorm, ..., Lib::Adam) ----

// a + b on [numel] inputs; with `record` the inputs require grad, so every call records an
// autograd node (freed again when the result dies).
template <typename Lib>
void add_small(benchmark::State& state, int64_t numel, bool record) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto a = Lib::ones(numel).requires_grad_(record);
  const auto b = Lib::ones(numel).requires_grad_(record);
  for (auto _ : state) {
    const auto c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
  }
}

// The library's function, found by argument-dependent lookup (accel::gelu, at::gelu, ...).
template <typename Tensor>
Tensor apply(Activation function, const Tensor& x) {
  switch (function) {
    case Activation::Exp:
      return exp(x);
    case Activation::Log:
      return log(x);
    case Activation::Tanh:
      return tanh(x);
    case Activation::Sigmoid:
      return sigmoid(x);
    case Activation::Gelu:
      return gelu(x);
    case Activation::Silu:
      return silu(x);
    case Activation::Elu:
      return elu(x);
    case Activation::Softplus:
      return softplus(x);
    case Activation::Hardswish:
      return hardswish(x);
    case Activation::Mish:
      return mish(x);
  }
  return x;
}

template <typename Lib>
void activation(benchmark::State& state, ActivationShape shape) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  // (log's inputs positive: its NaN lanes would be a special case.)
  const auto x = shape.function == Activation::Log ? abs(Lib::randn({kActivationNumel}))
                                                   : Lib::randn({kActivationNumel});
  for (auto _ : state) {
    const auto y = apply(shape.function, x);
    benchmark::DoNotOptimize(y.data_ptr());
  }
  set_rate(state, kBytesCounter, 2.0 * kActivationNumel * sizeof(float));
}

template <typename Lib>
void sample(benchmark::State& state, bool normal) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    const auto x = normal ? Lib::randn({kSampleNumel}) : Lib::rand({kSampleNumel});
    benchmark::DoNotOptimize(x.data_ptr());
  }
  set_rate(state, kBytesCounter, 1.0 * kSampleNumel * sizeof(float));
}

template <typename Lib>
void matmul(benchmark::State& state, GemmShape shape) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto a = Lib::randn({shape.m, shape.k});
  const auto b = Lib::randn({shape.k, shape.n});
  for (auto _ : state) {
    const auto c = Lib::matmul(a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  }
  set_rate(state, kFlopsCounter, shape.flops());
}

template <typename Lib>
void add_large(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto a = Lib::ones(kLargeNumel);
  const auto b = Lib::ones(kLargeNumel);
  for (auto _ : state) {
    const auto c = a + b;
    benchmark::DoNotOptimize(c.data_ptr());
  }
  set_rate(state, kBytesCounter, kAddLargeBytes);
}

template <typename Lib>
void transpose_copy(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto x = Lib::randn({kTransposeSize, kTransposeSize});
  for (auto _ : state) {
    const auto y = x.t().contiguous();
    benchmark::DoNotOptimize(y.data_ptr());
  }
  set_rate(state, kBytesCounter, 2.0 * kTransposeSize * kTransposeSize * sizeof(float));
}

// y = linear(x); y.backward(g), gradients set to none before each call as a training loop's
// zero_grad does (so the weight gradient is written, not accumulated).
template <typename Lib>
void linear_forward_backward(benchmark::State& state, LinearShape shape) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  typename Lib::Linear linear(shape.in, shape.out);
  const auto x = Lib::randn({shape.batch, shape.in});
  const auto g = Lib::randn({shape.batch, shape.out});
  for (auto _ : state) {
    linear->zero_grad(true);
    linear(x).backward(g);
    benchmark::DoNotOptimize(linear->weight.grad().data_ptr());
  }
  set_rate(state, kFlopsCounter, shape.flops());
}

template <typename Lib>
void conv_forward_backward(benchmark::State& state, ConvShape shape) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  typename Lib::Conv2d conv(
      typename Lib::Conv2dOptions(shape.in_channels, shape.out_channels, 3).padding(1));
  auto x = Lib::randn({kCnnBatch, shape.in_channels, shape.size, shape.size})
               .requires_grad_(shape.input_grad);
  const auto g = Lib::randn({kCnnBatch, shape.out_channels, shape.size, shape.size});
  for (auto _ : state) {
    conv->zero_grad(true);
    if (shape.input_grad) x.mutable_grad() = decltype(x)();
    conv(x).backward(g);
    benchmark::DoNotOptimize(conv->weight.grad().data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kCnnBatch));
}

template <typename Lib>
void max_pool_forward_backward(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  typename Lib::MaxPool2d pool(typename Lib::MaxPool2dOptions(2));
  auto x = Lib::randn({kCnnBatch, 32, 28, 28}).requires_grad_(true);
  const auto g = Lib::randn({kCnnBatch, 32, 14, 14});
  for (auto _ : state) {
    x.mutable_grad() = decltype(x)();
    pool(x).backward(g);
    benchmark::DoNotOptimize(x.grad().data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kCnnBatch));
}

// x and g of the layer's input shape; the layer's and the input's gradients dropped before each
// call, as a training loop's zero_grad does.
template <typename Layer, typename Tensor>
void layer_forward_backward(benchmark::State& state, Layer& layer, Tensor x, const Tensor& g,
                            int64_t rows) {
  x.requires_grad_(true);
  for (auto _ : state) {
    layer->zero_grad(true);
    x.mutable_grad() = Tensor();
    layer(x).backward(g);
    benchmark::DoNotOptimize(x.grad().data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(rows));
}

template <typename Lib>
void layer_norm_forward_backward(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  typename Lib::LayerNorm norm(typename Lib::LayerNormOptions({kLayerNormCols}));
  layer_forward_backward(state, norm, Lib::randn({kLayerNormRows, kLayerNormCols}),
                         Lib::randn({kLayerNormRows, kLayerNormCols}), kLayerNormRows);
}

template <typename Lib>
void batch_norm_forward_backward(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  typename Lib::BatchNorm2d norm(64);
  layer_forward_backward(state, norm, Lib::randn({kBatchNormBatch, 64, 32, 32}),
                         Lib::randn({kBatchNormBatch, 64, 32, 32}), kBatchNormBatch);
}

template <typename Lib>
void cross_entropy_forward_backward(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  auto logits = Lib::randn({kCrossEntropyRows, kCrossEntropyClasses}).requires_grad_(true);
  const auto labels = Lib::randint(kCrossEntropyClasses, kCrossEntropyRows);
  for (auto _ : state) {
    logits.mutable_grad() = decltype(logits)();
    Lib::cross_entropy(logits, labels).backward();
    benchmark::DoNotOptimize(logits.grad().data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kCrossEntropyRows));
}

// Layer: Lib::LSTM or Lib::GRU.
template <typename Lib, typename Layer>
void recurrent_forward_backward(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  Layer layer(kLstmWidth, kLstmWidth);
  auto x = Lib::randn({kLstmSteps, kLstmBatch, kLstmWidth}).requires_grad_(true);
  const auto g = Lib::randn({kLstmSteps, kLstmBatch, kLstmWidth});
  for (auto _ : state) {
    layer->zero_grad(true);
    x.mutable_grad() = decltype(x)();
    std::get<0>(layer->forward(x)).backward(g);
    benchmark::DoNotOptimize(x.grad().data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kLstmBatch));
}

template <typename Lib>
void attention_forward_backward(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  typename Lib::MultiheadAttention attention(kAttentionWidth, 8);
  auto x = Lib::randn({kAttentionLength, kAttentionBatch, kAttentionWidth}).requires_grad_(true);
  const auto g = Lib::randn({kAttentionLength, kAttentionBatch, kAttentionWidth});
  for (auto _ : state) {
    attention->zero_grad(true);
    x.mutable_grad() = decltype(x)();
    std::get<0>(attention->forward(x, x, x)).backward(g);
    benchmark::DoNotOptimize(x.grad().data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kAttentionBatch));
}

template <typename Lib>
void topk_rows(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto logits = Lib::randn({kCrossEntropyRows, kCrossEntropyClasses});
  for (auto _ : state) {
    const auto top = std::get<1>(logits.topk(5, 1));
    benchmark::DoNotOptimize(top.data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kCrossEntropyRows));
}

template <typename Lib>
void cumsum_rows(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto x = Lib::randn({1024, 1024});
  for (auto _ : state) {
    const auto sums = x.cumsum(1);
    benchmark::DoNotOptimize(sums.data_ptr());
  }
  set_rate(state, kBytesCounter, 2.0 * 1024 * 1024 * sizeof(float));
}

template <typename Lib>
void sort_values(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto x = Lib::randn({kSortLength});
  for (auto _ : state) {
    const auto sorted = std::get<0>(x.sort());
    benchmark::DoNotOptimize(sorted.data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kSortLength));
}

// With the inverse and the counts, as a label histogram or a vocabulary needs.
template <typename Lib>
void unique_values(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto x = Lib::randint(1000, kSortLength);
  for (auto _ : state) {
    const auto distinct = std::get<0>(Lib::unique(x));
    benchmark::DoNotOptimize(distinct.data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kSortLength));
}

template <typename Lib>
void searchsorted_values(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto boundaries = std::get<0>(Lib::randn({1000}).sort());
  const auto x = Lib::randn({kSortLength});
  for (auto _ : state) {
    const auto positions = Lib::searchsorted(boundaries, x);
    benchmark::DoNotOptimize(positions.data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kSortLength));
}

template <typename Lib>
void grid_sample_forward_backward(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const int64_t n = kGridSampleBatch;
  auto input = Lib::randn({n, 16, 64, 64}).requires_grad_(true);
  auto grid = Lib::affine_grid(Lib::randn({n, 2, 3}) * 0.5, {n, 16, 64, 64}).requires_grad_(true);
  const auto upstream = Lib::randn({n, 16, 64, 64});
  for (auto _ : state) {
    input.mutable_grad() = decltype(input)();
    grid.mutable_grad() = decltype(grid)();
    Lib::grid_sample(input, grid).backward(upstream);
    benchmark::DoNotOptimize(grid.grad().data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(n));
}

template <typename Lib>
void indexing_op(benchmark::State& state, IndexingShape shape) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto x = Lib::randn({1024, 1024});
  const auto mask = x > 0.5;
  const auto rows = Lib::randint(1024, 4096);
  const auto positions = Lib::randint(1024, 1024 * 1024).view({1024, 1024});
  const auto images = Lib::randn({32, 64, 32, 32});
  auto table = Lib::randn({10000, 256}).requires_grad_(true);
  const auto tokens = Lib::randint(10000, 64 * 128).view({64, 128});
  const auto labels = Lib::randint(1000, 1024 * 1024);
  int64_t elements = x.numel();
  for (auto _ : state) {
    switch (shape.op) {
      case IndexingOp::MaskedSelect:
        benchmark::DoNotOptimize(x.masked_select(mask).data_ptr());
        break;
      case IndexingOp::IndexSelect:
        benchmark::DoNotOptimize(x.index_select(0, rows).data_ptr());
        break;
      case IndexingOp::IndexAdd:
        benchmark::DoNotOptimize(x.index_add(0, rows.narrow(0, 0, 1024), x).data_ptr());
        break;
      case IndexingOp::EmbeddingBackward:
        table.mutable_grad() = decltype(table)();
        Lib::embedding(tokens, table).sum().backward();
        benchmark::DoNotOptimize(table.grad().data_ptr());
        elements = tokens.numel() * 256;
        break;
      case IndexingOp::Gather:
        benchmark::DoNotOptimize(x.gather(1, positions).data_ptr());
        break;
      case IndexingOp::ScatterAdd:
        benchmark::DoNotOptimize(x.scatter_add(1, positions, x).data_ptr());
        break;
      case IndexingOp::ReflectPad:
        benchmark::DoNotOptimize(Lib::reflect_pad(images, 1).data_ptr());
        elements = images.numel();
        break;
      case IndexingOp::Norm:
        benchmark::DoNotOptimize(x.norm().data_ptr());
        break;
      case IndexingOp::GlobalAvgPool:
        benchmark::DoNotOptimize(Lib::global_avg_pool(images).data_ptr());
        elements = images.numel();
        break;
      case IndexingOp::Bincount:
        benchmark::DoNotOptimize(labels.bincount().data_ptr());
        break;
    }
  }
  set_rate(state, kSamplesCounter, static_cast<double>(elements));
}

// What each factorization benchmark runs on a (a well-conditioned, symmetric positive-definite
// matrix or batch of them, so every op accepts it).
enum class Factorization { kSolve, kCholesky, kQr, kEigh, kSvd, kInv };

template <typename Lib>
void factorization(benchmark::State& state, LinalgShape shape, Factorization which) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  const auto x = shape.batch > 0 ? Lib::randn({shape.batch, shape.rows, shape.cols})
                                 : Lib::randn({shape.rows, shape.cols});
  const auto symmetric = Lib::matmul(x, x.transpose(-2, -1)) + Lib::eye(shape.rows) * shape.rows;
  const auto a = shape.rows == shape.cols ? symmetric : x;
  for (auto _ : state) {
    switch (which) {
      case Factorization::kSolve:
        benchmark::DoNotOptimize(Lib::solve(a, x).data_ptr());
        break;
      case Factorization::kCholesky:
        benchmark::DoNotOptimize(Lib::cholesky(a).data_ptr());
        break;
      case Factorization::kQr:
        benchmark::DoNotOptimize(std::get<1>(Lib::qr(a)).data_ptr());
        break;
      case Factorization::kEigh:
        benchmark::DoNotOptimize(std::get<1>(Lib::eigh(a)).data_ptr());
        break;
      case Factorization::kSvd:
        benchmark::DoNotOptimize(std::get<1>(Lib::svd(a)).data_ptr());
        break;
      case Factorization::kInv:
        benchmark::DoNotOptimize(Lib::inv(a).data_ptr());
        break;
    }
  }
  set_rate(state, kSamplesCounter, static_cast<double>(std::max<int64_t>(shape.batch, 1)));
}

template <typename Lib>
auto small_cnn() {
  using L = Lib;
  return typename L::Sequential(
      typename L::Conv2d(typename L::Conv2dOptions(1, 32, 3).padding(1)), typename L::ReLU(),
      typename L::MaxPool2d(typename L::MaxPool2dOptions(2)),
      typename L::Conv2d(typename L::Conv2dOptions(32, 64, 3).padding(1)), typename L::ReLU(),
      typename L::MaxPool2d(typename L::MaxPool2dOptions(2)), typename L::Flatten(),
      typename L::Linear(64 * 7 * 7, 128), typename L::ReLU(), typename L::Linear(128, 10));
}

// zero_grad (to none), forward, cross-entropy, backward, Adam step on one fixed random batch.
// The model's zero_grad: LibTorch 1.13's optimizer can only zero gradients, not drop them.
template <typename Lib>
void small_cnn_step(benchmark::State& state) {
  Lib::set_num_threads(static_cast<int>(state.range(0)));
  auto model = small_cnn<Lib>();
  typename Lib::Adam optimizer(model->parameters(), typename Lib::AdamOptions(1e-3));
  const auto images = Lib::randn({kCnnBatch, 1, 28, 28});
  const auto labels = Lib::randint(10, kCnnBatch);
  for (auto _ : state) {
    model->zero_grad(true);
    const auto loss = Lib::cross_entropy(model->forward(images), labels);
    loss.backward();
    optimizer.step();
    benchmark::DoNotOptimize(loss.data_ptr());
  }
  set_rate(state, kSamplesCounter, static_cast<double>(kCnnBatch));
}

template <typename Lib>
void register_workloads(const char* impl) {
  const Clock cpu = Clock::CallingThreadCpu;
  for (const AddShape& shape : kAddShapes) {
    add_benchmark(shape.name, impl, cpu, add_small<Lib>, shape.numel, false);
    add_benchmark(shape.name_with_autograd, impl, cpu, add_small<Lib>, shape.numel, true);
  }
  for (const GemmShape& shape : kGemmShapes) {
    add_benchmark(shape.name, impl, Clock::WallWhenThreaded, matmul<Lib>, shape);
  }
  add_benchmark(kAddLarge, impl, Clock::WallWhenThreaded, add_large<Lib>);
  add_benchmark(kTranspose, impl, Clock::WallWhenThreaded, transpose_copy<Lib>);
  for (const ActivationShape& shape : kActivations) {
    add_benchmark(shape.name, impl, Clock::WallWhenThreaded, activation<Lib>, shape);
  }
  add_benchmark(kRandn, impl, Clock::WallWhenThreaded, sample<Lib>, true);
  add_benchmark(kRand, impl, Clock::WallWhenThreaded, sample<Lib>, false);
  for (const LinearShape& shape : kLinearShapes) {
    add_benchmark(shape.name, impl, Clock::WallWhenThreaded, linear_forward_backward<Lib>, shape);
  }
  for (const ConvShape& shape : kConvShapes) {
    add_benchmark(shape.name, impl, Clock::WallWhenThreaded, conv_forward_backward<Lib>, shape);
  }
  add_benchmark(kMaxPool, impl, Clock::WallWhenThreaded, max_pool_forward_backward<Lib>);
  add_benchmark(kLayerNorm, impl, Clock::WallWhenThreaded, layer_norm_forward_backward<Lib>);
  add_benchmark(kBatchNorm, impl, Clock::WallWhenThreaded, batch_norm_forward_backward<Lib>);
  add_benchmark(kCrossEntropy, impl, Clock::WallWhenThreaded, cross_entropy_forward_backward<Lib>);
  add_benchmark(kSmallCnnStep, impl, Clock::WallWhenThreaded, small_cnn_step<Lib>);
  add_benchmark(kLstm, impl, Clock::WallWhenThreaded,
                recurrent_forward_backward<Lib, typename Lib::LSTM>);
  add_benchmark(kGru, impl, Clock::WallWhenThreaded,
                recurrent_forward_backward<Lib, typename Lib::GRU>);
  add_benchmark(kAttention, impl, Clock::WallWhenThreaded, attention_forward_backward<Lib>);
  add_benchmark(kTopk, impl, Clock::WallWhenThreaded, topk_rows<Lib>);
  add_benchmark(kCumsum, impl, Clock::WallWhenThreaded, cumsum_rows<Lib>);
  add_benchmark(kSort, impl, Clock::WallWhenThreaded, sort_values<Lib>);
  add_benchmark(kUnique, impl, Clock::WallWhenThreaded, unique_values<Lib>);
  add_benchmark(kSearchsorted, impl, Clock::WallWhenThreaded, searchsorted_values<Lib>);
  add_benchmark(kGridSample, impl, Clock::WallWhenThreaded, grid_sample_forward_backward<Lib>);
  for (const IndexingShape& shape : kIndexingOps) {
    add_benchmark(shape.name, impl, Clock::WallWhenThreaded, indexing_op<Lib>, shape);
  }
  const std::pair<LinalgShape, Factorization> factorizations[] = {
      {kSolveShape, Factorization::kSolve}, {kCholeskyShape, Factorization::kCholesky},
      {kQrShape, Factorization::kQr},       {kEighShape, Factorization::kEigh},
      {kSvdShape, Factorization::kSvd},     {kBatchedInvShape, Factorization::kInv}};
  for (const auto& [shape, which] : factorizations) {
    add_benchmark(shape.name, impl, Clock::WallWhenThreaded, factorization<Lib>, shape, which);
  }
}

// Each implementation file registers its benchmarks; main calls these in this order.
void register_accel();
void register_baselines();  // Eigen's GEMMs, memcpy and the bare-loop add
void register_libtorch();   // only in builds that found LibTorch

}  // namespace bench
