// The training loop's arithmetic: gradient accumulation, max steps, clipping once per update,
// scheduler placeholders, batch-size-weighted epoch losses, and errors for misuse.
#include <gtest/gtest.h>

#include <cmath>

#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

using testing::expect_error_containing;

TEST(TrainingLoop, GradientAccumulationUpdatesLikeTheFullBatch) {
  auto dataset = testing::regression_dataset(64);
  nn::Linear accumulated = testing::linear_model();
  Trainer a(accumulated, nn::MSELoss(), testing::sgd(*accumulated), {});
  a.train({.train_dataset = dataset,
           .num_epochs = 2,
           .per_device_batch_size = 16,
           .gradient_accumulation_steps = 2,
           .train_dataloader_kwargs = testing::in_order()});
  nn::Linear full = testing::linear_model();
  Trainer b(full, nn::MSELoss(), testing::sgd(*full), {});
  b.train({.train_dataset = dataset,
           .num_epochs = 2,
           .per_device_batch_size = 32,
           .train_dataloader_kwargs = testing::in_order()});
  EXPECT_EQ(a.global_step(), 4);
  EXPECT_EQ(b.global_step(), 4);
  EXPECT_TRUE(allclose(accumulated->weight, full->weight, 1e-12, 1e-12));
  EXPECT_TRUE(allclose(accumulated->bias, full->bias, 1e-12, 1e-12));
}

TEST(TrainingLoop, TailAccumulationGroupStillUpdates) {
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {});
  trainer.train({.train_dataset = testing::regression_dataset(10),
                 .num_epochs = 1,
                 .per_device_batch_size = 2,
                 .gradient_accumulation_steps = 2});
  EXPECT_EQ(trainer.global_step(), 3);  // batches 5: groups {0,1}, {2,3}, {4}
  EXPECT_EQ(trainer.run_config().num_update_steps_per_epoch, 3);
  for (const Tensor& p : model->parameters()) EXPECT_FALSE(p.grad().defined());
}

TEST(TrainingLoop, MaxStepsStopsAtTheSmallerOfStepsAndEpochs) {
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {});
  trainer.train({.train_dataset = testing::regression_dataset(6),
                 .num_epochs = 10,
                 .per_device_batch_size = 2,
                 .max_num_train_steps = 4});
  EXPECT_EQ(trainer.global_step(), 4);
  EXPECT_EQ(trainer.run_config().num_epochs, 2);
  EXPECT_EQ(trainer.run_history().get_metric_values("train_loss_epoch").size(), 2u);

  nn::Linear other = testing::linear_model();
  Trainer epochs_first(other, nn::MSELoss(), testing::sgd(*other), {});
  epochs_first.train({.train_dataset = testing::regression_dataset(6),
                      .num_epochs = 1,
                      .per_device_batch_size = 2,
                      .max_num_train_steps = 100});
  EXPECT_EQ(epochs_first.global_step(), 3);
}

// Records the gradients the optimizer sees at each update.
class GradientSpy : public Trainer {
 public:
  using Trainer::Trainer;
  void optimizer_step() override {
    std::vector<Tensor> grads;
    for (const Tensor& p : get_model().parameters()) grads.push_back(p.grad().clone());
    seen.push_back(grads);
    Trainer::optimizer_step();
  }
  std::vector<std::vector<Tensor>> seen;
};

TEST(TrainingLoop, ClipsByValueOnceOnTheAccumulatedGradient) {
  auto dataset = testing::regression_dataset(4);
  nn::Linear model = testing::linear_model();
  const double lr = 0.05;
  GradientSpy trainer(model, nn::MSELoss(), testing::sgd(*model, lr), {});
  // The unclipped accumulated gradient of the first update, computed by hand.
  nn::Linear reference = testing::linear_model();
  Tensor x = dataset->get_batch(std::vector<int64_t>{0, 1, 2, 3})->data;
  Tensor y = dataset->get_batch(std::vector<int64_t>{0, 1, 2, 3})->target;
  for (int half = 0; half < 2; ++half) {
    Tensor loss = nn::functional::mse_loss(reference->forward(x.narrow(0, 2 * half, 2)),
                                           y.narrow(0, 2 * half, 2)) /
                  2.0;
    loss.backward();
  }
  const double clip = 0.1;
  trainer.train({.train_dataset = dataset,
                 .num_epochs = 1,
                 .per_device_batch_size = 2,
                 .gradient_accumulation_steps = 2,
                 .gradient_clip_value = clip,
                 .train_dataloader_kwargs = testing::in_order()});
  ASSERT_EQ(trainer.seen.size(), 1u);
  EXPECT_TRUE(allclose(trainer.seen[0][0], clamp(reference->weight.grad(), -clip, clip)));
  EXPECT_TRUE(allclose(trainer.seen[0][1], clamp(reference->bias.grad(), -clip, clip)));
}

TEST(TrainingLoop, ClipsByGlobalNorm) {
  nn::Linear model = testing::linear_model();
  GradientSpy trainer(model, nn::MSELoss(), testing::sgd(*model), {});
  trainer.train({.train_dataset = testing::regression_dataset(8),
                 .num_epochs = 1,
                 .per_device_batch_size = 4,
                 .gradient_clip_norm = 0.01});
  ASSERT_EQ(trainer.seen.size(), 2u);
  for (const auto& grads : trainer.seen) {
    double squares = 0;
    for (const Tensor& g : grads) squares += sum(g * g).item<double>();
    EXPECT_LE(std::sqrt(squares), 0.01 + 1e-9);
  }
}

