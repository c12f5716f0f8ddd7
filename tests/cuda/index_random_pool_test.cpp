// The CUDA kernels for indexing, random numbers, pooling and im2col/col2im against the CPU,
// through the public API: indexing, pooling and sampling must give the CPU's bits (the kernels
// keep its order of operations and its Philox stream), out-of-range indices and probabilities
// must surface as accel::Error at the next synchronization, and convolutions (GEMMs summed in
// another order) must agree to a stated tolerance. Every test skips itself without a GPU.
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "accel/accel.h"
#include "accel/core/backend.h"  // gather and scatter without the ops' range check
#include "support/cuda_test.h"
#include "support/expect_error.h"
#include "support/index_loop.h"
#include "support/tensor_compare.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::expect_matches_cpu;
using testing::expect_same_bits;

const Device kCpu(kCPU);
const Device kCuda(kCUDA, 0);

// A leaf copy of `t` on `device` that requires grad.
Tensor leaf(const Tensor& t, Device device) {
  Tensor copy = t.to(device).detach();
  copy.requires_grad_(true);
  return copy;
}

// ---- indexing ----

// nonzero's rows come from a device scan of the flags; masks index through them.
TEST(CudaIndex, NonzeroAndMasksMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(11);
  const Tensor x = randn({3, 700, 50});
  const Tensor mask = x > 0.3;
  expect_same_bits(nonzero(x.cuda() * mask.cuda()), nonzero(x * mask), "3-d float");
  expect_same_bits(nonzero(mask.view({-1}).cuda()), nonzero(mask.view({-1})), "1-d bool");
  expect_same_bits(nonzero(scalar_tensor(2.0).cuda()), nonzero(scalar_tensor(2.0)), "0-dim");
  expect_same_bits(nonzero(zeros({4, 5}).cuda()), nonzero(zeros({4, 5})), "no true element");
  expect_same_bits(x.cuda().index({mask.cuda()}), x.index({mask}), "x[mask]");
  expect_same_bits(x.cuda().masked_select(mask.cuda()), x.masked_select(mask), "masked_select");
}

TEST(CudaIndex, IndexSelectMatchesCpu) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(1);
  const Tensor x = randn({7, 5});
  const Tensor rows = tensor({3, 0, 3, 6, 1, 1});
  const Tensor cols = tensor({4, 0, 4});
  expect_same_bits(index_select(x.cuda(), 0, rows.cuda()), index_select(x, 0, rows), "dim 0");
  expect_same_bits(x.cuda().index_select(1, cols.cuda()), x.index_select(1, cols), "dim 1");
  expect_same_bits(x.cuda().index_select(-1, cols.to(kInt32).cuda()),
                   x.index_select(-1, cols.to(kInt32)), "int32 index");
  expect_same_bits(x.cuda().t().index_select(0, cols.cuda()), x.t().index_select(0, cols),
                   "transposed input");
}

// index_select's gradient is scatter_add over a repeated index: the embedding backward.
TEST(CudaIndex, EmbeddingBackwardGivesCpuBits) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(2);
  const Tensor weight = randn({50, 33});
  const Tensor ids = randint(0, 50, {2000});  // about 40 uses of every row
  const Tensor grad = randn({2000, 33});
  Tensor w_cpu = leaf(weight, kCpu);
  Tensor w_cuda = leaf(weight, kCuda);
  w_cpu.index_select(0, ids).backward(grad);
  w_cuda.index_select(0, ids.cuda()).backward(grad.cuda());
  expect_same_bits(w_cuda.grad(), w_cpu.grad(), "weight grad");
}

TEST(CudaIndex, GatherMatchesCpuWithGradient) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(3);
  const Tensor x = randn({4, 9});
  for (const auto& [dim, index] : {std::pair{int64_t{1}, randint(0, 9, {4, 12})},
                                   std::pair{int64_t{0}, randint(0, 4, {6, 7})}}) {
    const Tensor grad = randn(index.sizes());
    Tensor x_cpu = leaf(x, kCpu);
    Tensor x_cuda = leaf(x, kCuda);
    const Tensor out_cpu = x_cpu.gather(dim, index);
    const Tensor out_cuda = x_cuda.gather(dim, index.cuda());
    expect_same_bits(out_cuda, out_cpu, "gather dim " + std::to_string(dim));
    out_cpu.backward(grad);
    out_cuda.backward(grad.cuda());
    expect_same_bits(x_cuda.grad(), x_cpu.grad(), "gather grad dim " + std::to_string(dim));
  }
}

