// PrintProgress: the original's messages, printed once per node through the trainer.
#include "accel/trainer/callbacks/print_progress.h"

#include "accel/trainer/trainer.h"

namespace accel {

void PrintProgress::on_training_run_start(Trainer& trainer) {
  trainer.print("\nStarting training run");
}

void PrintProgress::on_train_epoch_start(Trainer& trainer) {
  trainer.print("\nStarting epoch {}", trainer.run_history().current_epoch());
}

void PrintProgress::on_eval_epoch_start(Trainer& trainer) {
  trainer.print("\nStarting eval epoch");
}

void PrintProgress::on_training_run_end(Trainer& trainer) {
  trainer.print("Finishing training run");
}

void PrintProgress::on_evaluation_run_start(Trainer& trainer) {
  trainer.print("\nStarting evaluation run");
}

void PrintProgress::on_evaluation_run_end(Trainer& trainer) {
  trainer.print("Finishing evaluation run");
}

}  // namespace accel
