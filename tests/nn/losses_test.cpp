// The functional losses: the PyTorch-fixture table (tests/reference/cases_nn_losses.py) —
// forward, input gradients, finite differences, low precision — plus the fused cross-entropy
// kernels against the loss composed of unfused ops, numerical stability, determinism across
// thread counts, autocast and the errors for bad targets.
#include "accel/nn/functional/losses.h"

#include <cmath>
#include <string>
#include <utility>

#include "support/op_harness.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;
using F::Reduction;

F::CrossEntropyFuncOptions ce(Reduction reduction = Reduction::Mean) {
  return F::CrossEntropyFuncOptions().reduction(reduction);
}

const std::vector<OpCase> kLossCases = {
    {"ce_mean", [](const V& x) { return F::cross_entropy(x[0], x[1]); }},
    {"ce_sum", [](const V& x) { return F::cross_entropy(x[0], x[1], ce(Reduction::Sum)); }},
    {"ce_none", [](const V& x) { return F::cross_entropy(x[0], x[1], ce(Reduction::None)); }},
    {"ce_weight_mean", [](const V& x) { return F::cross_entropy(x[0], x[1], ce().weight(x[2])); }},
    {"ce_weight_sum",
     [](const V& x) { return F::cross_entropy(x[0], x[1], ce(Reduction::Sum).weight(x[2])); }},
    {"ce_weight_none",
     [](const V& x) { return F::cross_entropy(x[0], x[1], ce(Reduction::None).weight(x[2])); }},
    {"ce_ignore_mean",
     [](const V& x) { return F::cross_entropy(x[0], x[1], ce().ignore_index(2)); }},
    {"ce_ignore_negative_none",
     [](const V& x) { return F::cross_entropy(x[0], x[1], ce(Reduction::None).ignore_index(-1)); }},
    {"ce_weight_ignore_mean",
     [](const V& x) { return F::cross_entropy(x[0], x[1], ce().weight(x[2]).ignore_index(2)); }},
    {"ce_smoothing_mean",
     [](const V& x) { return F::cross_entropy(x[0], x[1], ce().label_smoothing(0.1)); }},
    {"ce_smoothing_sum",
     [](const V& x) {
       return F::cross_entropy(x[0], x[1], ce(Reduction::Sum).label_smoothing(0.25));
     }},
    {"ce_smoothing_weight_ignore_mean",
     [](const V& x) {
       return F::cross_entropy(x[0], x[1], ce().weight(x[2]).label_smoothing(0.2).ignore_index(1));
     }},
    {"ce_smoothing_weight_ignore_none",
     [](const V& x) {
       return F::cross_entropy(
           x[0], x[1], ce(Reduction::None).weight(x[2]).label_smoothing(0.2).ignore_index(1));
     }},
    {"ce_spatial_mean", [](const V& x) { return F::cross_entropy(x[0], x[1]); }},
    {"ce_spatial_weight_smoothing_ignore_none",
     [](const V& x) {
       return F::cross_entropy(
           x[0], x[1], ce(Reduction::None).weight(x[2]).label_smoothing(0.1).ignore_index(0));
     }},
    {"ce_unbatched", [](const V& x) { return F::cross_entropy(x[0], x[1]); }},
    {"ce_probs_mean", [](const V& x) { return F::cross_entropy(x[0], x[1]); }},
    {"ce_probs_weight_smoothing_none",
     [](const V& x) {
       return F::cross_entropy(x[0], x[1], ce(Reduction::None).weight(x[2]).label_smoothing(0.1));
     }},
    {"ce_probs_spatial_sum",
     [](const V& x) { return F::cross_entropy(x[0], x[1], ce(Reduction::Sum)); }},
    {"nll_mean", [](const V& x) { return F::nll_loss(x[0], x[1]); }},
    {"nll_sum",
     [](const V& x) {
       return F::nll_loss(x[0], x[1], F::NLLLossFuncOptions().reduction(Reduction::Sum));
     }},
    {"nll_weight_ignore_mean",
     [](const V& x) {
       return F::nll_loss(x[0], x[1], F::NLLLossFuncOptions().weight(x[2]).ignore_index(3));
     }},
    {"nll_weight_spatial_none",
     [](const V& x) {
       return F::nll_loss(x[0], x[1],
                          F::NLLLossFuncOptions().weight(x[2]).reduction(Reduction::None));
     }},
    {"mse_mean", [](const V& x) { return F::mse_loss(x[0], x[1]); }},
    {"mse_sum",
     [](const V& x) {
       return F::mse_loss(x[0], x[1], F::MSELossFuncOptions().reduction(Reduction::Sum));
     }},
    {"mse_none",
     [](const V& x) {
       return F::mse_loss(x[0], x[1], F::MSELossFuncOptions().reduction(Reduction::None));
     }},
    {"l1_mean", [](const V& x) { return F::l1_loss(x[0], x[1]); }},
    {"l1_none",
     [](const V& x) {
       return F::l1_loss(x[0], x[1], F::L1LossFuncOptions().reduction(Reduction::None));
     }},
    {"smooth_l1_mean", [](const V& x) { return F::smooth_l1_loss(x[0], x[1]); }},
    {"smooth_l1_beta_none",
     [](const V& x) {
       return F::smooth_l1_loss(x[0], x[1],
                                F::SmoothL1LossFuncOptions().reduction(Reduction::None).beta(0.5));
     }},
    {"smooth_l1_beta0_sum",
     [](const V& x) {
       return F::smooth_l1_loss(x[0], x[1],
                                F::SmoothL1LossFuncOptions().reduction(Reduction::Sum).beta(0));
     }},
    {"huber_mean", [](const V& x) { return F::huber_loss(x[0], x[1]); }},
    {"huber_delta_none",
     [](const V& x) {
       return F::huber_loss(x[0], x[1],
                            F::HuberLossFuncOptions().reduction(Reduction::None).delta(0.7));
     }},
    {"bce_mean", [](const V& x) { return F::binary_cross_entropy(x[0] * 0.4, x[1] * 0.4); }},
    {"bce_none",
     [](const V& x) {
       return F::binary_cross_entropy(
           x[0] * 0.4, x[1] * 0.4, F::BinaryCrossEntropyFuncOptions().reduction(Reduction::None));
     }},
    {"bce_weight_sum",
     [](const V& x) {
       return F::binary_cross_entropy(
           x[0] * 0.4, x[1] * 0.4,
           F::BinaryCrossEntropyFuncOptions().weight(x[2]).reduction(Reduction::Sum));
     }},
    {"bce_logits_mean", [](const V& x) { return F::binary_cross_entropy_with_logits(x[0], x[1]); }},
    {"bce_logits_none",
     [](const V& x) {
       return F::binary_cross_entropy_with_logits(
           x[0], x[1], F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(Reduction::None));
     }},
    {"bce_logits_large_sum",
     [](const V& x) {
       return F::binary_cross_entropy_with_logits(
           x[0] * 30, x[1], F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(Reduction::Sum));
     }},
    {"bce_logits_pos_weight_weight_mean",
     [](const V& x) {
       return F::binary_cross_entropy_with_logits(
           x[0], x[1], F::BinaryCrossEntropyWithLogitsFuncOptions().pos_weight(x[2]).weight(x[3]));
     }},
    {"kl_div_batchmean",
     [](const V& x) {
       return F::kl_div(x[0], x[1], F::KLDivFuncOptions().reduction(F::KLDivReduction::BatchMean));
     }},
    {"kl_div_mean", [](const V& x) { return F::kl_div(x[0], x[1]); }},
    {"kl_div_none",
     [](const V& x) {
       return F::kl_div(x[0], x[1], F::KLDivFuncOptions().reduction(F::KLDivReduction::None));
     }},
    {"kl_div_log_target_sum",
     [](const V& x) {
       return F::kl_div(x[0], x[1],
                        F::KLDivFuncOptions().reduction(F::KLDivReduction::Sum).log_target(true));
     }},
    {"poisson_nll", [](const V& x) { return F::poisson_nll_loss(x[0], x[1]); }},
    {"poisson_nll_rates_full_sum",
     [](const V& x) {
       return F::poisson_nll_loss(
           x[0], x[1],
           F::PoissonNLLLossFuncOptions().log_input(false).full(true).reduction(Reduction::Sum));
     }},
    {"gaussian_nll", [](const V& x) { return F::gaussian_nll_loss(x[0], x[1], x[2]); }},
    {"gaussian_nll_shared_var_full_sum",
     [](const V& x) {
       return F::gaussian_nll_loss(
           x[0], x[1], x[2], F::GaussianNLLLossFuncOptions().full(true).reduction(Reduction::Sum));
     }},
    {"gaussian_nll_var_dim_1_none",
     [](const V& x) {
       return F::gaussian_nll_loss(x[0], x[1], x[2],
                                   F::GaussianNLLLossFuncOptions().reduction(Reduction::None));
     }},
};

