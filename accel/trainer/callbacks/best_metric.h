// BestMetric: the best value a watched run-history metric has reached, and the rule for what
// counts as an improvement, shared by SaveBestModel, EarlyStopping and ModelEmaCallback.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "accel/core/io/json_field.h"

namespace accel {

class BestMetric {
 public:
  explicit BestMetric(bool greater_is_better) : greater_is_better_(greater_is_better) {}

  // Whether `value` beats the best by more than `threshold` (absolute); anything beats no best.
  bool is_improvement(double value, double threshold = 0) const {
    if (!best_) return true;
    return greater_is_better_ ? value - *best_ > threshold : *best_ - value > threshold;
  }
  const std::optional<double>& best() const { return best_; }
  void set(double value) { best_ = value; }
  void reset() { best_.reset(); }

  // The best value as a training state keeps it: a number, or null before any.
  nlohmann::json state() const { return best_ ? io::json_number(*best_) : nlohmann::json(); }
  void load_state(const io::JsonField& state) {
    best_ = state.value().is_null() ? std::nullopt : std::optional(state.number());
  }

 private:
  bool greater_is_better_;
  std::optional<double> best_;
};

}  // namespace accel
