// TerminateOnNaN names what stopped the run: NaN, +inf or -inf, in which phase, batch and epoch,
// after how many optimizer steps.
#include <gtest/gtest.h>

#include <limits>

#include "accel/accel.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

// 8 training batches per epoch, in order, no evaluation unless asked.
TrainArgs eight_batches_per_epoch(int64_t num_epochs, bool evaluate = false) {
  return {.train_dataset = testing::regression_dataset(64),
          .num_epochs = num_epochs,
          .eval_dataset = evaluate ? testing::regression_dataset(16, 11) : nullptr,
          .per_device_batch_size = 8,
          .train_dataloader_kwargs = testing::in_order()};
}

// The reason TerminateOnNaN gives when the loss is multiplied by `factor` from its
// `first_bad_call`-th call on (calls counted from 1, training and evaluation alike).
std::string stop_reason(double factor, int64_t first_bad_call, const TrainArgs& args) {
  auto model = testing::linear_model();
  auto terminate = std::make_shared<TerminateOnNaN>();
  int64_t calls = 0;
  auto loss = [&](const Tensor& outputs, const Tensor& targets) {
    const Tensor mse = nn::functional::mse_loss(outputs, targets);
    return ++calls >= first_bad_call ? mse * factor : mse;
  };
  Trainer trainer(model, loss, testing::sgd(*model), {terminate});
  trainer.train(args);
  EXPECT_TRUE(terminate->triggered());
  return terminate->reason();
}

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(TerminateOnNaN, NamesTheNonFiniteValueItSaw) {
  const TrainArgs args = eight_batches_per_epoch(1);
  EXPECT_EQ(stop_reason(std::numeric_limits<double>::quiet_NaN(), 1, args),
            "the loss was NaN in training batch 1 of epoch 1 (after 0 "
            "optimizer steps)");
  EXPECT_EQ(stop_reason(kInf, 1, args),
            "the loss was +inf in training batch 1 of epoch 1 (after 0 "
            "optimizer steps)");
  EXPECT_EQ(stop_reason(-kInf, 1, args),
            "the loss was -inf in training batch 1 of epoch 1 (after 0 "
            "optimizer steps)");
}

TEST(TerminateOnNaN, NamesTheBatchEpochAndStep) {
  EXPECT_EQ(stop_reason(kInf, 11, eight_batches_per_epoch(3)),
            "the loss was +inf in training batch 3 of epoch 2 (after 10 "
            "optimizer steps)");
  // The 8 training batches, then the second of the 2 validation batches.
  EXPECT_EQ(stop_reason(kInf, 10, eight_batches_per_epoch(3, /*evaluate=*/true)),
            "the loss was +inf in validation batch 2 of epoch 1 (after 8 "
            "optimizer steps)");
}

TEST(TerminateOnNaN, AFiniteRunGivesNoReason) {
  auto model = testing::linear_model();
  auto terminate = std::make_shared<TerminateOnNaN>();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {terminate});
  trainer.train(eight_batches_per_epoch(1, /*evaluate=*/true));
  EXPECT_FALSE(terminate->triggered());
  EXPECT_EQ(terminate->reason(), "");
}

}  // namespace
}  // namespace accel
