// Training states: a run resumed from a state saved after an epoch or mid-epoch produces the
// same losses and weights, bit for bit, as the uninterrupted run (shuffling, dropout, momentum
// and an LR scheduler included); bad states are clear errors that change nothing on disk.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

using testing::DropoutModel;
using testing::expect_error_containing;
using testing::SaveAtStep;

// Saves a training state in epoch `epoch` (counting from 1): at its end (after its evaluation),
// or right after its training (its evaluation and end still to come).
class SaveAtEpochEnd : public Callback {
 public:
  SaveAtEpochEnd(int64_t epoch, std::string dir, bool after_training_only = false)
      : epoch_(epoch), dir_(std::move(dir)), after_training_only_(after_training_only) {}
  void on_train_epoch_end(Trainer& trainer) override {
    if (after_training_only_) save_in_epoch(trainer);
  }
  void on_training_run_epoch_end(Trainer& trainer) override {
    if (!after_training_only_) save_in_epoch(trainer);
  }

 private:
  void save_in_epoch(Trainer& trainer) const {
    if (trainer.run_history().current_epoch() == epoch_) trainer.save_training_state(dir_);
  }
  int64_t epoch_;
  std::string dir_;
  bool after_training_only_;
};

struct RunResult {
  std::vector<Tensor> weights;
  std::vector<double> train_losses;
  std::vector<double> eval_losses;
};

RunResult train_run(uint64_t init_seed, std::shared_ptr<Callback> callback,
                    std::optional<std::string> resume_from, int64_t num_epochs = 3,
                    std::optional<std::string> save_after = std::nullopt) {
  manual_seed(init_seed);
  DropoutModel model;
  model->to(kFloat64);
  auto optimizer = testing::sgd(*model, 0.02, 0.9);
  std::vector<std::shared_ptr<Callback>> callbacks;
  if (callback) callbacks.push_back(callback);
  Trainer trainer(model, nn::MSELoss(), optimizer, callbacks);
  trainer.train({.train_dataset = testing::regression_dataset(40),
                 .num_epochs = num_epochs,
                 .eval_dataset = testing::regression_dataset(10, 5),
                 .per_device_batch_size = 4,
                 .gradient_accumulation_steps = 2,
                 .create_scheduler_fn =
                     [](auto opt, const TrainerPlaceholderValues& p) {
                       return std::make_shared<optim::StepLR>(opt, p.num_update_steps_per_epoch,
                                                              0.5);
                     },
                 .resume_from = resume_from});
  if (save_after) trainer.save_training_state(*save_after);
  return {testing::snapshot(*model), trainer.run_history().get_metric_values("train_loss_epoch"),
          trainer.run_history().get_metric_values("eval_loss_epoch")};
}

void expect_same_run(const RunResult& resumed, const RunResult& uninterrupted) {
  EXPECT_TRUE(testing::bit_identical(resumed.weights, uninterrupted.weights));
  EXPECT_EQ(resumed.train_losses, uninterrupted.train_losses);
  EXPECT_EQ(resumed.eval_losses, uninterrupted.eval_losses);
}

TEST(Resume, FromAStateSavedAfterAnEpochIsBitIdentical) {
  const std::string dir = testing::temp_dir("resume_epoch");
  const RunResult uninterrupted =
      train_run(11, std::make_shared<SaveAtEpochEnd>(1, dir), std::nullopt);
  ASSERT_TRUE(std::filesystem::exists(dir + "/trainer_state.json"));
  const RunResult resumed = train_run(99, nullptr, dir);
  expect_same_run(resumed, uninterrupted);
}

TEST(Resume, FromAStateSavedBeforeAnEpochsEvaluationRunsThatEvaluation) {
  const std::string dir = testing::temp_dir("resume_before_eval");
  const RunResult uninterrupted = train_run(
      11, std::make_shared<SaveAtEpochEnd>(2, dir, /*after_training_only=*/true), std::nullopt);
  ::testing::internal::CaptureStdout();
  const RunResult resumed = train_run(99, nullptr, dir);
  const std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(printed.find("at epoch 2, after its training, before its evaluation"),
            std::string::npos)
      << printed;
  ASSERT_EQ(resumed.eval_losses.size(), 3u);
  expect_same_run(resumed, uninterrupted);
}

