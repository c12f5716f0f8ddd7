// MoveModulesToDevice: both modules go through Accelerator::prepare_model, which moves in place.
#include "accel/trainer/callbacks/move_modules_to_device.h"

#include "accel/trainer/trainer.h"

namespace accel {

void MoveModulesToDevice::on_training_run_start(Trainer& trainer) { move_modules(trainer); }

void MoveModulesToDevice::on_evaluation_run_start(Trainer& trainer) { move_modules(trainer); }

void MoveModulesToDevice::move_modules(Trainer& trainer) {
  trainer.accelerator().prepare_model(trainer.get_model());
  if (const auto& loss_module = trainer.loss_func().module()) {
    trainer.accelerator().prepare_model(*loss_module);
  }
}

}  // namespace accel
