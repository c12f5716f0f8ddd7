// SaveBestModel: compares the watched metric after every epoch; the checkpoint's extras JSON is
// {"<watch_metric>": value}.
#include "accel/trainer/callbacks/save_best_model.h"

#include <nlohmann/json.hpp>

#include "accel/trainer/trainer.h"

namespace accel {

SaveBestModel::SaveBestModel(SaveBestModelOptions options)
    : options_(std::move(options)), best_(options_.greater_is_better()) {}

void SaveBestModel::on_training_run_start(Trainer&) {
  if (options_.reset_on_train()) {
    best_.reset();
    best_epoch_ = 0;
  }
}

void SaveBestModel::on_training_run_epoch_end(Trainer& trainer) {
  const double value = trainer.run_history().get_latest_metric(options_.watch_metric());
  if (!best_.is_improvement(value)) return;
  best_.set(value);
  best_epoch_ = trainer.run_history().current_epoch();
  const nlohmann::json extras = {{options_.watch_metric(), value}};
  trainer.save_checkpoint(options_.save_path(), extras.dump(), options_.save_optimizer(),
                          options_.save_scheduler());
}

void SaveBestModel::on_training_run_end(Trainer& trainer) {
  if (!options_.load_saved_checkpoint() || !best_.best()) return;
  trainer.print("Loading checkpoint with {}: {} from epoch {}", options_.watch_metric(),
                *best_.best(), best_epoch_);
  trainer.load_checkpoint(options_.save_path(),
                          options_.save_optimizer() && trainer.optimizer() != nullptr,
                          options_.save_scheduler() && trainer.scheduler() != nullptr);
}

std::string SaveBestModel::state_json() const {
  const nlohmann::json state = {{"best", best_.state()}, {"best_epoch", best_epoch_}};
  return state.dump();
}

void SaveBestModel::load_state(const io::JsonField& state) {
  best_epoch_ = state.at("best_epoch").integer(0);
  best_.load_state(state.at("best"));
}

}  // namespace accel