TEST(CudaIndex, ScatterAddMatchesCpuWithGradients) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(4);
  struct Case {
    int64_t dim;
    Tensor self, index, src;
  };
  const std::vector<Case> cases = {
      {0, randn({5, 6}), randint(0, 5, {8, 6}), randn({8, 6})},
      {1, randn({5, 6}), randint(0, 6, {5, 20}), randn({5, 20})},
      {1, randn({5, 6}), randint(0, 6, {3, 4}), randn({4, 9})},  // index smaller than src
      {0, zeros({10}), randint(0, 10, {5000}), randn({5000})},   // one line, walked serially
      {2, randn({3, 4, 5}), randint(0, 5, {2, 4, 17}), randn({2, 4, 17}).mul(100)},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    const Case& k = cases[c];
    Tensor self_cpu = leaf(k.self, kCpu), src_cpu = leaf(k.src, kCpu);
    Tensor self_cuda = leaf(k.self, kCuda), src_cuda = leaf(k.src, kCuda);
    const Tensor out_cpu = self_cpu.scatter_add(k.dim, k.index, src_cpu);
    const Tensor out_cuda = self_cuda.scatter_add(k.dim, k.index.cuda(), src_cuda);
    expect_same_bits(out_cuda, out_cpu, "scatter_add case " + std::to_string(c));
    const Tensor grad = randn(out_cpu.sizes());
    out_cpu.backward(grad);
    out_cuda.backward(grad.cuda());
    expect_same_bits(self_cuda.grad(), self_cpu.grad(), "self grad case " + std::to_string(c));
    expect_same_bits(src_cuda.grad(), src_cpu.grad(), "src grad case " + std::to_string(c));
  }
}

// Every element adds into one destination: float32 sums depend on their order, so equal bits
// mean the CPU's order, on every run.
TEST(CudaIndex, ScatterAddOfRepeatedIndicesGivesCpuBitsEveryRun) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(5);
  const Tensor src = randn({4096}).mul(randn({4096}).mul(4).exp());
  const Tensor index = full({4096}, 3, kInt64);
  const Tensor self = zeros({7});
  const Tensor expected = self.scatter_add(0, index, src);
  for (int run = 0; run < 3; ++run) {
    expect_same_bits(self.cuda().scatter_add(0, index.cuda(), src.cuda()), expected,
                     "run " + std::to_string(run));
  }
}

// Repeated positions: the last element wins a scatter and the reductions combine in the CPU's
// order, so every form gives the CPU's bits, gradients included.
TEST(CudaIndex, ScatterAndScatterReduceOfRepeatedIndicesGiveCpuBits) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(6);
  const Tensor self = randn({6, 5});
  const Tensor index = randint(0, 6, {40, 5});
  const Tensor src = randn({40, 5});
  expect_same_bits(self.cuda().scatter(0, index.cuda(), src.cuda()), self.scatter(0, index, src),
                   "scatter");
  for (const char* reduce : {"sum", "prod", "mean", "amax", "amin"}) {
    for (bool include_self : {true, false}) {
      const std::string what = std::string(reduce) + (include_self ? "" : " without self");
      Tensor self_cpu = leaf(self, kCpu), src_cpu = leaf(src, kCpu);
      Tensor self_cuda = leaf(self, kCuda), src_cuda = leaf(src, kCuda);
      const Tensor out_cpu = self_cpu.scatter_reduce(0, index, src_cpu, reduce, include_self);
      const Tensor out_cuda =
          self_cuda.scatter_reduce(0, index.cuda(), src_cuda, reduce, include_self);
      expect_same_bits(out_cuda, out_cpu, what);
      out_cpu.sum().backward();
      out_cuda.sum().backward();
      expect_same_bits(self_cuda.grad(), self_cpu.grad(), what + " self grad");
      expect_same_bits(src_cuda.grad(), src_cpu.grad(), what + " src grad");
    }
  }
}

