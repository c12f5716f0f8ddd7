// Callback: code that runs at the Trainer's 15 events (in the order docs/trainer.md lists), each a
// virtual no-op to override, plus user-named events fired through CallbackHandler::call_event. A
// callback may stop training by throwing StopTrainingError, and may keep state in training
// states.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "accel/data/dataset.h"
#include "accel/trainer/batch_output.h"

namespace accel {

class Trainer;
namespace io {
class JsonField;
}  // namespace io

// Thrown by a hook or callback to end the training run cleanly (the Trainer catches it,
// prints the reason, fires on_stop_training_error and runs training_run_end).
class StopTrainingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Callback {
 public:
  virtual ~Callback() = default;

  virtual void on_init_end(Trainer&) {}
  virtual void on_training_run_start(Trainer&) {}
  virtual void on_train_epoch_start(Trainer&) {}
  virtual void on_train_step_start(Trainer&) {}
  // `step` counts the batches of this epoch from 0.
  virtual void on_train_step_end(Trainer&, const BatchOutput&, const data::Example& /*batch*/,
                                 int64_t /*step*/) {}
  virtual void on_train_epoch_end(Trainer&) {}
  virtual void on_eval_epoch_start(Trainer&) {}
  virtual void on_eval_step_start(Trainer&) {}
  virtual void on_eval_step_end(Trainer&, const BatchOutput&, const data::Example& /*batch*/) {}
  virtual void on_eval_epoch_end(Trainer&) {}
  virtual void on_training_run_epoch_end(Trainer&) {}
  virtual void on_training_run_end(Trainer&) {}
  virtual void on_evaluation_run_start(Trainer&) {}
  virtual void on_evaluation_run_end(Trainer&) {}
  virtual void on_stop_training_error(Trainer&) {}
  // A user-named event (CallbackHandler::call_event(name, trainer)); ignore unknown names.
  virtual void on_event(const std::string& /*name*/, Trainer&) {}

  // What a training state keeps of a callback whose decisions depend on what it has seen (the
  // best metric so far, a patience counter), so that a resumed run decides as the uninterrupted
  // one would: the name it is saved under (null: nothing to save; one callback per class, so
  // the class's name serves), the state as the text of a JSON object, and load_state, which a
  // run resuming from that state calls right after on_training_run_start (which may reset it).
  virtual const char* state_name() const { return nullptr; }
  virtual std::string state_json() const { return "{}"; }
  virtual void load_state(const io::JsonField& /*state*/) {}
};

}  // namespace accel