ACCEL_OP_TEST_SUITE(LossOps, "ops_nn_losses.json", kLossCases);

// Runs `fn` and checks it throws accel::Error whose message holds every one of `parts`.
template <typename Fn>
void expect_error(Fn fn, std::initializer_list<std::string> parts) {
  try {
    fn();
    ADD_FAILURE() << "expected an accel::Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const std::string& part : parts) {
      EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
    }
  }
}

TEST(CrossEntropy, ClassIndexOutOfRangeNamesValueAndClasses) {
  const Tensor logits = zeros({2, 3});
  expect_error(
      [&] {
        (void)F::cross_entropy(logits, tensor({0, 3}));
      },
      {"cross_entropy: target 3 is out of bounds for 3 classes (valid: 0..2, or ignore_index "
       "-100)"});
  // Spatial targets, a negative target that is not the ignore_index, and the first bad target
  // in order is the one named.
  expect_error(
      [&] {
        (void)F::cross_entropy(zeros({2, 4, 3}), tensor({0, 1, 2, -2, 3, 9}).view({2, 3}),
                               ce(Reduction::None).ignore_index(-1));
      },
      {"cross_entropy: target -2 is out of bounds for 4 classes (valid: 0..3, or ignore_index "
       "-1)"});
  expect_error(
      [&] {
        (void)F::nll_loss(logits, tensor({-1, 0}));
      },
      {"nll_loss", "target -1", "3 classes"});
  // An ignored target may lie outside the classes.
  EXPECT_NO_THROW((void)F::cross_entropy(logits, tensor({-100, 1})));
}

