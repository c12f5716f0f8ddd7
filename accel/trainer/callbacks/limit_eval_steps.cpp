// LimitEvalSteps: decides at each eval epoch's start whether it is limited, then counts.
#include "accel/trainer/callbacks/limit_eval_steps.h"

#include <algorithm>

#include "accel/base/error.h"
#include "accel/trainer/trainer.h"

namespace accel {

LimitEvalSteps::LimitEvalSteps(int64_t num_eval_steps, bool limit_intermediate_only)
    : num_eval_steps_(num_eval_steps), limit_intermediate_only_(limit_intermediate_only) {
  ACCEL_CHECK(num_eval_steps > 0, "LimitEvalSteps", "expected num_eval_steps > 0, found {}",
              num_eval_steps);
}

std::optional<int64_t> LimitEvalSteps::steps_per_process(const Trainer& trainer) const {
  if (limit_intermediate_only_ && !trainer.is_intermediate_evaluation()) return std::nullopt;
  // At least one step, so that every limited epoch still yields a loss.
  return std::max<int64_t>(num_eval_steps_ / trainer.accelerator().num_processes(), 1);
}

void LimitEvalSteps::on_eval_epoch_start(Trainer& trainer) {
  limit_ = steps_per_process(trainer);
  steps_ = 0;
  if (limit_) trainer.print("Limiting evaluation to {} steps per process", *limit_);
}

void LimitEvalSteps::on_eval_step_end(Trainer& trainer, const BatchOutput&, const data::Example&) {
  if (limit_ && ++steps_ >= *limit_) trainer.end_epoch_early();
}

}  // namespace accel