TEST(Resume, FromAStateSavedMidEpochIsBitIdentical) {
  const std::string dir = testing::temp_dir("resume_mid_epoch");
  // 10 batches per epoch, 5 updates: update 7 is mid-way through epoch 2.
  const RunResult uninterrupted = train_run(11, std::make_shared<SaveAtStep>(7, dir), std::nullopt);
  ASSERT_TRUE(std::filesystem::exists(dir + "/gradients.safetensors") ||
              std::filesystem::exists(dir + "/trainer_state.json"));
  const RunResult resumed = train_run(99, nullptr, dir);
  expect_same_run(resumed, uninterrupted);
}

// Ctrl-C at the start of the train step after `global_step` updates: a real SIGINT, raised in
// this process, which StopOnInterrupt turns into the end of the run.
class InterruptAtStep : public StopOnInterrupt {
 public:
  explicit InterruptAtStep(int64_t global_step) : step_(global_step) {}
  void on_train_step_start(Trainer& trainer) override {
    if (!raised_ && trainer.global_step() == step_) {
      raised_ = true;
      ::testing::internal::CaptureStderr();
      std::raise(SIGINT);
      note_ = ::testing::internal::GetCapturedStderr();
    }
    StopOnInterrupt::on_train_step_start(trainer);
  }
  const std::string& note() const { return note_; }

 private:
  int64_t step_;
  bool raised_ = false;
  std::string note_;
};

TEST(Resume, FromAStateSavedAfterCtrlCIsBitIdentical) {
  const std::string dir = testing::temp_dir("resume_interrupted");
  auto interrupt = std::make_shared<InterruptAtStep>(7);
  train_run(11, interrupt, std::nullopt, /*num_epochs=*/3, dir);
  EXPECT_TRUE(interrupt->stopped_run());
  EXPECT_EQ(interrupt->where(), "epoch 2, after 4 of its 10 batches");
  EXPECT_NE(interrupt->note().find("interrupt: stopping before the next training step"),
            std::string::npos)
      << interrupt->note();
  const RunResult resumed = train_run(99, nullptr, dir);
  expect_same_run(resumed, train_run(11, nullptr, std::nullopt));
}

TEST(Resume, FromAStateSavedAfterTheRunContinuesWithMoreEpochs) {
  const std::string dir = testing::temp_dir("resume_after_run");
  train_run(11, nullptr, std::nullopt, /*num_epochs=*/2, dir);
  const RunResult resumed = train_run(99, nullptr, dir, /*num_epochs=*/3);
  expect_same_run(resumed, train_run(11, nullptr, std::nullopt, /*num_epochs=*/3));
}

// Inside a step its batch is half consumed (its loss recorded, its update not yet made): there
// is no position to resume from exactly, so saving there is an error, not a state that
// silently replays the batch.
class SaveAtStepEnd : public Callback {
 public:
  explicit SaveAtStepEnd(std::string dir) : dir_(std::move(dir)) {}
  void on_train_step_end(Trainer& trainer, const BatchOutput&, const data::Example&,
                         int64_t) override {
    trainer.save_training_state(dir_);
  }

 private:
  std::string dir_;
};

TEST(Resume, SavingInsideATrainStepIsAnError) {
  const std::string dir = testing::temp_dir("resume_inside_step");
  expect_error_containing(
      [&] { train_run(11, std::make_shared<SaveAtStepEnd>(dir), std::nullopt); },
      "Trainer::save_training_state: called inside a train step");
  EXPECT_FALSE(std::filesystem::exists(dir + "/trainer_state.json"));
}

TEST(Resume, MissingOrIncompatibleStatesAreClearErrors) {
  expect_error_containing([] { train_run(1, nullptr, testing::temp_dir("no_such_state")); },
                          "is not a checkpoint directory");
  const std::string dir = testing::temp_dir("resume_incompatible");
  train_run(11, std::make_shared<SaveAtEpochEnd>(1, dir), std::nullopt);
  const auto before = std::filesystem::last_write_time(dir + "/model.safetensors");

  manual_seed(3);
  nn::Linear other = testing::linear_model();
  Trainer trainer(other, nn::MSELoss(), testing::sgd(*other), {});
  expect_error_containing(
      [&] {
        trainer.train({.train_dataset = testing::regression_dataset(40),
                       .num_epochs = 3,
                       .per_device_batch_size = 4,
                       .create_scheduler_fn =
                           [](auto opt) { return std::make_shared<optim::StepLR>(opt, 5, 0.5); },
                       .resume_from = dir});
      },
      "body.0.weight");
  EXPECT_EQ(std::filesystem::last_write_time(dir + "/model.safetensors"), before);
}