TEST(CrossEntropy, WrongTargetDtypeOrShape) {
  const Tensor logits = zeros({2, 3});
  expect_error([&] { (void)F::cross_entropy(logits, zeros({2})); },
               {"cross_entropy", "[2]", "[2, 3]", "int64"});
  expect_error(
      [&] {
        (void)F::cross_entropy(logits, tensor({0, 1}, kInt32));
      },
      {"cross_entropy", "int64", "int32"});
  expect_error(
      [&] {
        (void)F::cross_entropy(logits, tensor({0, 1, 2}));
      },
      {"cross_entropy", "[3]", "[2, 3]"});
  expect_error(
      [&] {
        (void)F::cross_entropy(logits, tensor({0, 1}), ce().weight(ones({4})));
      },
      {"cross_entropy", "weight", "[3]", "[4]"});
  expect_error(
      [&] {
        (void)F::cross_entropy(logits, ones({2, 3}), ce().ignore_index(1));
      },
      {"cross_entropy", "ignore_index", "floating"});
  expect_error(
      [&] {
        (void)F::cross_entropy(logits, tensor({0, 1}), ce().label_smoothing(1.5));
      },
      {"cross_entropy", "label_smoothing", "1.5"});
}

TEST(CrossEntropy, AllIgnoredMeanIsNaNLikePyTorch) {
  const Tensor loss = F::cross_entropy(zeros({2, 3}), tensor({-100, -100}));
  EXPECT_TRUE(std::isnan(loss.item<float>()));
}

TEST(CrossEntropy, StableForHugeLogits) {
  const Tensor logits = tensor({1e4f, -1e4f, 0.f}).view({1, 3}).requires_grad_();
  const Tensor loss = F::cross_entropy(logits, tensor({1}));
  EXPECT_FLOAT_EQ(loss.item<float>(), 2e4f);
  loss.backward();
  EXPECT_TRUE(logits.grad().allclose(tensor({1.f, -1.f, 0.f}).view({1, 3})));
}

