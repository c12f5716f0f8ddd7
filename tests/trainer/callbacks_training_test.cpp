// The built-in callbacks' behaviour in real (tiny) training runs: LimitBatches, LimitEvalSteps,
// StepBasedEvaluation (train mode restored, defect 9), EarlyStopping, SaveBestModel (one extras
// key, defect 10), TerminateOnNaN, ModelEmaCallback, SaveTrainingState, WSDCheckpoint, LogMetrics.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <regex>

#include "accel/accel.h"
#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

namespace fs = std::filesystem;

// Counts what a run did: batches per train and eval epoch, intermediate evaluations, and the
// model's mode at every train step.
struct Recorder : Callback {
  std::vector<int64_t> train_steps, eval_steps;
  int64_t intermediate_evals = 0;
  bool always_training = true;

  void on_train_epoch_start(Trainer&) override { train_steps.push_back(0); }
  void on_train_step_start(Trainer& trainer) override {
    always_training = always_training && trainer.get_model().is_training();
  }
  void on_train_step_end(Trainer&, const BatchOutput&, const data::Example&, int64_t) override {
    ++train_steps.back();
  }
  void on_eval_epoch_start(Trainer& trainer) override {
    eval_steps.push_back(0);
    if (trainer.is_intermediate_evaluation()) ++intermediate_evals;
  }
  void on_eval_step_end(Trainer&, const BatchOutput&, const data::Example&) override {
    ++eval_steps.back();
  }
};

// 64 training and 32 eval samples: 8 and 4 batches of 8, in order.
TrainArgs tiny_run(int64_t num_epochs) {
  return {.train_dataset = testing::regression_dataset(64),
          .num_epochs = num_epochs,
          .eval_dataset = testing::regression_dataset(32, 11),
          .per_device_batch_size = 8,
          .train_dataloader_kwargs = testing::in_order()};
}

TEST(LimitBatches, EndsTrainAndEvalEpochsAfterTheLimit) {
  auto model = testing::linear_model();
  auto recorder = std::make_shared<Recorder>();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<LimitBatches>(3), recorder});
  trainer.train(tiny_run(2));
  EXPECT_EQ(recorder->train_steps, (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(recorder->eval_steps, (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(trainer.global_step(), 6);
}

TEST(StepBasedEvaluation, EvaluatesEveryNUpdatesAndLeavesTrainMode) {
  auto model = testing::linear_model();
  auto recorder = std::make_shared<Recorder>();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<StepBasedEvaluation>(2), recorder});
  trainer.train(tiny_run(2));
  // Updates 2, 4 and 6 of each 8-update epoch; the 8th is the epoch's own evaluation.
  EXPECT_EQ(recorder->intermediate_evals, 6);
  EXPECT_EQ(recorder->eval_steps.size(), 8u);
  EXPECT_TRUE(recorder->always_training);
  EXPECT_TRUE(trainer.run_history().get_metric_values("intermediate_eval_loss").empty());
  EXPECT_EQ(trainer.run_history().get_metric_values("eval_loss_epoch").size(), 2u);
}

TEST(LimitEvalSteps, LimitsOnlyIntermediateEvaluationsByDefault) {
  auto model = testing::linear_model();
  auto recorder = std::make_shared<Recorder>();
  Trainer trainer(
      model, nn::MSELoss(), testing::sgd(*model),
      {std::make_shared<LimitEvalSteps>(1), std::make_shared<StepBasedEvaluation>(4), recorder});
  trainer.train(tiny_run(1));
  EXPECT_EQ(recorder->eval_steps, (std::vector<int64_t>{1, 4}));
}

TEST(LimitEvalSteps, LimitsEveryEvaluationWhenAsked) {
  auto model = testing::linear_model();
  auto recorder = std::make_shared<Recorder>();
  Trainer trainer(
      model, nn::MSELoss(), testing::sgd(*model),
      {std::make_shared<LimitEvalSteps>(2, /*limit_intermediate_only=*/false), recorder});
  trainer.train(tiny_run(2));
  EXPECT_EQ(recorder->eval_steps, (std::vector<int64_t>{2, 2}));
}

TEST(EarlyStopping, StopsAfterPatienceEpochsWithoutImprovement) {
  auto model = testing::linear_model();
  auto stopping = std::make_shared<EarlyStopping>(EarlyStoppingOptions().patience(2));
  // A zero learning rate: the eval loss never improves.
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model, 0.0), {stopping});
  trainer.train(tiny_run(10));
  EXPECT_EQ(trainer.run_history().get_metric_values("eval_loss_epoch").size(), 3u);
  EXPECT_EQ(stopping->patience_counter(), 2);
}

