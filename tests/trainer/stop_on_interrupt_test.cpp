// StopOnInterrupt with real signals: the SIGINT handler lives only while a run is in progress
// (the previous disposition comes back after it), a second SIGINT ends the process at once with
// exit code 130, and two runs cannot both take the signal. Resuming after Ctrl-C is in
// resume_test.cpp.
#include <gtest/gtest.h>

#include <csignal>

#include "support/child_process.h"
#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

// Raises SIGINT `times` times in a row at the start of the third train step.
class RaiseSigint : public Callback {
 public:
  explicit RaiseSigint(int times) : times_(times) {}
  void on_train_step_start(Trainer& trainer) override {
    if (trainer.global_step() != 2 || raised_) return;
    raised_ = true;
    for (int i = 0; i < times_; ++i) std::raise(SIGINT);
  }

 private:
  int times_;
  bool raised_ = false;
};

void train(std::vector<std::shared_ptr<Callback>> callbacks) {
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), std::move(callbacks));
  trainer.train({.train_dataset = testing::regression_dataset(32),
                 .num_epochs = 2,
                 .per_device_batch_size = 4});
}

sighandler_t current_sigint_handler() {
  struct sigaction action {};
  ::sigaction(SIGINT, nullptr, &action);
  return action.sa_handler;
}

TEST(StopOnInterrupt, ASecondSigintExitsAtOnceWith130) {
  const testing::ChildResult result = testing::run_in_child([](std::string&) {
    // Listed first, so the signals arrive before StopOnInterrupt looks at them.
    train({std::make_shared<RaiseSigint>(2), std::make_shared<StopOnInterrupt>()});
    return 0;  // not reached: the second SIGINT ends the process
  });
  EXPECT_TRUE(result.exited);
  EXPECT_EQ(result.exit_code, 130);
}

TEST(StopOnInterrupt, OneSigintStopsTheRunAndTheHandlerLeavesWithIt) {
  const sighandler_t before = current_sigint_handler();
  auto stop = std::make_shared<StopOnInterrupt>();
  ::testing::internal::CaptureStderr();
  train({std::make_shared<RaiseSigint>(1), stop});
  ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(stop->stopped_run());
  EXPECT_EQ(stop->where(), "epoch 1, after 2 of its 8 batches");
  EXPECT_EQ(current_sigint_handler(), before);

  // A run without an interrupt goes to its end and says it was not stopped.
  train({stop});
  EXPECT_FALSE(stop->stopped_run());
  EXPECT_EQ(current_sigint_handler(), before);
}

TEST(StopOnInterrupt, TwoRunsCannotBothTakeTheSignal) {
  auto outer = std::make_shared<StopOnInterrupt>();
  // A callback whose run starts a second run (with its own StopOnInterrupt) inside the first.
  class NestedRun : public Callback {
   public:
    void on_training_run_start(Trainer&) override {
      testing::expect_error_containing([] { train({std::make_shared<StopOnInterrupt>()}); },
                                       "another StopOnInterrupt is already handling SIGINT");
    }
  };
  train({outer, std::make_shared<NestedRun>()});
}

}  // namespace
}  // namespace accel
