// CTC loss tests: F::ctc_loss and nn::CTCLoss against PyTorch fixtures
// (tests/reference/cases_nn_ctc.py) through the op harness, PyTorch's gradient convention for
// log-probabilities, a hand-counted two-step case, unreachable targets, and the errors.
#include <cmath>

#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;
using F::CTCLossFuncOptions;
using F::Reduction;

// The fixed targets of cases_nn_ctc.py.
Tensor padded() { return tensor({1, 2, 2, 3, 1, 0}).view({2, 3}); }

Tensor ctc(const Tensor& x, const Tensor& targets, const Tensor& input_lengths,
           const Tensor& target_lengths, const CTCLossFuncOptions& options = {}) {
  return F::ctc_loss(x.log_softmax(-1), targets, input_lengths, target_lengths, options);
}

const std::vector<OpCase> kCtcCases = {
    {"ctc_padded_mean",
     [](const V& x) {
       return nn::CTCLoss()->forward(x[0].log_softmax(-1), padded(), tensor({6, 5}),
                                     tensor({3, 2}));
     }},
    {"ctc_concatenated_sum",
     [](const V& x) {
       return ctc(x[0], tensor({1, 2, 2, 3, 1}), tensor({6, 4}), tensor({3, 2}),
                  CTCLossFuncOptions().reduction(Reduction::Sum));
     }},
    {"ctc_blank_last_none",
     [](const V& x) {
       return ctc(x[0], tensor({0, 2, 1, 1}).view({2, 2}), tensor({4, 6}), tensor({2, 2}),
                  CTCLossFuncOptions().blank(3).reduction(Reduction::None));
     }},
    {"ctc_empty_target",
     [](const V& x) {
       return ctc(x[0], padded(), tensor({5, 6}), tensor({0, 2}));
     }},
    {"ctc_zero_infinity",
     [](const V& x) {
       return ctc(x[0], padded(), tensor({3, 5}), tensor({3, 2}),
                  CTCLossFuncOptions().zero_infinity(true).reduction(Reduction::Sum));
     }},
    {"ctc_unbatched",
     [](const V& x) {
       return ctc(x[0], tensor({1, 3}), full({}, 5, kInt64), full({}, 2, kInt64));
     }},
};

ACCEL_OP_TEST_SUITE(NnCtc, "ops_nn_ctc.json", kCtcCases);

// Two steps, classes {blank, a}, target "a": the alignments are "a a", "- a" and "a -".
TEST(CtcLoss, SumsEveryAlignment) {
  const Tensor probs = tensor({0.6, 0.4, 0.3, 0.7}).view({2, 1, 2});  // [T, N, C]
  const Tensor loss = F::ctc_loss(probs.log(), tensor({1}).view({1, 1}), tensor({2}), tensor({1}),
                                  CTCLossFuncOptions().reduction(Reduction::Sum));
  const double alignments = 0.4 * 0.7 + 0.6 * 0.7 + 0.4 * 0.3;
  EXPECT_NEAR(loss.item<double>(), -std::log(alignments), 1e-12);
}

// PyTorch's gradient for log-probabilities: exp(log_probs) minus each class's share of the
// alignments, so for a log_softmax's output every valid step's gradient sums to zero, and steps
// past the input length get none.
TEST(CtcLoss, GradientForLogProbsFollowsPyTorchsConvention) {
  manual_seed(10);
  const Tensor log_probs = randn({5, 2, 4}, kFloat64).log_softmax(2).requires_grad_();
  F::ctc_loss(log_probs, tensor({1, 2, 3, 0}).view({2, 2}), tensor({5, 3}), tensor({2, 1}))
      .backward();
  const Tensor step_sums = log_probs.grad().sum(2);
  EXPECT_TRUE(step_sums.allclose(zeros({5, 2}, kFloat64), 0, 1e-12)) << step_sums;
  EXPECT_TRUE(log_probs.grad().narrow(0, 3, 2).select(1, 1).equal(zeros({2, 4}, kFloat64)));
}

TEST(CtcLoss, UnreachableTargetsAreInfiniteOrZero) {
  const Tensor log_probs = zeros({2, 1, 3}, kFloat64).log_softmax(2).requires_grad_();
  const Tensor targets = tensor({1, 1}).view({1, 2});  // needs three steps: 1, blank, 1
  const Tensor loss = F::ctc_loss(log_probs, targets, tensor({2}), tensor({2}));
  EXPECT_TRUE(std::isinf(loss.item<double>()));
  const Tensor zeroed = F::ctc_loss(log_probs, targets, tensor({2}), tensor({2}),
                                    CTCLossFuncOptions().zero_infinity(true));
  EXPECT_EQ(zeroed.item<double>(), 0.0);
  zeroed.backward();
  EXPECT_TRUE(log_probs.grad().equal(zeros({2, 1, 3}, kFloat64)));
}

TEST(CtcLoss, ErrorsNameTheOpAndTheProblem) {
  const Tensor log_probs = zeros({4, 2, 3});
  const Tensor targets = tensor({1, 2, 1, 0}).view({2, 2});
  expect_error_containing(
      [&] {
        F::ctc_loss(zeros({4}), targets, tensor({4, 4}), tensor({2, 1}));
      },
      "ctc_loss: expected log_probs [T, N, C] or unbatched [T, C], got [4]");
  expect_error_containing(
      [&] {
        F::ctc_loss(log_probs, targets, tensor({5, 4}), tensor({2, 1}));
      },
      "ctc_loss: input lengths must be in [1, 4] (the time steps), got [5, 4]");
  expect_error_containing(
      [&] {
        F::ctc_loss(log_probs, targets, tensor({4}), tensor({2, 1}));
      },
      "ctc_loss: expected 2 input and target lengths, got 1 and 2");
  expect_error_containing(
      [&] {
        F::ctc_loss(log_probs, targets, tensor({4, 4}), tensor({3, 1}));
      },
      "ctc_loss: expected padded targets [2, >= 3] for target lengths [3, 1], got [2, 2]");
  expect_error_containing(
      [&] {
        F::ctc_loss(log_probs, tensor({1, 0, 1, 0}).view({2, 2}), tensor({4, 4}), tensor({2, 1}));
      },
      "ctc_loss: target labels must lie in [0, 3) and differ from the blank 0, got 0");
  expect_error_containing(
      [&] {
        F::ctc_loss(log_probs, targets, tensor({4, 4}), tensor({2, 1}),
                    CTCLossFuncOptions().blank(3));
      },
      "ctc_loss: blank must be in [0, 3), got 3");
}

}  // namespace
}  // namespace accel
