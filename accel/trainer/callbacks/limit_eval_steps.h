// LimitEvalSteps: ends eval epochs after num_eval_steps batches in total across processes
// (num_eval_steps / processes each), only the intermediate ones (StepBasedEvaluation's) unless
// limit_intermediate_only is false. Place it before StepBasedEvaluation and ProgressBar.
#pragma once

#include <cstdint>
#include <optional>

#include "accel/trainer/callback.h"

namespace accel {

class LimitEvalSteps : public Callback {
 public:
  explicit LimitEvalSteps(int64_t num_eval_steps, bool limit_intermediate_only = true);

  void on_eval_epoch_start(Trainer& trainer) override;
  void on_eval_step_end(Trainer& trainer, const BatchOutput& output,
                        const data::Example& batch) override;
  // The batches each process runs in the current eval epoch, or nullopt when not limited.
  std::optional<int64_t> steps_per_process(const Trainer& trainer) const;

 private:
  int64_t num_eval_steps_;
  bool limit_intermediate_only_;
  std::optional<int64_t> limit_;  // for the eval epoch in progress
  int64_t steps_ = 0;
};

}  // namespace accel
