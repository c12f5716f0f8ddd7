// RunHistory: the metrics a training run records, one value per epoch (or per evaluation),
// as pytorch-accelerated's RunHistory; InMemoryRunHistory keeps them in memory. A metric
// name prefix (ModelEma's "ema_model_") is applied to every name recorded while it is set.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace accel {

// A run history's contents, for training states.
struct RunHistoryState {
  std::vector<std::pair<std::string, std::vector<double>>> metrics;  // in first-recorded order
  int64_t current_epoch = 1;
};

class RunHistory {
 public:
  virtual ~RunHistory() = default;
  virtual std::vector<std::string> get_metric_names() const = 0;
  // The values recorded under `name` (the full name, prefix included); empty if none.
  virtual std::vector<double> get_metric_values(const std::string& name) const = 0;
  // The last value recorded under `name`; an error if there is none.
  virtual double get_latest_metric(const std::string& name) const = 0;
  // Appends `value` under prefix + name.
  virtual void update_metric(const std::string& name, double value) = 0;
  virtual void delete_metric(const std::string& name) = 0;
  virtual void set_metric_name_prefix(std::string prefix) = 0;
  virtual const std::string& metric_name_prefix() const = 0;
  // The epoch being run, counting from 1.
  virtual int64_t current_epoch() const = 0;
  virtual void set_current_epoch(int64_t epoch) = 0;
  void increment_epoch() { set_current_epoch(current_epoch() + 1); }
  // Forgets every metric and restarts at epoch 1.
  virtual void reset() = 0;

  virtual RunHistoryState state() const = 0;
  virtual void load_state(const RunHistoryState& state) = 0;
};

class InMemoryRunHistory final : public RunHistory {
 public:
  std::vector<std::string> get_metric_names() const override;
  std::vector<double> get_metric_values(const std::string& name) const override;
  double get_latest_metric(const std::string& name) const override;
  void update_metric(const std::string& name, double value) override;
  void delete_metric(const std::string& name) override;
  void set_metric_name_prefix(std::string prefix) override { prefix_ = std::move(prefix); }
  const std::string& metric_name_prefix() const override { return prefix_; }
  int64_t current_epoch() const override { return state_.current_epoch; }
  void set_current_epoch(int64_t epoch) override;
  void reset() override;
  RunHistoryState state() const override { return state_; }
  void load_state(const RunHistoryState& state) override;

 private:
  const std::vector<double>* find(const std::string& name) const;

  RunHistoryState state_;
  std::string prefix_;
};

}  // namespace accel