// EarlyStopping and SaveBestModel decide from what they have seen: their best values, the
// patience counter and the best epoch travel in the training state, so a resumed run decides as
// the uninterrupted one. They watch a score of 3, 2, 1 in epochs 1-3 where greater is better: the
// counter climbs after epoch 1 and the best stays epoch 1's; a resumed run that forgot them
// would take epoch 2's score for the best and write a worse "best" checkpoint.
class Score : public Callback {
 public:
  void on_training_run_epoch_end(Trainer& trainer) override {
    trainer.run_history().update_metric(
        "score", 4.0 - static_cast<double>(trainer.run_history().current_epoch()));
  }
};

struct Watchers {
  std::shared_ptr<EarlyStopping> early_stopping;
  std::shared_ptr<SaveBestModel> save_best;
};

Watchers train_watched(const std::string& best_dir, std::optional<std::string> save_state_to,
                       std::optional<std::string> resume_from) {
  manual_seed(11);
  DropoutModel model;
  model->to(kFloat64);
  Watchers w{std::make_shared<EarlyStopping>(EarlyStoppingOptions()
                                                 .patience(10)
                                                 .early_stopping_threshold(0.0)
                                                 .watch_metric("score")
                                                 .greater_is_better(true)),
             std::make_shared<SaveBestModel>(SaveBestModelOptions(best_dir)
                                                 .watch_metric("score")
                                                 .greater_is_better(true)
                                                 .load_saved_checkpoint(false))};
  std::vector<std::shared_ptr<Callback>> callbacks = {std::make_shared<Score>(), w.early_stopping,
                                                      w.save_best};
  if (save_state_to) callbacks.push_back(std::make_shared<SaveAtEpochEnd>(1, *save_state_to));
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model, 0.02, 0.9), callbacks);
  trainer.train({.train_dataset = testing::regression_dataset(40),
                 .num_epochs = 3,
                 .per_device_batch_size = 4,
                 .resume_from = resume_from});
  return w;
}

TEST(Resume, EarlyStoppingAndSaveBestModelKeepWhatTheyHaveSeen) {
  const std::string state = testing::temp_dir("resume_watchers_state");
  const std::string best = testing::temp_dir("resume_watchers_best");
  const Watchers uninterrupted = train_watched(best, state, std::nullopt);
  ASSERT_EQ(uninterrupted.early_stopping->patience_counter(), 2);
  ASSERT_EQ(uninterrupted.save_best->best_metric_epoch(), 1);
  std::filesystem::remove_all(best);
  const Watchers resumed = train_watched(best, std::nullopt, state);
  EXPECT_EQ(resumed.early_stopping->patience_counter(), 2);
  EXPECT_EQ(resumed.early_stopping->best_metric(), uninterrupted.early_stopping->best_metric());
  EXPECT_EQ(resumed.save_best->best_metric_epoch(), 1);
  EXPECT_EQ(resumed.save_best->best_metric(), uninterrupted.save_best->best_metric());
  EXPECT_FALSE(std::filesystem::exists(best)) << "the resumed run wrote a worse 'best' checkpoint";
}

TEST(Resume, CallbackStatesThatDoNotParseNameTheCallbackAndField) {
  const std::string state = testing::temp_dir("resume_watchers_bad_state");
  train_watched(testing::temp_dir("resume_watchers_bad_best"), state, std::nullopt);
  const std::string path = state + "/trainer_state.json";
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string key = "\"counter\": ";
  const size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos);
  text.replace(at + key.size(), 1, "-1");  // the counter saved after epoch 1 is 0
  std::ofstream(path) << text;
  expect_error_containing(
      [&] { train_watched(testing::temp_dir("resume_watchers_bad_best2"), std::nullopt, state); },
      "EarlyStopping.counter");
}

}  // namespace
}  // namespace accel