TEST(CrossEntropy, GradientOfMeanMatchesNllOfLogSoftmax) {
  // The fused backward against the unfused composition it replaces.
  const Tensor x = randn({6, 4, 3}, kFloat64);
  const Tensor target = randint(0, 4, {6, 3});
  const Tensor w = rand({4}, kFloat64) + 0.5;
  Tensor a = x.clone().requires_grad_();
  Tensor b = x.clone().requires_grad_();
  F::cross_entropy(a, target, ce().weight(w).label_smoothing(0.3)).backward();
  const Tensor lp = b.log_softmax(1);
  const Tensor nll = F::nll_loss(lp, target, F::NLLLossFuncOptions().weight(w));
  const Tensor smooth = -(lp * w.view({1, 4, 1})).sum() / w.index_select(0, target.flatten()).sum();
  (nll * 0.7 + smooth * (0.3 / 4)).backward();
  EXPECT_TRUE(a.grad().allclose(b.grad(), 1e-12, 1e-14));
}

// The loss PyTorch defines, composed of unfused ops: (1-e) nll(log_softmax) plus e/C times the
// weighted sum of -log_softmax over the classes at kept positions; a mean divides by the kept
// targets' weights.
Tensor composed_cross_entropy(const Tensor& x, const Tensor& target, const Tensor& w,
                              int64_t ignore_index, double eps, Reduction reduction) {
  const int64_t classes = x.size(1);
  const Tensor lp = x.log_softmax(1);
  const Tensor nll = F::nll_loss(
      lp, target,
      F::NLLLossFuncOptions().weight(w).ignore_index(ignore_index).reduction(Reduction::None));
  const Tensor kept = (target != ignore_index).to(x.dtype());
  DimVector class_dim(static_cast<size_t>(x.dim()), 1);
  class_dim[1] = classes;
  const Tensor smooth = -(lp * w.view(class_dim)).sum({1}) * kept;
  const Tensor per = nll * (1 - eps) + smooth * (eps / static_cast<double>(classes));
  if (reduction == Reduction::None) return per;
  if (reduction == Reduction::Sum) return per.sum();
  const Tensor safe = target.masked_fill(target == ignore_index, 0);
  return per.sum() / (w.index_select(0, safe.flatten()).view(target.sizes()) * kept).sum();
}

TEST(CrossEntropy, WeightsIgnoreAndSmoothingTogetherMatchTheComposedLoss) {
  // [N, C, d1, d2] logits, ignored positions among the targets, every reduction: values and
  // gradients (for a random upstream gradient) of the fused kernels against unfused ops.
  manual_seed(7);
  const Tensor x = randn({3, 5, 4, 2}, kFloat64) * 3;
  const Tensor target = randint(0, 5, {3, 4, 2});
  const Tensor w = rand({5}, kFloat64) + 0.25;
  for (Reduction reduction : {Reduction::None, Reduction::Sum, Reduction::Mean}) {
    SCOPED_TRACE(static_cast<int>(reduction));
    Tensor a = x.clone().requires_grad_();
    Tensor b = x.clone().requires_grad_();
    const Tensor fused =
        F::cross_entropy(a, target, ce(reduction).weight(w).ignore_index(2).label_smoothing(0.15));
    const Tensor expected = composed_cross_entropy(b, target, w, 2, 0.15, reduction);
    ASSERT_EQ(fused.sizes(), expected.sizes());
    EXPECT_TRUE(fused.allclose(expected, 1e-12, 1e-14));
    const Tensor upstream = randn(fused.sizes(), kFloat64);
    fused.backward(upstream);
    expected.backward(upstream);
    EXPECT_TRUE(a.grad().allclose(b.grad(), 1e-12, 1e-14));
    // An ignored position contributes nothing, its gradient included.
    const Tensor kept = (target != 2).unsqueeze(1).expand(x.sizes());
    EXPECT_EQ(a.grad().masked_fill(kept, 0.0).abs().sum().item<double>(), 0.0);
  }
}

TEST(CrossEntropy, LongRowsAndSmoothingWithoutWeights) {
  // Rows longer than a CUDA warp takes, label smoothing without class weights.
  manual_seed(8);
  const Tensor x = randn({4, 3000}, kFloat64);
  const Tensor target = randint(0, 3000, {4});
  Tensor a = x.clone().requires_grad_();
  Tensor b = x.clone().requires_grad_();
  F::cross_entropy(a, target, ce().label_smoothing(0.3)).backward();
  composed_cross_entropy(b, target, ones({3000}, kFloat64), -100, 0.3, Reduction::Mean).backward();
  EXPECT_TRUE(a.grad().allclose(b.grad(), 1e-12, 1e-16));
}