TEST(EarlyStopping, KeepsGoingWhileTheMetricImproves) {
  auto model = testing::linear_model();
  auto stopping = std::make_shared<EarlyStopping>(
      EarlyStoppingOptions().patience(1).early_stopping_threshold(1e-12));
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model, 0.01), {stopping});
  trainer.train(tiny_run(4));
  EXPECT_EQ(trainer.run_history().get_metric_values("eval_loss_epoch").size(), 4u);
  EXPECT_EQ(stopping->patience_counter(), 0);
}

// Records the model after the first epoch, before SaveBestModel runs.
struct FirstEpochWeights : Callback {
  std::vector<Tensor> weights;
  void on_training_run_epoch_end(Trainer& trainer) override {
    if (weights.empty()) weights = testing::snapshot(trainer.get_model());
  }
};

TEST(SaveBestModel, SavesTheBestAndLoadsItAtTheEnd) {
  const std::string path = testing::temp_dir("save_best") + "/best";
  auto model = testing::linear_model();
  auto first = std::make_shared<FirstEpochWeights>();
  // "Best" = the largest eval loss, which the first epoch has while the loss falls.
  auto saver = std::make_shared<SaveBestModel>(SaveBestModelOptions(path).greater_is_better(true));
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {first, saver});
  trainer.train(tiny_run(3));
  const auto losses = trainer.run_history().get_metric_values("eval_loss_epoch");
  ASSERT_GT(losses[0], losses[2]);
  EXPECT_EQ(saver->best_metric_epoch(), 1);
  EXPECT_EQ(*saver->best_metric(), losses[0]);
  EXPECT_TRUE(testing::bit_identical(testing::snapshot(*model), first->weights));
  const std::string extras = trainer.load_checkpoint(path, true, /*load_scheduler=*/false);
  EXPECT_NE(extras.find("\"eval_loss_epoch\""), std::string::npos) << extras;
}

TEST(SaveBestModel, KeepsTheLatestImprovementUnderOneKey) {
  const std::string path = testing::temp_dir("save_best_latest") + "/best";
  auto model = testing::linear_model();
  auto saver = std::make_shared<SaveBestModel>(
      SaveBestModelOptions(path).watch_metric("train_loss_epoch").load_saved_checkpoint(false));
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {saver});
  trainer.train(tiny_run(3));
  EXPECT_EQ(saver->best_metric_epoch(), 3);
  const std::string extras = trainer.load_checkpoint(path, true, /*load_scheduler=*/false);
  EXPECT_NE(extras.find("\"train_loss_epoch\""), std::string::npos) << extras;
  EXPECT_EQ(extras.find("\"loss\""), std::string::npos) << extras;
}

TEST(TerminateOnNaN, StopsTrainingAtTheFirstNonFiniteLoss) {
  auto model = testing::linear_model();
  auto recorder = std::make_shared<Recorder>();
  auto terminate = std::make_shared<TerminateOnNaN>();
  auto nan_loss = [](const Tensor& outputs, const Tensor& targets) {
    return nn::functional::mse_loss(outputs, targets) * std::numeric_limits<double>::quiet_NaN();
  };
  const auto before = testing::snapshot(*model);
  Trainer trainer(model, nan_loss, testing::sgd(*model), {recorder, terminate});
  trainer.train(tiny_run(3));
  EXPECT_TRUE(terminate->triggered());
  EXPECT_EQ(recorder->train_steps, (std::vector<int64_t>{1}));
  EXPECT_TRUE(recorder->eval_steps.empty());
  EXPECT_TRUE(testing::bit_identical(testing::snapshot(*model), before));
}

