// The functional losses: the PyTorch-fixture table (tests/reference/cases_nn_losses.py) —
// forward, input gradients, finite differences, low precision — plus numerical stability,
// autocast and the errors for bad targets.
#include "accel/nn/functional/losses.h"

#include <cmath>
#include <string>

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
      {"cross_entropy", "target 3", "3 classes"});
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

}  // namespace
}  // namespace accel