TEST(CrossEntropy, SameBitsForAnyThreadCount) {
  manual_seed(9);
  const Tensor x = randn({64, 10, 32, 32});
  const Tensor target = randint(0, 10, {64, 32, 32});
  auto run = [&](int threads) {
    const int previous = get_num_threads();
    set_num_threads(threads);
    Tensor a = x.clone().requires_grad_();
    const Tensor loss = F::cross_entropy(a, target, ce(Reduction::None).label_smoothing(0.1));
    loss.sum().backward();
    set_num_threads(previous);
    return std::make_pair(loss, a.grad());
  };
  const auto one = run(1);
  const auto four = run(4);
  EXPECT_TRUE(one.first.equal(four.first));
  EXPECT_TRUE(one.second.equal(four.second));
}

TEST(CrossEntropy, EmptyBatch) {
  const Tensor x = zeros({0, 3}).requires_grad_();
  const Tensor target = zeros({0}, kInt64);
  EXPECT_TRUE(std::isnan(F::cross_entropy(x, target).item<float>()));  // 0 / 0, as PyTorch
  const Tensor sum = F::cross_entropy(x, target, ce(Reduction::Sum));
  EXPECT_EQ(sum.item<float>(), 0.f);
  sum.backward();
  EXPECT_EQ(x.grad().sizes(), x.sizes());
}

TEST(CrossEntropy, Bfloat16InputUnderAutocastGetsBfloat16Gradient) {
  manual_seed(10);
  const Tensor x32 = randn({8, 6});
  const Tensor target = tensor({0, 5, 2, -100, 1, 3, 4, 5});
  Tensor x16 = x32.to(kBFloat16).requires_grad_();
  Tensor reference = x16.detach().to(kFloat32).requires_grad_();
  {
    AutocastGuard guard(kCPU, kBFloat16);
    F::cross_entropy(x16, target, ce().label_smoothing(0.1)).backward();
  }
  F::cross_entropy(reference, target, ce().label_smoothing(0.1)).backward();
  ASSERT_EQ(x16.grad().dtype(), kBFloat16);
  EXPECT_TRUE(x16.grad().to(kFloat32).allclose(reference.grad().to(kBFloat16).to(kFloat32)));
}

TEST(CrossEntropy, RunsInFloat32UnderAutocast) {
  AutocastGuard guard(kCPU, kBFloat16);
  const Tensor logits = randn({3, 4}).to(kBFloat16);
  EXPECT_EQ(F::cross_entropy(logits, tensor({0, 1, 2})).dtype(), kFloat32);
  EXPECT_EQ(F::mse_loss(logits, logits).dtype(), kFloat32);
}

TEST(BinaryCrossEntropy, ClampsLogAtMinus100) {
  const Tensor x = tensor({0.0, 1.0});
  const Tensor y = tensor({1.0, 0.0});
  const Tensor loss =
      F::binary_cross_entropy(x, y, F::BinaryCrossEntropyFuncOptions().reduction(Reduction::None));
  EXPECT_TRUE(loss.equal(tensor({100.0, 100.0})));
}

TEST(BinaryCrossEntropy, BadInputs) {
  expect_error(
      [] {
        (void)F::binary_cross_entropy(tensor({0.5f, 1.5f}), tensor({0.f, 1.f}));
      },
      {"binary_cross_entropy", "[0, 1]", "1.5"});
  expect_error(
      [] {
        (void)F::binary_cross_entropy(full({2, 3}, 0.5), zeros({3, 2}));
      },
      {"binary_cross_entropy", "[3, 2]", "[2, 3]"});
  expect_error([] { (void)F::binary_cross_entropy_with_logits(zeros({4}), zeros({2})); },
               {"binary_cross_entropy_with_logits", "[2]", "[4]"});
}

TEST(BinaryCrossEntropyWithLogits, StableForLargeLogits) {
  const Tensor x = tensor({1000.0, -1000.0, 1000.0, -1000.0}).requires_grad_();
  const Tensor y = tensor({0.0, 1.0, 1.0, 0.0});
  const Tensor loss = F::binary_cross_entropy_with_logits(
      x, y, F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(Reduction::None));
  EXPECT_TRUE(loss.equal(tensor({1000.0, 1000.0, 0.0, 0.0})));
  loss.sum().backward();
  EXPECT_TRUE(x.grad().equal(tensor({1.0, -1.0, 0.0, 0.0})));
}

