// MoveModulesToDevice: at the start of a training or evaluation run, moves the model and the
// loss module (class weights and other buffers) to the accelerator's device.
#pragma once

#include "accel/trainer/callback.h"

namespace accel {

class MoveModulesToDevice : public Callback {
 public:
  void on_training_run_start(Trainer& trainer) override;
  void on_evaluation_run_start(Trainer& trainer) override;

 private:
  static void move_modules(Trainer& trainer);
};

}  // namespace accel