TEST(ModelEmaCallback, EvaluatesTheAverageUnderItsPrefixAndSavesIt) {
  const std::string path = testing::temp_dir("ema") + "/ema_model";
  auto model = testing::linear_model();
  auto ema =
      std::make_shared<ModelEmaCallback>(ModelEmaCallbackOptions().decay(0.5).save_path(path));
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {ema});
  trainer.train(tiny_run(2));
  const RunHistory& history = trainer.run_history();
  EXPECT_EQ(history.get_metric_values("ema_model_eval_loss_epoch").size(), 2u);
  EXPECT_EQ(history.get_metric_values("eval_loss_epoch").size(), 2u);
  EXPECT_EQ(history.metric_name_prefix(), "");
  EXPECT_TRUE(fs::exists(path));
  // The model keeps its own weights; the average lags behind them.
  ASSERT_NE(ema->model_ema(), nullptr);
  const Tensor& average = ema->model_ema()->state_dict()["weight"];
  EXPECT_FALSE(average.equal(model->weight));
  EXPECT_TRUE(model->is_training());
}

TEST(ModelEmaCallback, FoldsEveryOptimizerUpdate) {
  auto model = testing::linear_model();
  auto ema = std::make_shared<ModelEmaCallback>(
      ModelEmaCallbackOptions().decay(0.0).evaluate_during_training(false).save_path(
          testing::temp_dir("ema_every_update") + "/ema_model"));
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {ema});
  trainer.train(tiny_run(1));
  // decay 0: the average is the model after the last update.
  EXPECT_TRUE(ema->model_ema()->state_dict()["weight"].equal(model->weight));
}

TEST(SaveTrainingState, NamesDirectoriesAndKeepsTheNewest) {
  const std::string dir = testing::temp_dir("training_states");
  auto model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<SaveTrainingState>(SaveTrainingStateOptions(dir)
                                                           .save_every_n_steps(3)
                                                           .save_every_n_epochs(1)
                                                           .max_checkpoints(2))});
  trainer.train(tiny_run(2));
  // Saved in order: step_3, step_6, epoch_1, step_9, step_12, step_15, epoch_2, final.
  for (const char* kept : {"step_15", "epoch_2", "final"}) {
    EXPECT_TRUE(fs::is_directory(fs::path(dir) / kept)) << kept;
  }
  for (const char* removed : {"step_3", "step_6", "epoch_1", "step_9", "step_12"}) {
    EXPECT_FALSE(fs::exists(fs::path(dir) / removed)) << removed;
  }
}

TEST(SaveTrainingState, StepStatesResumeToTheUninterruptedRun) {
  const std::string dir = testing::temp_dir("training_states_resume");
  auto model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<SaveTrainingState>(
                      SaveTrainingStateOptions(dir).save_every_n_steps(5).save_at_end(false))});
  trainer.train(tiny_run(2));
  auto resumed_model = testing::linear_model(99);
  Trainer resumed(resumed_model, nn::MSELoss(), testing::sgd(*resumed_model), {});
  TrainArgs args = tiny_run(2);
  args.resume_from = dir + "/step_10";
  resumed.train(args);
  EXPECT_TRUE(testing::bit_identical(testing::snapshot(*resumed_model), testing::snapshot(*model)));
}

TEST(WSDCheckpoint, SavesPreDecayStateAndPostDecayWeights) {
  const std::string dir = testing::temp_dir("wsd");
  auto model = testing::linear_model();
  TrainArgs args = tiny_run(2);
  // 16 updates, one checkpoint, the last quarter decaying: pre-decay after update 12.
  args.create_scheduler_fn = [](std::shared_ptr<optim::Optimizer> optimizer,
                                const TrainerPlaceholderValues& values) {
    return std::make_shared<optim::WSDLrScheduler>(
        optimizer, values.num_epochs * values.num_update_steps_per_epoch,
        optim::WSDLrSchedulerOptions().decay_phase_ratio(0.25));
  };
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<WSDCheckpoint>(WSDCheckpointOptions(dir))});
  trainer.train(args);
  EXPECT_TRUE(fs::is_directory(fs::path(dir) / "checkpoint_12_wsd_pre_decay"));
  EXPECT_TRUE(fs::exists(fs::path(dir) / "checkpoint_16_wsd_post_decay"));
  const std::string extras = trainer.load_checkpoint(dir + "/checkpoint_16_wsd_post_decay");
  EXPECT_NE(extras.find("\"checkpoint_type\":\"wsd_post_decay\""), std::string::npos) << extras;
}

