// The fused cross-entropy kernels on CUDA against the CPU's, through F::cross_entropy: every
// layout the CUDA kernels treat differently (a warp per classifier row, a block per long row,
// a thread per position when there are dims after the class dim), with class weights,
// ignore_index and label smoothing, every reduction, values and gradients, in float32, float64
// and bfloat16; repeated runs give the same bits; a target out of range is raised as
// accel::Error at the next synchronization. Each test skips itself without a CUDA device.
#include <string>
#include <utility>
#include <vector>

#include "accel/accel.h"
#include "support/cuda_test.h"
#include "support/expect_error.h"
#include "support/tensor_compare.h"

namespace accel {
namespace {

using F::Reduction;
using testing::error_of;
using testing::expect_matches_cpu;
using testing::expect_same_bits;
using testing::Tolerance;

const Device kGpu(kCUDA, 0);

struct Case {
  std::string name;
  std::vector<int64_t> sizes;  // [N, C, d...]
  bool weighted;
  int64_t ignore_index;
  double label_smoothing;
};

const std::vector<Case> kCases = {
    {"classifier", {64, 10}, false, -100, 0.0},
    {"classifier_weight_ignore_smoothing", {64, 10}, true, 3, 0.1},
    {"long_rows_weight_smoothing", {6, 3000}, true, -100, 0.2},
    {"long_rows_ignore", {5, 2500}, false, 7, 0.0},
    {"spatial_weight_ignore_smoothing", {4, 7, 5, 3}, true, 0, 0.1},
    {"spatial", {3, 4, 70}, false, -100, 0.0},
    {"one_class", {9, 1}, false, -100, 0.3},
};

// How far the GPU may be from the CPU (|gpu - cpu| <= rtol |cpu| + atol): both accumulate in
// the same type, in other orders; a bfloat16 result may also round to a neighbouring value, a
// step being up to 2^-7 of it.
Tolerance tolerance(ScalarType t) {
  if (t == kFloat64) return {1e-10, 1e-12};
  return t == kFloat32 ? Tolerance{1e-5, 1e-6} : Tolerance{1.6e-2, 1e-3};
}

// Targets in [0, C) with every fifth position set to the ignore_index.
Tensor targets_for(const Case& c, uint64_t seed) {
  Generator generator(seed);
  std::vector<int64_t> sizes = c.sizes;
  const int64_t classes = sizes[1];
  sizes.erase(sizes.begin() + 1);
  Tensor target = randint(0, classes, sizes, kInt64, &generator);
  int64_t* values = target.data_ptr<int64_t>();
  for (int64_t i = 0; i < target.numel(); i += 5) values[i] = c.ignore_index;
  return target;
}

F::CrossEntropyFuncOptions options_for(const Case& c, Reduction reduction, ScalarType dtype) {
  auto options = F::CrossEntropyFuncOptions()
                     .reduction(reduction)
                     .ignore_index(c.ignore_index)
                     .label_smoothing(c.label_smoothing);
  if (c.weighted) {
    Generator generator(3);
    options.weight(rand({c.sizes[1]}, kFloat64, &generator).add(0.5).to(dtype));
  }
  return options;
}

// The loss and the logits' gradient for the upstream gradient `upstream`, on x's device.
std::pair<Tensor, Tensor> loss_and_gradient(const Tensor& x, const Tensor& target,
                                            F::CrossEntropyFuncOptions options,
                                            const Tensor& upstream) {
  if (options.weight().defined()) options.weight(options.weight().to(x.device()));
  Tensor leaf = x.detach().clone().requires_grad_();
  const Tensor loss = F::cross_entropy(leaf, target.to(x.device()), options);
  loss.backward(upstream.to(x.device()));
  return {loss, leaf.grad()};
}

TEST(CudaCrossEntropy, ValuesAndGradientsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : {kFloat32, kFloat64, kBFloat16}) {
    for (const Case& c : kCases) {
      for (Reduction reduction : {Reduction::None, Reduction::Sum, Reduction::Mean}) {
        const std::string what = c.name + " " + std::string(to_string(dtype)) + " reduction " +
                                 std::to_string(static_cast<int>(reduction));
        Generator generator(11);
        const Tensor x = randn(c.sizes, kFloat64, &generator).mul(2).to(dtype);
        const Tensor target = targets_for(c, 12);
        const auto options = options_for(c, reduction, dtype);
        const Tensor upstream = reduction == Reduction::None
                                    ? randn(target.sizes(), kFloat64, &generator).to(dtype)
                                    : scalar_tensor(1.0, dtype);
        const auto [cpu_loss, cpu_grad] = loss_and_gradient(x, target, options, upstream);
        const auto [gpu_loss, gpu_grad] = loss_and_gradient(x.to(kGpu), target, options, upstream);
        expect_matches_cpu(gpu_loss, cpu_loss, tolerance(dtype), what + " loss");
        expect_matches_cpu(gpu_grad, cpu_grad, tolerance(dtype), what + " gradient");
      }
    }
  }
}

TEST(CudaCrossEntropy, RepeatedRunsGiveTheSameBits) {
  ACCEL_REQUIRE_CUDA();
  for (const Case& c : kCases) {
    Generator generator(21);
    const Tensor x = randn(c.sizes, kFloat32, &generator).to(kGpu);
    const Tensor target = targets_for(c, 22);
    const auto options = options_for(c, Reduction::None, kFloat32);
    const Tensor upstream = ones(target.sizes());
    const auto [loss, grad] = loss_and_gradient(x, target, options, upstream);
    for (int run = 0; run < 3; ++run) {
      const auto [again, grad_again] = loss_and_gradient(x, target, options, upstream);
      const std::string what = c.name + ", run " + std::to_string(run);
      expect_same_bits(again, loss, what + " loss");
      expect_same_bits(grad_again, grad, what + " gradient");
    }
  }
}

TEST(CudaCrossEntropy, TargetOutOfRangeRaisesAtNextSynchronization) {
  ACCEL_REQUIRE_CUDA();
  const Tensor logits = randn({3, 5}).to(kGpu);
  const std::string message = error_of([&] {
    (void)F::cross_entropy(logits, tensor({0, 7, 1}).to(kGpu)).cpu();
  });
  EXPECT_NE(message.find("cross_entropy: target 7 is out of bounds for 5 classes (valid: 0..4, "
                         "or ignore_index -100)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("cuda:0"), std::string::npos) << message;
  EXPECT_NO_THROW(cuda::synchronize(kGpu));  // raised once

  // Spatial targets, through item(); the bad position counts as ignored.
  const Tensor spatial = randn({2, 4, 3}).to(kGpu);
  const Tensor bad = tensor({0, 1, -3, 2, 3, 0}).view({2, 3}).to(kGpu);
  testing::expect_error_containing([&] { (void)F::cross_entropy(spatial, bad).item<float>(); },
                                   "target -3");
  const Tensor per_position =
      F::cross_entropy(spatial, bad, F::CrossEntropyFuncOptions().reduction(Reduction::None));
  EXPECT_THROW(cuda::synchronize(kGpu), Error);
  EXPECT_EQ(per_position.cpu()[0][2].item<float>(), 0.f);

  // The device works as before afterwards.
  const Tensor good = tensor({0, 4, 1});
  EXPECT_NEAR(F::cross_entropy(logits, good.to(kGpu)).item<float>(),
              F::cross_entropy(logits.cpu(), good).item<float>(), 1e-5);
}

TEST(CudaCrossEntropy, NllLossChecksTargetsWithoutWaiting) {
  ACCEL_REQUIRE_CUDA();
  const Tensor log_probs = randn({3, 5}).log_softmax(1).to(kGpu);
  // ignore_index positions are not checked; a bad target surfaces at the next synchronization.
  EXPECT_NO_THROW((void)F::nll_loss(log_probs, tensor({-100, 4, 0}).to(kGpu)).cpu());
  const Tensor loss = F::nll_loss(log_probs, tensor({0, 5, 1}).to(kGpu));
  testing::expect_error_containing([&] { cuda::synchronize(kGpu); }, "nll_loss");
  (void)loss;
}

}  // namespace
}  // namespace accel
