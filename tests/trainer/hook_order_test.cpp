// The order of hooks and callback events in train() and evaluate() equals docs/trainer.md's
// loop: each hook before its event, train then eval per epoch.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

using Log = std::vector<std::string>;

class RecordingCallback : public Callback {
 public:
  explicit RecordingCallback(Log& log) : log_(log) {}
  void on_init_end(Trainer&) override { log_.push_back("on_init_end"); }
  void on_training_run_start(Trainer&) override { log_.push_back("on_training_run_start"); }
  void on_train_epoch_start(Trainer&) override { log_.push_back("on_train_epoch_start"); }
  void on_train_step_start(Trainer&) override { log_.push_back("on_train_step_start"); }
  void on_train_step_end(Trainer&, const BatchOutput&, const data::Example&,
                         int64_t step) override {
    log_.push_back("on_train_step_end " + std::to_string(step));
  }
  void on_train_epoch_end(Trainer&) override { log_.push_back("on_train_epoch_end"); }
  void on_eval_epoch_start(Trainer&) override { log_.push_back("on_eval_epoch_start"); }
  void on_eval_step_start(Trainer&) override { log_.push_back("on_eval_step_start"); }
  void on_eval_step_end(Trainer&, const BatchOutput&, const data::Example&) override {
    log_.push_back("on_eval_step_end");
  }
  void on_eval_epoch_end(Trainer&) override { log_.push_back("on_eval_epoch_end"); }
  void on_training_run_epoch_end(Trainer&) override { log_.push_back("on_training_run_epoch_end"); }
  void on_training_run_end(Trainer&) override { log_.push_back("on_training_run_end"); }
  void on_evaluation_run_start(Trainer&) override { log_.push_back("on_evaluation_run_start"); }
  void on_evaluation_run_end(Trainer&) override { log_.push_back("on_evaluation_run_end"); }

 private:
  Log& log_;
};

class RecordingTrainer : public Trainer {
 public:
  RecordingTrainer(nn::Linear model, Log& log)
      : Trainer(model, nn::MSELoss(), testing::sgd(*model),
                {std::make_shared<RecordingCallback>(log)}),
        log_(log) {}

  std::shared_ptr<optim::LRScheduler> create_scheduler() override {
    log_.push_back("create_scheduler");
    return Trainer::create_scheduler();
  }
  void training_run_start() override { log_.push_back("training_run_start"); }
  void train_epoch_start() override {
    log_.push_back("train_epoch_start");
    Trainer::train_epoch_start();
  }
  BatchOutput calculate_train_batch_loss(const data::Example& batch) override {
    log_.push_back("calculate_train_batch_loss");
    return Trainer::calculate_train_batch_loss(batch);
  }
  void backward_step(const Tensor& loss) override {
    log_.push_back("backward_step");
    Trainer::backward_step(loss);
  }
  void optimizer_step() override {
    log_.push_back("optimizer_step");
    Trainer::optimizer_step();
  }
  void scheduler_step() override {
    log_.push_back("scheduler_step");
    Trainer::scheduler_step();
  }
  void optimizer_zero_grad() override {
    log_.push_back("optimizer_zero_grad");
    Trainer::optimizer_zero_grad();
  }
  void train_epoch_end() override { log_.push_back("train_epoch_end"); }
  void eval_epoch_start() override {
    log_.push_back("eval_epoch_start");
    Trainer::eval_epoch_start();
  }
  BatchOutput calculate_eval_batch_loss(const data::Example& batch) override {
    log_.push_back("calculate_eval_batch_loss");
    return Trainer::calculate_eval_batch_loss(batch);
  }
  void eval_epoch_end() override { log_.push_back("eval_epoch_end"); }
  void training_run_epoch_end() override { log_.push_back("training_run_epoch_end"); }
  void training_run_end() override { log_.push_back("training_run_end"); }
  void evaluation_run_start() override { log_.push_back("evaluation_run_start"); }
  void evaluation_run_end() override { log_.push_back("evaluation_run_end"); }

