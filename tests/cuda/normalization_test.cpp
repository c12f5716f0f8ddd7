// The fused layer_norm and batch_norm kernels on CUDA against the CPU's: for layer_norm, rows a
// warp normalizes and rows a block does, enough rows for several blocks of the weight and bias
// column sums; for batch_norm, [N, C] and image-shaped inputs in training and evaluation; with
// and without the affine parameters, values and all three gradients, in float32, float64 and
// bfloat16; repeated runs give the same bits. Each test skips itself without a CUDA device.
#include <string>
#include <vector>

#include "accel/accel.h"
#include "support/cuda_test.h"
#include "support/tensor_compare.h"

namespace accel {
namespace {

using testing::expect_matches_cpu;
using testing::expect_same_bits;
using testing::Tolerance;

const Device kGpu(kCUDA, 0);

struct Case {
  std::string name;
  std::vector<int64_t> sizes;  // normalized over the last dim
  bool weight;
  bool bias;
};

const std::vector<Case> kCases = {
    {"short_rows", {64, 96}, true, true},
    {"short_rows_no_affine", {8, 5, 33}, false, false},
    {"long_rows", {40, 3000}, true, false},
    {"many_rows", {300, 128}, false, true},
};

// Both devices sum in the accumulate type, in different orders; a bfloat16 result may round to
// a neighbouring value (steps of up to 2^-7 of it).
Tolerance tolerance(ScalarType t) {
  if (t == kFloat64) return {1e-10, 1e-12};
  return t == kFloat32 ? Tolerance{1e-5, 1e-5} : Tolerance{1.6e-2, 1e-2};
}

struct Result {
  Tensor out, grad_input, grad_weight, grad_bias;
};

Result run(const Case& c, const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& g,
           Device device) {
  Tensor xi = x.to(device).requires_grad_(true);
  Tensor wi = c.weight ? w.to(device).requires_grad_(true) : Tensor();
  Tensor bi = c.bias ? b.to(device).requires_grad_(true) : Tensor();
  Tensor out = F::layer_norm(xi, {c.sizes.back()}, wi, bi);
  out.backward(g.to(device));
  return {out.detach(), xi.grad(), c.weight ? wi.grad() : Tensor(), c.bias ? bi.grad() : Tensor()};
}

struct Inputs {
  Tensor x, w, b, g;
};
Inputs draw(const Case& c, ScalarType dtype) {
  Generator generator(31);
  const int64_t cols = c.sizes.back();
  return {randn(c.sizes, kFloat64, &generator).mul(2).add(1).to(dtype),
          randn({cols}, kFloat64, &generator).to(dtype),
          randn({cols}, kFloat64, &generator).to(dtype),
          randn(c.sizes, kFloat64, &generator).to(dtype)};
}

TEST(CudaLayerNorm, ValuesAndGradientsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : {kFloat32, kFloat64, kBFloat16}) {
    for (const Case& c : kCases) {
      const std::string what = c.name + " " + std::string(to_string(dtype));
      const Inputs in = draw(c, dtype);
      const Result cpu = run(c, in.x, in.w, in.b, in.g, Device(kCPU));
      const Result gpu = run(c, in.x, in.w, in.b, in.g, kGpu);
      EXPECT_EQ(gpu.out.device(), kGpu) << what;
      EXPECT_EQ(gpu.out.dtype(), dtype) << what;
      expect_matches_cpu(gpu.out, cpu.out, tolerance(dtype), what + " out");
      expect_matches_cpu(gpu.grad_input, cpu.grad_input, tolerance(dtype), what + " grad_input");
      if (c.weight) {
        expect_matches_cpu(gpu.grad_weight, cpu.grad_weight, tolerance(dtype),
                           what + " grad_weight");
      }
      if (c.bias) {
        expect_matches_cpu(gpu.grad_bias, cpu.grad_bias, tolerance(dtype), what + " grad_bias");
      }
    }
  }
}

TEST(CudaLayerNorm, RepeatedRunsGiveTheSameBits) {
  ACCEL_REQUIRE_CUDA();
  for (const Case& c : kCases) {
    const Inputs in = draw(c, kFloat32);
    const Result first = run(c, in.x, in.w, in.b, in.g, kGpu);
    for (int repeat = 0; repeat < 3; ++repeat) {
      const Result again = run(c, in.x, in.w, in.b, in.g, kGpu);
      const std::string what = c.name + ", run " + std::to_string(repeat);
      expect_same_bits(again.out, first.out, what + " out");
      expect_same_bits(again.grad_input, first.grad_input, what + " grad_input");
      if (c.weight) expect_same_bits(again.grad_weight, first.grad_weight, what + " grad_weight");
      if (c.bias) expect_same_bits(again.grad_bias, first.grad_bias, what + " grad_bias");
    }
  }
}

// batch_norm over [N, C, *] with float32 running statistics (as BatchNorm keeps them).
struct BatchNormCase {
  std::string name;
  std::vector<int64_t> sizes;
  bool training;
  bool affine;
};

const std::vector<BatchNormCase> kBatchNormCases = {
    {"images_training", {8, 16, 12, 12}, true, true},
    {"images_eval", {8, 16, 12, 12}, false, true},
    {"rows_training_no_affine", {128, 40}, true, false},
    {"sequence_eval_no_affine", {4, 6, 50}, false, false},
};

Result run_batch_norm(const BatchNormCase& c, const Inputs& in, Device device) {
  const int64_t channels = c.sizes[1];
  Generator generator(41);
  Tensor running_mean = randn({channels}, kFloat32, &generator).to(device);
  Tensor running_var = rand({channels}, kFloat32, &generator).add(0.5).to(device);
  Tensor xi = in.x.to(device).requires_grad_(true);
  Tensor wi = c.affine ? in.w.to(device).requires_grad_(true) : Tensor();
  Tensor bi = c.affine ? in.b.to(device).requires_grad_(true) : Tensor();
  Tensor out = F::batch_norm(xi, running_mean, running_var, wi, bi, c.training, 0.1, 1e-5);
  out.backward(in.g.to(device));
  // The running statistics after the step travel in the weight's slot when there is none.
  return {out.detach(), xi.grad(), c.affine ? wi.grad() : running_mean,
          c.affine ? bi.grad() : running_var};
}

TEST(CudaBatchNorm, ValuesGradientsAndRunningStatisticsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : {kFloat32, kFloat64, kBFloat16}) {
    for (const BatchNormCase& c : kBatchNormCases) {
      const std::string what = c.name + " " + std::string(to_string(dtype));
      const Case shape{c.name, {c.sizes[0], c.sizes[1]}, true, true};
      Inputs in = draw(shape, dtype);
      Generator generator(43);
      in.x = randn(c.sizes, kFloat64, &generator).mul(2).add(1).to(dtype);
      in.g = randn(c.sizes, kFloat64, &generator).to(dtype);
      const Result cpu = run_batch_norm(c, in, Device(kCPU));
      const Result gpu = run_batch_norm(c, in, kGpu);
      EXPECT_EQ(gpu.out.device(), kGpu) << what;
      EXPECT_EQ(gpu.grad_input.dtype(), dtype) << what;
      expect_matches_cpu(gpu.out, cpu.out, tolerance(dtype), what + " out");
      expect_matches_cpu(gpu.grad_input, cpu.grad_input, tolerance(dtype), what + " grad_input");
      // The running statistics stay float32 whatever x's dtype, and their update may round
      // 0.1 * mean once or twice (a fused multiply-add on one device only).
      const auto parameters = c.affine ? tolerance(dtype) : tolerance(kFloat32);
      expect_matches_cpu(gpu.grad_weight, cpu.grad_weight, parameters,
                         what + (c.affine ? " grad_weight" : " running_mean"));
      expect_matches_cpu(gpu.grad_bias, cpu.grad_bias, parameters,
                         what + (c.affine ? " grad_bias" : " running_var"));
    }
  }
}

TEST(CudaBatchNorm, RepeatedRunsGiveTheSameBits) {
  ACCEL_REQUIRE_CUDA();
  const BatchNormCase& c = kBatchNormCases[0];
  Inputs in = draw(Case{c.name, {c.sizes[0], c.sizes[1]}, true, true}, kFloat32);
  Generator generator(47);
  in.x = randn(c.sizes, kFloat32, &generator);
  in.g = randn(c.sizes, kFloat32, &generator);
  const Result first = run_batch_norm(c, in, kGpu);
  for (int repeat = 0; repeat < 3; ++repeat) {
    const Result again = run_batch_norm(c, in, kGpu);
    const std::string what = "run " + std::to_string(repeat);
    expect_same_bits(again.out, first.out, what + " out");
    expect_same_bits(again.grad_input, first.grad_input, what + " grad_input");
    expect_same_bits(again.grad_weight, first.grad_weight, what + " grad_weight");
    expect_same_bits(again.grad_bias, first.grad_bias, what + " grad_bias");
  }
}

}  // namespace
}  // namespace accel
