// CSVLogger: every epoch's metrics as one row of a CSV file: `epoch`, then one column per
// metric in first-recorded order, empty where an epoch recorded no value. The file is rewritten
// atomically after each epoch, so it is always whole; a resumed run keeps the rows of the
// epochs before it. Evaluation runs (Trainer::evaluate) are not rows.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "accel/trainer/callbacks/epoch_metrics.h"

namespace accel {

class CSVLogger : public EpochMetrics {
 public:
  explicit CSVLogger(std::string path);

  void on_training_run_start(Trainer& trainer) override;
  void log_metrics(Trainer& trainer,
                   const std::vector<std::pair<std::string, double>>& metrics) override;

 private:
  struct Row {
    int64_t epoch;
    std::map<std::string, double> values;
  };
  // The rows of epochs before `first_epoch` from an existing file (a resumed run's past).
  void keep_rows_before(int64_t first_epoch);
  void write() const;
  void add_column(const std::string& name);

  std::string path_;
  std::vector<std::string> columns_;  // the metrics, in first-recorded order
  std::vector<Row> rows_;
};

}  // namespace accel