TEST(CudaIndex, OutOfRangeIndexRaisesAtNextSynchronization) {
  ACCEL_REQUIRE_CUDA();
  const Tensor x = randn({3, 4}).cuda();
  const Tensor past_end = tensor({0, 4, 1}).cuda();
  const Tensor gather_index = tensor({0, 7, 1, 2}).reshape({2, 2}).cuda();
  const Tensor negative = tensor({2, -1}).reshape({1, 2}).cuda();
  const Tensor src = ones({1, 2}).cuda();
  const std::string message = testing::error_of([&] { index_select(x, 1, past_end).cpu(); });
  EXPECT_NE(message.find("index_select"), std::string::npos) << message;
  EXPECT_NE(message.find("index 4"), std::string::npos) << message;
  EXPECT_NE(message.find("size 4"), std::string::npos) << message;
  expect_error_containing([&] { x.gather(1, gather_index).cpu(); }, "gather");
  expect_error_containing([&] { x.scatter_add(0, negative, src).cpu(); }, "scatter_add");
  // Each error is raised once; the device then works as before.
  EXPECT_NO_THROW(cuda::synchronize(kCuda));
  const Tensor good = tensor({3, 0});
  expect_same_bits(x.index_select(1, good.cuda()), x.cpu().index_select(1, good), "after");
}

// The kernels behind index ops, called through the table: they must not address memory through
// an index outside [0, dim_size). gather writes zero there, scatter_add adds nothing, and a bad
// index is raised at the next synchronization, naming the op and dim the call gave. Input [3, 4],
// indexed along dim 0 by a [1, 4] index.
TEST(CudaIndex, KernelsTestEachIndexAgainstTheDimSize) {
  ACCEL_REQUIRE_CUDA();
  const Tensor index = tensor({1, 9, 0, -2}).reshape({1, 4}).cuda();
  const std::vector<int64_t> dim0_zeroed = {0, 1};  // a contiguous [3, 4]'s, dim 0 zeroed
  const Tensor input = arange(12.0, kFloat32).reshape({3, 4}).cuda();
  Tensor out = full({1, 4}, 7, kFloat32).cuda();
  backend(kCuda).gather(kFloat32, kInt64,
                        testing::index_loop(index, out, out.strides(), input, dim0_zeroed), 4 * 4,
                        3, {"gather", 0}, current_stream(kCuda));
  const std::string gather_error = testing::error_of([&] { cuda::synchronize(kCuda); });
  EXPECT_EQ(gather_error.rfind("gather: index ", 0), 0u) << gather_error;
  EXPECT_NE(gather_error.find("out of bounds for dimension 0 with size 3"), std::string::npos)
      << gather_error;
  expect_same_bits(out, tensor({4.0f, 0.0f, 2.0f, 0.0f}).reshape({1, 4}), "gather");

  Tensor self = zeros({3, 4}, kFloat32).cuda();
  const Tensor src = ones({1, 4}, kFloat32).cuda();
  backend(kCuda).scatter(math::ScatterReduce::Sum, kFloat32, kInt64,
                         testing::index_loop(index, self, dim0_zeroed, src, src.strides()), 4 * 4,
                         3, {"scatter_add", 0}, current_stream(kCuda));
  const std::string scatter_add_error = testing::error_of([&] { cuda::synchronize(kCuda); });
  EXPECT_EQ(scatter_add_error.rfind("scatter_add: index ", 0), 0u) << scatter_add_error;
  EXPECT_NE(scatter_add_error.find("out of bounds for dimension 0 with size 3"), std::string::npos)
      << scatter_add_error;
  Tensor expected = zeros({3, 4});
  expected[1][0].fill_(1);
  expected[0][2].fill_(1);
  expect_same_bits(self, expected, "scatter_add");
  EXPECT_NO_THROW(cuda::synchronize(kCuda));
}

// ---- random numbers ----

// Draws once on the CPU and once on the GPU from the default generator, reseeded in between;
// both draws must also reserve the same counter blocks.
template <typename Draw>
std::pair<Tensor, Tensor> draw_on_both(Draw draw) {
  manual_seed(20240601);
  Tensor on_cpu = draw(kCpu);
  const GeneratorState after_cpu = default_generator().get_state();
  manual_seed(20240601);
  Tensor on_cuda = draw(kCuda);
  EXPECT_TRUE(default_generator().get_state() == after_cpu);
  return {on_cpu, on_cuda};
}

template <typename Draw>
void expect_same_draw(Draw draw, const std::string& what) {
  const auto [on_cpu, on_cuda] = draw_on_both(draw);
  expect_same_bits(on_cuda, on_cpu, what);
}

