// Loss modules: each equals its functional loss with the same options (the functional losses
// carry the PyTorch fixtures), weights are buffers that follow the module, and holders work as
// in the quickstart.
#include <gtest/gtest.h>

#include "accel/accel.h"
#include "io_test_util.h"

namespace accel {
namespace {

using F::Reduction;

// loss(input, target) matches reference(input, target) exactly and reports `name`.
template <typename Loss, typename Reference>
void expect_matches(Loss loss, Reference reference, const Tensor& input, const Tensor& target,
                    const std::string& name) {
  EXPECT_EQ(loss->name(), name);
  EXPECT_TRUE(equal(loss(input, target), reference(input, target))) << name;
}

TEST(LossModules, EachMatchesItsFunctional) {
  manual_seed(0);
  const Tensor logits = randn({4, 3}, kFloat64);
  const Tensor classes = tensor({0, 2, 1, 2});
  const Tensor x = randn({4, 3}, kFloat64), y = randn({4, 3}, kFloat64);
  const Tensor probs = rand({4, 3}, kFloat64), labels = rand({4, 3}, kFloat64).gt(0.5).to(kFloat64);
  const Tensor weight = tensor({1.0, 2.0, 0.5});

  auto ce = nn::CrossEntropyLossOptions().weight(weight).label_smoothing(0.1).ignore_index(1);
  expect_matches(
      nn::CrossEntropyLoss(ce), [&](auto& a, auto& b) { return F::cross_entropy(a, b, ce); },
      logits, classes, "CrossEntropyLoss");
  auto nll = nn::NLLLossOptions().weight(weight).reduction(Reduction::Sum);
  expect_matches(
      nn::NLLLoss(nll), [&](auto& a, auto& b) { return F::nll_loss(a, b, nll); },
      logits.log_softmax(1), classes, "NLLLoss");
  expect_matches(
      nn::MSELoss(), [](auto& a, auto& b) { return F::mse_loss(a, b); }, x, y, "MSELoss");
  auto l1 = nn::L1LossOptions().reduction(Reduction::None);
  expect_matches(
      nn::L1Loss(l1), [&](auto& a, auto& b) { return F::l1_loss(a, b, l1); }, x, y, "L1Loss");
  auto smooth = nn::SmoothL1LossOptions().beta(0.5);
  expect_matches(
      nn::SmoothL1Loss(smooth), [&](auto& a, auto& b) { return F::smooth_l1_loss(a, b, smooth); },
      x, y, "SmoothL1Loss");
  auto huber = nn::HuberLossOptions().delta(0.3);
  expect_matches(
      nn::HuberLoss(huber), [&](auto& a, auto& b) { return F::huber_loss(a, b, huber); }, x, y,
      "HuberLoss");
  auto bce = nn::BCELossOptions().weight(weight);
  expect_matches(
      nn::BCELoss(bce), [&](auto& a, auto& b) { return F::binary_cross_entropy(a, b, bce); }, probs,
      labels, "BCELoss");
  auto logits_bce = nn::BCEWithLogitsLossOptions().pos_weight(tensor({3.0, 1.0, 0.5}));
  expect_matches(
      nn::BCEWithLogitsLoss(logits_bce),
      [&](auto& a, auto& b) { return F::binary_cross_entropy_with_logits(a, b, logits_bce); }, x,
      labels, "BCEWithLogitsLoss");
  auto kl = nn::KLDivLossOptions().reduction(F::KLDivReduction::BatchMean);
  expect_matches(
      nn::KLDivLoss(kl), [&](auto& a, auto& b) { return F::kl_div(a, b, kl); },
      logits.log_softmax(1), probs.softmax(1), "KLDivLoss");
}

TEST(LossModules, WeightsAreBuffersThatFollowTheModule) {
  nn::CrossEntropyLoss loss(nn::CrossEntropyLossOptions().weight(tensor({1.f, 2.f, 3.f})));
  ASSERT_EQ(loss->named_buffers().keys(), std::vector<std::string>{"weight"});
  EXPECT_TRUE(loss->parameters().empty());
  loss->to(kFloat64);
  EXPECT_EQ(loss->options.weight().dtype(), kFloat64);  // the option is the buffer itself
  EXPECT_EQ(loss->state_dict()["weight"].dtype(), kFloat64);
  Tensor logits = randn({2, 3}, kFloat64);
  EXPECT_TRUE(
      equal(loss(logits, tensor({0, 2})),
            F::cross_entropy(logits, tensor({0, 2}),
                             F::CrossEntropyFuncOptions().weight(tensor({1.0, 2.0, 3.0})))));

  nn::BCEWithLogitsLoss with_both(
      nn::BCEWithLogitsLossOptions().weight(ones({3})).pos_weight(full({3}, 2.0)));
  EXPECT_EQ(with_both->named_buffers().keys(), (std::vector<std::string>{"weight", "pos_weight"}));
  // Without weights a loss has no state at all.
  EXPECT_TRUE(nn::CrossEntropyLoss()->state_dict().empty());
  EXPECT_TRUE(nn::BCEWithLogitsLoss()->state_dict().empty());
}

TEST(LossModules, QuickstartUseAndGradients) {
  nn::Linear model(4, 3);
  nn::CrossEntropyLoss criterion;  // as the quickstart: nn::CrossEntropyLoss()
  Tensor loss = criterion(model(randn({5, 4})), tensor({0, 1, 2, 1, 0}));
  EXPECT_EQ(loss.dim(), 0);
  loss.backward();
  EXPECT_TRUE(model->weight.grad().defined());
  // Misuse reports the functional op's error.
  std::string msg = testing_io::error_message([&] { criterion(zeros({2, 3}), tensor({0, 3})); });
  EXPECT_CONTAINS(msg, "cross_entropy");
}

}  // namespace
}  // namespace accel
