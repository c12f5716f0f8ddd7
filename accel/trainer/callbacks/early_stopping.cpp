// EarlyStopping: the original's counter, messages and stopping rule.
#include "accel/trainer/callbacks/early_stopping.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "accel/base/error.h"
#include "accel/trainer/trainer.h"

namespace accel {

EarlyStopping::EarlyStopping(EarlyStoppingOptions options)
    : options_(std::move(options)), best_(options_.greater_is_better()) {
  ACCEL_CHECK(options_.patience() > 0, "EarlyStopping", "expected patience > 0, found {}",
              options_.patience());
}

void EarlyStopping::on_training_run_start(Trainer&) {
  if (options_.reset_on_train()) {
    best_.reset();
    counter_ = 0;
  }
}

void EarlyStopping::on_training_run_epoch_end(Trainer& trainer) {
  const double value = trainer.run_history().get_latest_metric(options_.watch_metric());
  if (!best_.best()) {
    best_.set(value);
  } else {
    if (best_.is_improvement(value, options_.early_stopping_threshold())) {
      trainer.print("\nImprovement of {} observed, resetting counter. ",
                    std::abs(value - *best_.best()));
      best_.set(value);
      counter_ = 0;
    } else {
      trainer.print("No improvement above threshold observed, incrementing counter. ");
      ++counter_;
    }
    trainer.print("Early stopping counter: {}/{}", counter_, options_.patience());
  }
  if (counter_ >= options_.patience()) {
    throw StopTrainingError(fmt::format("Stopping training due to no improvement after {} epochs",
                                        options_.patience()));
  }
}

std::string EarlyStopping::state_json() const {
  const nlohmann::json state = {{"best", best_.state()}, {"counter", counter_}};
  return state.dump();
}

void EarlyStopping::load_state(const io::JsonField& state) {
  counter_ = state.at("counter").integer(0);
  best_.load_state(state.at("best"));
}

}  // namespace accel