TEST(RegressionLosses, ShapesMustBroadcast) {
  expect_error([] { (void)F::mse_loss(zeros({2, 3}), zeros({4})); }, {"mse_loss", "[2, 3]", "[4]"});
  expect_error([] { (void)F::l1_loss(zeros({2}, kInt64), zeros({2})); }, {"l1_loss", "int64"});
  // An integer target promotes to the input's dtype, as in PyTorch.
  EXPECT_FLOAT_EQ(F::l1_loss(zeros({2}), tensor({1, 3})).item<float>(), 2.f);
  expect_error(
      [] { (void)F::huber_loss(zeros({2}), zeros({2}), F::HuberLossFuncOptions().delta(0)); },
      {"huber_loss", "delta"});
}

// A target that broadcasts against an input of another shape is legal but usually a mistake
// ([N, 1] predictions against [N] targets average N x N differences): a warning, once per
// distinct message, as PyTorch's UserWarning.
TEST(RegressionLosses, ATargetOfAnotherShapeWarnsOnce) {
  std::vector<std::string> warnings;
  const WarningHandler previous =
      set_warning_handler([&](const std::string& message) { warnings.push_back(message); });
  const Tensor x = zeros({4, 1}), y = ones({4});
  EXPECT_FLOAT_EQ(F::mse_loss(x, y).item<float>(), 1.f);  // still computed, over [4, 4]
  (void)F::mse_loss(x, y);
  (void)F::l1_loss(x, y);
  (void)F::smooth_l1_loss(zeros({3}), ones({1}));
  (void)F::huber_loss(x, y.view({4, 1}));  // same shapes: no warning
  set_warning_handler(previous);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_EQ(warnings[0],
            "mse_loss: target size [4] differs from input size [4, 1]; they broadcast to [4, 4], "
            "which is likely a mistake (unsqueeze or view the target to the input's shape)");
  EXPECT_EQ(warnings[1].rfind("l1_loss: target size [4]", 0), 0u) << warnings[1];
  EXPECT_EQ(warnings[2].rfind("smooth_l1_loss: target size [1] differs", 0), 0u) << warnings[2];
}

TEST(GaussianNLLLoss, ClampsTheVarianceInValueOnly) {
  const Tensor input = zeros({2}, kFloat64);
  const Tensor target = ones({2}, kFloat64);
  const Tensor var = tensor({0.0, 4.0}).requires_grad_();
  const Tensor loss = F::gaussian_nll_loss(
      input, target, var, F::GaussianNLLLossFuncOptions().eps(0.5).reduction(Reduction::None));
  // var 0 counts as eps = 0.5: (log 0.5 + 1 / 0.5) / 2; the gradient, taken there, reaches var.
  EXPECT_NEAR(loss[0].item<double>(), (std::log(0.5) + 2) / 2, 1e-12);
  EXPECT_NEAR(loss[1].item<double>(), (std::log(4.0) + 0.25) / 2, 1e-12);
  loss.sum().backward();
  EXPECT_NEAR(var.grad()[0].item<double>(), (1 / 0.5 - 1 / 0.25) / 2, 1e-12);
}

TEST(GaussianNLLLoss, BadVariances) {
  const Tensor x = zeros({3, 4});
  expect_error(
      [&] {
        F::gaussian_nll_loss(x, x, full({3, 4}, -1.0));
      },
      {"gaussian_nll_loss", "var has negative entries (smallest -1)"});
  expect_error(
      [&] {
        F::gaussian_nll_loss(x, x, ones({3, 2}));
      },
      {"gaussian_nll_loss", "var of shape [3, 2] does not fit input [3, 4]"});
  expect_error([&] { F::gaussian_nll_loss(x, x, ones({4})); }, {"var of shape [4]"});
  EXPECT_EQ(nn::GaussianNLLLoss()->forward(x, x, ones({1, 4})).dim(), 0);
}

TEST(PoissonNLLLoss, ModuleMatchesFunction) {
  const Tensor x = randn({3, 4});
  const Tensor y = rand({3, 4}) * 3;
  const auto options = F::PoissonNLLLossFuncOptions().full(true);
  EXPECT_TRUE(nn::PoissonNLLLoss(options)->forward(x, y).equal(F::poisson_nll_loss(x, y, options)));
  EXPECT_EQ(nn::PoissonNLLLoss()->name(), "PoissonNLLLoss");
}

}  // namespace
}  // namespace accel