 private:
  Log& log_;
};

// One epoch of the spec's loop over `train_batches` and `eval_batches` with GAS 2.
Log expected_epoch(int train_batches, int eval_batches, int gas) {
  Log log = {"train_epoch_start", "on_train_epoch_start"};
  for (int step = 0; step < train_batches; ++step) {
    log.insert(log.end(), {"on_train_step_start", "calculate_train_batch_loss",
                           "on_train_step_end " + std::to_string(step), "backward_step"});
    if ((step + 1) % gas == 0 || step + 1 == train_batches) {
      log.insert(log.end(), {"optimizer_step", "scheduler_step", "optimizer_zero_grad"});
    }
  }
  log.insert(log.end(),
             {"train_epoch_end", "on_train_epoch_end", "eval_epoch_start", "on_eval_epoch_start"});
  for (int step = 0; step < eval_batches; ++step) {
    log.insert(log.end(), {"on_eval_step_start", "calculate_eval_batch_loss", "on_eval_step_end"});
  }
  log.insert(log.end(), {"eval_epoch_end", "on_eval_epoch_end", "training_run_epoch_end",
                         "on_training_run_epoch_end"});
  return log;
}

TEST(TrainerHooks, TrainRunsHooksAndEventsInSpecOrder) {
  Log log;
  RecordingTrainer trainer(testing::linear_model(), log);
  EXPECT_EQ(log, Log{"on_init_end"});
  log.clear();
  trainer.train({.train_dataset = testing::regression_dataset(6),
                 .num_epochs = 2,
                 .eval_dataset = testing::regression_dataset(4, 9),
                 .per_device_batch_size = 2,
                 .gradient_accumulation_steps = 2,
                 .create_scheduler_fn = [](auto optimizer) {
                   return std::make_shared<optim::StepLR>(optimizer, 1, 0.5);
                 }});
  Log expected = {"create_scheduler", "training_run_start", "on_training_run_start"};
  for (int epoch = 0; epoch < 2; ++epoch) {
    const Log one = expected_epoch(3, 2, 2);
    expected.insert(expected.end(), one.begin(), one.end());
  }
  expected.insert(expected.end(), {"training_run_end", "on_training_run_end"});
  EXPECT_EQ(log, expected);
  EXPECT_EQ(trainer.run_history().current_epoch(), 3);
}

// As the original: without a create_scheduler_fn the hook is not called at all.
TEST(TrainerHooks, CreateSchedulerRunsOnlyWithAFactory) {
  Log log;
  RecordingTrainer trainer(testing::linear_model(), log);
  trainer.train({.train_dataset = testing::regression_dataset(4), .num_epochs = 1});
  EXPECT_EQ(std::count(log.begin(), log.end(), "create_scheduler"), 0);
}

TEST(TrainerHooks, EvaluateRunsOneEvalEpochBetweenRunEvents) {
  Log log;
  RecordingTrainer trainer(testing::linear_model(), log);
  log.clear();
  trainer.evaluate({.dataset = testing::regression_dataset(5), .per_device_batch_size = 2});
  Log expected = {"evaluation_run_start", "on_evaluation_run_start", "eval_epoch_start",
                  "on_eval_epoch_start"};
  for (int step = 0; step < 3; ++step) {
    expected.insert(expected.end(),
                    {"on_eval_step_start", "calculate_eval_batch_loss", "on_eval_step_end"});
  }
  expected.insert(expected.end(), {"eval_epoch_end", "on_eval_epoch_end", "evaluation_run_end",
                                   "on_evaluation_run_end"});
  EXPECT_EQ(log, expected);
  EXPECT_EQ(trainer.run_history().get_metric_values("evaluation_loss").size(), 1u);
}

}  // namespace
}  // namespace accel
