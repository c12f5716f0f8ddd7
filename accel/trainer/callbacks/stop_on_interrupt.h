// StopOnInterrupt: Ctrl-C ends a training run cleanly. While a run is in progress, the first
// SIGINT asks the run to stop before its next training step (the model, optimizer, gradients
// and position then form a consistent state that Trainer::save_training_state can save and a
// later run resume exactly); a second SIGINT ends the process at once with exit code 130.
// The previous SIGINT disposition is restored when the run ends. Opt-in: a library does not
// take over a process's signals unless asked (train_mnist adds it). With several processes,
// an interrupt of any one stops them all at the same step.
#pragma once

#include <csignal>
#include <string>

#include "accel/trainer/callback.h"

namespace accel {

class StopOnInterrupt : public Callback {
 public:
  StopOnInterrupt() = default;
  ~StopOnInterrupt() override;
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

  void on_training_run_start(Trainer& trainer) override;
  void on_train_step_start(Trainer& trainer) override;
  void on_training_run_end(Trainer& trainer) override;
  // Whether the last training run was stopped by an interrupt, and where ("epoch 2, after 37
  // of its 1500 batches").
  bool stopped_run() const { return stopped_run_; }
  const std::string& where() const { return where_; }

 private:
  void restore_previous_handler();

  bool installed_ = false;
  struct sigaction previous_ {};
  bool stopped_run_ = false;
  std::string where_;
};

}  // namespace accel