TEST(CudaRandom, UniformIntegersAndPermutationsGiveCpuBits) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : {kFloat32, kFloat64, kFloat16, kBFloat16}) {
    expect_same_draw([&](Device d) { return rand({1001}, TensorOptions(t).device(d)); },
                     fmt::format("rand {}", t));
  }
  // A strided output takes value i at element i of the view in row-major order; the bounds
  // make the affine map round (both devices fuse it into one multiply-add, affine_sample).
  expect_same_draw(
      [](Device d) {
        Tensor t = zeros({6, 8}, TensorOptions(kFloat32).device(d)).t();
        uniform_(t, -2, 3);
        return t;
      },
      "uniform_ on a transposed view");
  for (ScalarType t : {kInt64, kInt32, kFloat32}) {
    expect_same_draw(
        [&](Device d) { return randint(-1000, 1000, {333}, TensorOptions(t).device(d)); },
        fmt::format("randint {}", t));
  }
  expect_same_draw(
      [](Device d) {
        return randint(200, {7, 9}, TensorOptions(kUInt8).device(d));
      },
      "randint uint8");
  expect_same_draw([](Device d) { return randperm(1000, TensorOptions(kInt64).device(d)); },
                   "randperm int64");
  expect_same_draw([](Device d) { return randperm(257, TensorOptions(kInt32).device(d)); },
                   "randperm int32");
  expect_same_draw([](Device d) { return randperm(1, TensorOptions(kInt64).device(d)); },
                   "randperm 1");
}

TEST(CudaRandom, BernoulliAndDropoutGiveCpuBits) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : {kFloat32, kFloat64, kBool}) {
    expect_same_draw(
        [&](Device d) {
          return bernoulli({37, 29}, 0.3, TensorOptions(t).device(d));
        },
        fmt::format("bernoulli(p = 0.3) {}", t));
  }
  manual_seed(6);
  const Tensor p = rand({1000});
  for (ScalarType t : {kFloat32, kFloat64, kFloat16}) {
    expect_same_draw([&](Device d) { return bernoulli(p.to(t).to(d)); },
                     fmt::format("bernoulli(p tensor) {}", t));
  }
  const Tensor x = randn({64, 33});
  expect_same_draw([&](Device d) { return nn::functional::dropout(x.to(d), 0.4, true); },
                   "dropout");
}

// Box-Muller calls log1p, sin and cos, which the GPU's math library computes within an ulp or
// two of glibc rather than to the same bits; the Philox bits and uniforms are the same.
TEST(CudaRandom, NormalMatchesCpuToRounding) {
  ACCEL_REQUIRE_CUDA();
  {
    const auto [on_cpu, on_cuda] =
        draw_on_both([](Device d) { return randn({4099}, TensorOptions(kFloat32).device(d)); });
    expect_matches_cpu(on_cuda, on_cpu, {1e-5, 1e-5}, "randn float32");
  }
  {
    const auto [on_cpu, on_cuda] =
        draw_on_both([](Device d) { return randn({4099}, TensorOptions(kFloat64).device(d)); });
    expect_matches_cpu(on_cuda, on_cpu, {1e-12, 1e-12}, "randn float64");
  }
  const auto [on_cpu, on_cuda] = draw_on_both([](Device d) {
    Tensor t = zeros({5, 9}, TensorOptions(kFloat32).device(d)).t();
    normal_(t, 1, 3);
    return t;
  });
  expect_matches_cpu(on_cuda, on_cpu, {1e-5, 1e-4}, "normal_ on a transposed view");
}

TEST(CudaRandom, InvalidProbabilityRaisesAtNextSynchronization) {
  ACCEL_REQUIRE_CUDA();
  const Tensor p = tensor({0.5f, 1.5f}).cuda();
  const std::string message = testing::error_of([&] { bernoulli(p).cpu(); });
  EXPECT_NE(message.find("bernoulli"), std::string::npos) << message;
  EXPECT_NE(message.find("1.5"), std::string::npos) << message;
  EXPECT_NO_THROW(cuda::synchronize(kCuda));
}

// ---- pooling (forward and backward give the CPU's bits) ----

struct PoolCase {
  std::vector<int64_t> kernel, stride, padding, dilation;
  bool ceil_mode;
};

const std::vector<PoolCase> kPoolCases = {
    {{2}, {2}, {0}, {1}, false},          // the CPU's 2x2 fast path
    {{3}, {2}, {1}, {1}, false},          // overlapping windows over padding
    {{3}, {1}, {1}, {2}, false},          // dilated, every element in up to 9 windows
    {{2, 3}, {1, 2}, {1, 0}, {1}, true},  // rectangular, ceil_mode
    {{3}, {2}, {0}, {1}, true},           // ceil_mode: a last column of windows past width 10
};

