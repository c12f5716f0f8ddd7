// InMemoryRunHistory: metrics in first-recorded order, each a list of values.
#include "accel/trainer/run_history.h"

#include <algorithm>

#include "accel/base/error.h"

namespace accel {

namespace {

// The values of metric `name` in `metrics` (const or not), or nullptr.
template <typename Metrics>
auto find_values(Metrics& metrics, const std::string& name) -> decltype(&metrics.front().second) {
  for (auto& [metric, values] : metrics) {
    if (metric == name) return &values;
  }
  return nullptr;
}

}  // namespace

const std::vector<double>* InMemoryRunHistory::find(const std::string& name) const {
  return find_values(state_.metrics, name);
}

std::vector<std::string> InMemoryRunHistory::get_metric_names() const {
  std::vector<std::string> names;
  for (const auto& entry : state_.metrics) names.push_back(entry.first);
  return names;
}

std::vector<double> InMemoryRunHistory::get_metric_values(const std::string& name) const {
  const auto* values = find(name);
  return values ? *values : std::vector<double>{};
}

double InMemoryRunHistory::get_latest_metric(const std::string& name) const {
  const auto* values = find(name);
  ACCEL_CHECK(values && !values->empty(), "RunHistory::get_latest_metric",
              "no value recorded for metric '{}'", name);
  return values->back();
}

void InMemoryRunHistory::update_metric(const std::string& name, double value) {
  const std::string full_name = prefix_ + name;
  auto* values = find_values(state_.metrics, full_name);
  if (values) {
    values->push_back(value);
  } else {
    state_.metrics.emplace_back(full_name, std::vector<double>{value});
  }
}

void InMemoryRunHistory::delete_metric(const std::string& name) {
  std::erase_if(state_.metrics, [&](const auto& entry) { return entry.first == name; });
}

void InMemoryRunHistory::set_current_epoch(int64_t epoch) {
  ACCEL_CHECK(epoch >= 1, "RunHistory::set_current_epoch", "epochs count from 1, got {}", epoch);
  state_.current_epoch = epoch;
}

void InMemoryRunHistory::reset() {
  state_ = {};
  prefix_.clear();
}

void InMemoryRunHistory::load_state(const RunHistoryState& state) {
  set_current_epoch(state.current_epoch);
  state_ = state;
}

}  // namespace accel