TEST(TrainingLoop, SchedulerFactoryReceivesResolvedPlaceholders) {
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {});
  TrainerPlaceholderValues seen;
  trainer.train({.train_dataset = testing::regression_dataset(10),
                 .num_epochs = 3,
                 .eval_dataset = testing::regression_dataset(7),
                 .per_device_batch_size = 2,
                 .gradient_accumulation_steps = 2,
                 .create_scheduler_fn = [&](auto optimizer, const TrainerPlaceholderValues& p) {
                   seen = p;
                   return std::make_shared<optim::StepLR>(optimizer,
                                                          p.num_update_steps_per_epoch * 2, 0.1);
                 }});
  EXPECT_EQ(seen.num_epochs, 3);
  EXPECT_EQ(seen.train_dataloader_len, 5);
  EXPECT_EQ(seen.eval_dataloader_len, 4);
  EXPECT_EQ(seen.num_update_steps_per_epoch, 3);
  EXPECT_EQ(seen.per_process_num_update_steps_per_epoch, 3);
  // 9 scheduler steps with step_size 6: one decay.
  EXPECT_NEAR(trainer.scheduler()->get_last_lr()[0], 0.005, 1e-15);
}

// Records each batch's loss as the hook computed it.
class LossSpy : public Trainer {
 public:
  using Trainer::Trainer;
  BatchOutput calculate_train_batch_loss(const data::Example& batch) override {
    BatchOutput out = Trainer::calculate_train_batch_loss(batch);
    losses.emplace_back(out.loss.item<double>(), out.batch_size);
    return out;
  }
  std::vector<std::pair<double, int64_t>> losses;
};

TEST(TrainingLoop, EpochLossIsTheBatchSizeWeightedMeanOfUnscaledLosses) {
  nn::Linear model = testing::linear_model();
  LossSpy trainer(model, nn::MSELoss(), testing::sgd(*model), {});
  trainer.train({.train_dataset = testing::regression_dataset(7),
                 .num_epochs = 1,
                 .per_device_batch_size = 3,
                 .gradient_accumulation_steps = 2});
  double weighted = 0;
  int64_t count = 0;
  for (auto [loss, size] : trainer.losses) {
    weighted += loss * static_cast<double>(size);
    count += size;
  }
  ASSERT_EQ(count, 7);
  EXPECT_DOUBLE_EQ(trainer.run_history().get_latest_metric("train_loss_epoch"), weighted / 7.0);
}

TEST(TrainingLoop, TrainsAGeneratedRegressionToALowLoss) {
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model, 0.05, 0.9), {});
  trainer.train({.train_dataset = testing::regression_dataset(256),
                 .num_epochs = 20,
                 .eval_dataset = testing::regression_dataset(64, 3),
                 .per_device_batch_size = 16});
  EXPECT_LT(trainer.run_history().get_latest_metric("eval_loss_epoch"), 1e-3);
  EXPECT_LT(trainer.run_history().get_latest_metric("train_loss_epoch"), 1e-3);
}

class NoLoss : public Trainer {
 public:
  using Trainer::Trainer;
  BatchOutput calculate_train_batch_loss(const data::Example& batch) override {
    return {.batch_size = batch.data.size(0)};
  }
};

TEST(TrainingLoop, MisuseGivesClearErrors) {
  auto dataset = testing::regression_dataset(8);
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {});
  expect_error_containing(
      [&] {
        trainer.train({.train_dataset = dataset, .num_epochs = 1, .per_device_batch_size = 0});
      },
      "per_device_batch_size must be positive, got 0");
  expect_error_containing([&] { trainer.train({.num_epochs = 1}); }, "train_dataset is required");
  expect_error_containing(
      [&] {
        trainer.train({.train_dataset = dataset,
                       .num_epochs = 1,
                       .create_scheduler_fn = [](auto) -> std::shared_ptr<optim::LRScheduler> {
                         return nullptr;
                       }});
      },
      "returned a null scheduler");

  Trainer no_reduction(
      model,
      [](const Tensor& out, const Tensor& target) { return (out - target) * (out - target); },
      testing::sgd(*model), {});
  expect_error_containing(
      [&] { no_reduction.train({.train_dataset = dataset, .num_epochs = 1}); },
      "calculate_train_batch_loss must return a scalar loss, got one of shape [8, 1]");

  // One process runs an eval batch larger than the eval set as one short batch (the check is
  // for several processes: tests/mpi/trainer_test.cpp).
  trainer.evaluate({.dataset = testing::regression_dataset(3), .per_device_batch_size = 8});
  EXPECT_EQ(trainer.run_history().get_metric_values("evaluation_loss").size(), 1u);

  NoLoss no_loss(model, nn::MSELoss(), testing::sgd(*model), {});
  expect_error_containing([&] { no_loss.train({.train_dataset = dataset, .num_epochs = 1}); },
                          "calculate_train_batch_loss returned no loss");

  Trainer without_loss(model, {}, testing::sgd(*model), {});
  expect_error_containing([&] { without_loss.train({.train_dataset = dataset, .num_epochs = 1}); },
                          "no loss function");
}

}  // namespace
}  // namespace accel