// `pool` applied to a leaf on both devices: its output, and then the input's gradient for one
// random upstream gradient, must have the CPU's bits.
template <typename Pool>
void expect_pool_matches(const Tensor& input, Pool pool, const std::string& what) {
  Tensor x_cpu = leaf(input, kCpu), x_cuda = leaf(input, kCuda);
  const Tensor out_cpu = pool(x_cpu);
  const Tensor out_cuda = pool(x_cuda);
  expect_same_bits(out_cuda, out_cpu, what + " values");
  const Tensor grad = randn(out_cpu.sizes()).to(input.dtype());
  out_cpu.backward(grad);
  out_cuda.backward(grad.cuda());
  expect_same_bits(x_cuda.grad(), x_cpu.grad(), what + " grad");
}

// Max pooling of `input` on both devices: the argmax indices, values and the input gradient.
void expect_max_pool_matches(const Tensor& input, const PoolCase& c, const std::string& what) {
  auto pool = [&](const Tensor& x) {
    return max_pool2d_with_indices(x, c.kernel, c.stride, c.padding, c.dilation, c.ceil_mode);
  };
  expect_same_bits(std::get<1>(pool(input.to(kCuda))), std::get<1>(pool(input)), what + " indices");
  expect_pool_matches(
      input, [&](const Tensor& x) { return std::get<0>(pool(x)); }, what);
}

TEST(CudaPooling, MaxPoolMatchesCpuWithTiesAndNaN) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(7);
  const Tensor x = randn({2, 3, 11, 10});
  // Small integers: most windows hold several maxima, so the first-maximum rule decides.
  const Tensor ties = x.mul(2).to(kInt64).to(kFloat32);
  Tensor with_nan = x.clone();
  with_nan.view({-1}).narrow(0, 17, 3).fill_(NAN);
  with_nan.view({-1}).narrow(0, 300, 1).fill_(NAN);
  for (size_t c = 0; c < kPoolCases.size(); ++c) {
    const std::string name = "case " + std::to_string(c);
    expect_max_pool_matches(x, kPoolCases[c], name);
    expect_max_pool_matches(ties, kPoolCases[c], name + " ties");
    expect_max_pool_matches(with_nan, kPoolCases[c], name + " NaN");
    expect_max_pool_matches(x.to(kFloat64), kPoolCases[c], name + " float64");
    expect_max_pool_matches(ties.to(kFloat16), kPoolCases[c], name + " float16");
  }
}

// Windows with no tap inside the input (a dilation stepping over a narrow input) are -inf at a
// stray index, which may fall in a later row, inside the window's own span, or past the plane;
// they pass no gradient on either device.
TEST(CudaPooling, WindowsWithoutATapMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(10);
  expect_max_pool_matches(randn({2, 1, 3, 2}), {{1, 2}, {1}, {0, 1}, {1, 3}, false},
                          "stray index in a later row");
  expect_max_pool_matches(randn({2, 3, 2, 2}), {{2, 2}, {1}, {0, 1}, {1, 3}, false},
                          "stray index inside the window's span");
  expect_max_pool_matches(randn({1, 2, 1, 3}), {{2, 3}, {2}, {1, 1}, {2, 1}, true},
                          "rows stepping over the input, ceil_mode");
}

TEST(CudaPooling, AvgAndAdaptivePoolMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(8);
  const Tensor x = randn({2, 3, 11, 10});
  for (size_t c = 0; c < kPoolCases.size(); ++c) {
    const PoolCase& k = kPoolCases[c];
    if (k.dilation != std::vector<int64_t>{1}) continue;  // avg_pool2d has no dilation
    for (bool include_pad : {true, false}) {
      const std::string name =
          "case " + std::to_string(c) + (include_pad ? " include_pad" : " exclude_pad");
      auto pool = [&](const Tensor& t) {
        return avg_pool2d(t, k.kernel, k.stride, k.padding, k.ceil_mode, include_pad);
      };
      expect_pool_matches(x, pool, name);
      expect_pool_matches(x.to(kBFloat16), pool, name + " bfloat16");
    }
  }
  for (const std::vector<int64_t>& size :
       {std::vector<int64_t>{3, 4}, {7, 5}, {11, 10}, {15, 13}}) {
    expect_pool_matches(
        x, [&](const Tensor& t) { return adaptive_avg_pool2d(t, size); },
        fmt::format("adaptive {}", size));
  }
  // A 1 x 1 output is a mean over the plane, a reduction: its order differs between devices.
  Tensor x_cpu = leaf(x, kCpu), x_cuda = leaf(x, kCuda);
  const Tensor global_cpu = adaptive_avg_pool2d(x_cpu, {1});
  const Tensor global_cuda = adaptive_avg_pool2d(x_cuda, {1});
  expect_matches_cpu(global_cuda, global_cpu, {1e-6, 1e-6}, "adaptive [1] values");
  const Tensor grad = randn(global_cpu.sizes());
  global_cpu.backward(grad);
  global_cuda.backward(grad.cuda());
  expect_matches_cpu(x_cuda.grad(), x_cpu.grad(), {1e-6, 1e-6}, "adaptive [1] grad");
}