TEST(WSDCheckpoint, RequiresAWSDScheduler) {
  auto model = testing::linear_model();
  Trainer trainer(
      model, nn::MSELoss(), testing::sgd(*model),
      {std::make_shared<WSDCheckpoint>(WSDCheckpointOptions(testing::temp_dir("wsd_none")))});
  testing::expect_error_containing([&] { trainer.train(tiny_run(1)); },
                                   "expected the trainer's scheduler to be a WSDLrScheduler");
}

// Keeps what LogMetrics would print.
struct CollectMetrics : LogMetrics {
  std::vector<std::string> periods;
  std::vector<std::vector<std::string>> logged;
  void log_metrics(Trainer&, const std::vector<std::pair<std::string, double>>& metrics) override {
    std::vector<std::string> names;
    for (const auto& [name, value] : metrics) names.push_back(name);
    periods.push_back(period());
    logged.push_back(names);
  }
};

// Records a metric at the end of each eval epoch; listed after LogMetrics.
struct RecordAccuracy : Callback {
  void on_eval_epoch_end(Trainer& trainer) override {
    trainer.run_history().update_metric("accuracy", 0.5);
  }
};

TEST(LogMetrics, LogsEveryMetricOfAnEpochInItsLineWhateverTheCallbacksOrder) {
  auto model = testing::linear_model();
  auto logger = std::make_shared<CollectMetrics>();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {logger, std::make_shared<RecordAccuracy>()});
  trainer.train(tiny_run(2));
  trainer.evaluate();
  using Names = std::vector<std::string>;
  EXPECT_EQ(logger->periods, (std::vector<std::string>{"epoch 1/2", "epoch 2/2", "evaluation"}));
  EXPECT_EQ(logger->logged, (std::vector<Names>{{"train_loss_epoch", "eval_loss_epoch", "accuracy"},
                                                {"train_loss_epoch", "eval_loss_epoch", "accuracy"},
                                                {"evaluation_loss", "accuracy"}}));
}

TEST(LogMetrics, PrintsTheModelThenOneLinePerEpoch) {
  auto model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {std::make_shared<LogMetrics>()});
  ::testing::internal::CaptureStdout();
  trainer.train(tiny_run(2));
  const std::string output = ::testing::internal::GetCapturedStdout();
  const std::regex expected(
      "training Linear: 5 parameters \\(5 trainable\\)\n"
      "epoch 1/2  train_loss_epoch [0-9.e+-]+  eval_loss_epoch [0-9.e+-]+  [0-9]+\\.[0-9] s\n"
      "epoch 2/2  train_loss_epoch [0-9.e+-]+  eval_loss_epoch [0-9.e+-]+  [0-9]+\\.[0-9] s\n");
  EXPECT_TRUE(std::regex_match(output, expected)) << output;
}

TEST(MoveModulesToDevice, TrainsWithALossModuleOnTheDevice) {
  auto model = testing::linear_model();
  nn::MSELoss loss;
  Trainer trainer(model, loss, testing::sgd(*model), {std::make_shared<MoveModulesToDevice>()});
  trainer.train(tiny_run(1));
  EXPECT_EQ(model->weight.device(), trainer.device());
}

TEST(DefaultCallbacks, AreTheOriginalsInOrder) {
  const auto callbacks = get_default_callbacks();
  ASSERT_EQ(callbacks.size(), 5u);
  EXPECT_NE(std::dynamic_pointer_cast<MoveModulesToDevice>(callbacks[0]), nullptr);
  EXPECT_NE(std::dynamic_pointer_cast<TerminateOnNaN>(callbacks[1]), nullptr);
  EXPECT_NE(std::dynamic_pointer_cast<PrintProgress>(callbacks[2]), nullptr);
  EXPECT_NE(std::dynamic_pointer_cast<ProgressBar>(callbacks[3]), nullptr);
  EXPECT_NE(std::dynamic_pointer_cast<LogMetrics>(callbacks[4]), nullptr);
  const auto without_bar = get_default_callbacks(/*progress_bar=*/false);
  ASSERT_EQ(without_bar.size(), 4u);
  EXPECT_NE(std::dynamic_pointer_cast<LogMetrics>(without_bar[3]), nullptr);
}

}  // namespace
}  // namespace accel