// Padding's backward gathers the readers of each input element in the CPU's order: the same
// bits, for every mode, with crops, in float32 and bfloat16.
TEST(CudaPad, PaddingAndItsGradientGiveCpuBits) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(12);
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> cases = {
      {{2, 1}, {2, 3, 20}}, {{1, 3, 2, 0}, {2, 3, 9, 11}}, {{1, -1, 2, 2, 0, 1}, {2, 3, 5, 6, 7}}};
  for (F::PadMode mode : {F::PadMode::Reflect, F::PadMode::Replicate, F::PadMode::Circular}) {
    for (ScalarType t : {kFloat32, kBFloat16}) {
      for (const auto& [amounts, sizes] : cases) {
        expect_pool_matches(
            randn(sizes).to(t),
            [&](const Tensor& a) { return F::pad(a, F::PadFuncOptions(amounts).mode(mode)); },
            fmt::format("mode {} {} pad {}", int(mode), to_string(t), amounts));
      }
    }
  }
}

// ---- convolution (im2col + GEMM; backward col2im + GEMM) ----

// cuBLAS and Eigen sum each product in different orders (TF32 stays off), so the results agree
// to rounding: float32 to 1e-4 of values of order 1-10, float64 to 1e-10.
TEST(CudaConv, Conv2dForwardAndBackwardMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  struct ConvCase {
    std::vector<int64_t> input, weight, stride, padding, dilation;
    int64_t groups;
  };
  const std::vector<ConvCase> cases = {
      {{2, 3, 10, 9}, {4, 3, 3, 3}, {2}, {1}, {1}, 1},
      {{2, 3, 10, 9}, {5, 3, 3, 2}, {1}, {2, 1}, {2}, 1},
      {{1, 4, 8, 8}, {6, 2, 3, 3}, {1, 2}, {1}, {1}, 2},
      {{3, 2, 7, 6}, {3, 2, 1, 1}, {1}, {0}, {1}, 1},
  };
  manual_seed(9);
  for (size_t c = 0; c < cases.size(); ++c) {
    const ConvCase& k = cases[c];
    for (ScalarType t : {kFloat32, kFloat64}) {
      const std::string name = fmt::format("case {} {}", c, t);
      const double tolerance = t == kFloat32 ? 1e-4 : 1e-10;
      const Tensor x = randn(k.input).to(t), w = randn(k.weight).to(t);
      const Tensor b = randn({k.weight[0]}).to(t);
      Tensor x_cpu = leaf(x, kCpu), w_cpu = leaf(w, kCpu), b_cpu = leaf(b, kCpu);
      Tensor x_cuda = leaf(x, kCuda), w_cuda = leaf(w, kCuda), b_cuda = leaf(b, kCuda);
      const Tensor out_cpu = conv2d(x_cpu, w_cpu, b_cpu, k.stride, k.padding, k.dilation, k.groups);
      const Tensor out_cuda =
          conv2d(x_cuda, w_cuda, b_cuda, k.stride, k.padding, k.dilation, k.groups);
      expect_matches_cpu(out_cuda, out_cpu, {tolerance, tolerance}, name + " output");
      const Tensor grad = randn(out_cpu.sizes()).to(t);
      out_cpu.backward(grad);
      out_cuda.backward(grad.cuda());
      expect_matches_cpu(x_cuda.grad(), x_cpu.grad(), {tolerance, tolerance}, name + " input grad");
      expect_matches_cpu(w_cuda.grad(), w_cpu.grad(), {tolerance, tolerance},
                         name + " weight grad");
      expect_matches_cpu(b_cuda.grad(), b_cpu.grad(), {tolerance, tolerance}, name + " bias grad");
    }
  }
}

}  // namespace
}  // namespace accel
