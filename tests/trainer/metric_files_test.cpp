// Metrics to files: TensorBoard event records byte for byte as TensorBoard's own writer makes
// them (tests/reference/fixtures/tensorboard_events.json, from
// generate_tensorboard_fixture.py), TensorBoardLogger's file over a training run, and
// CSVLogger's rows (a metric that appears late, a name that needs quoting, a resumed run, a
// file that is not ours).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "accel/accel.h"
#include "accel/trainer/callbacks/tensorboard_events.h"
#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string from_hex(const std::string& hex) {
  std::string bytes;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return bytes;
}

TEST(TensorBoardEvents, Crc32cMatchesTheStandardCheckValue) {
  EXPECT_EQ(tensorboard::crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(tensorboard::crc32c(""), 0u);
}

TEST(TensorBoardEvents, RecordsAreTheBytesTensorBoardWrites) {
  std::ifstream in(std::string(ACCEL_FIXTURE_DIR) + "/tensorboard_events.json");
  ASSERT_TRUE(in.good()) << "missing tensorboard_events.json";
  const nlohmann::json fixture = nlohmann::json::parse(in);
  std::string bytes =
      tensorboard::record(tensorboard::file_version_event(fixture["file_version_time"]));
  for (const auto& scalar : fixture["scalars"]) {
    bytes += tensorboard::record(tensorboard::scalar_event(
        scalar[0].get<double>(), scalar[1].get<int64_t>(), scalar[2].get<std::string>(),
        static_cast<float>(scalar[3].get<double>())));
  }
  EXPECT_EQ(bytes, from_hex(fixture["event_file_hex"].get<std::string>()));
}

// Records a metric at the end of the eval epochs from epoch 2 on; its name needs CSV quoting.
struct LateMetric : Callback {
  void on_eval_epoch_end(Trainer& trainer) override {
    if (trainer.run_history().current_epoch() >= 2) {
      trainer.run_history().update_metric("top-1, %", 50.0 + trainer.run_history().current_epoch());
    }
  }
};

TrainArgs run_of(int64_t epochs, std::optional<std::string> resume_from = std::nullopt) {
  return {.train_dataset = testing::regression_dataset(32),
          .num_epochs = epochs,
          .eval_dataset = testing::regression_dataset(16, 11),
          .per_device_batch_size = 8,
          .resume_from = std::move(resume_from)};
}

TEST(TensorBoardLogger, WritesEveryEpochsMetricsAsScalars) {
  // ACCEL_TENSORBOARD_EXPORT=DIR keeps the file for generate_tensorboard_fixture.py --check.
  const char* exported = std::getenv("ACCEL_TENSORBOARD_EXPORT");
  const std::string dir = exported ? exported : testing::temp_dir("tensorboard_logger");
  auto model = testing::linear_model();
  auto logger = std::make_shared<TensorBoardLogger>(dir);
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {logger, std::make_shared<LateMetric>()});
  trainer.train(run_of(3));
  trainer.evaluate();
  const std::string bytes = read_all(logger->file());
  ASSERT_TRUE(logger->file().find("/events.out.tfevents.") != std::string::npos);

  // Walk the records: each frame's CRCs hold, and the events name the metrics per epoch.
  size_t at = 0, records = 0;
  std::string events;
  while (at < bytes.size()) {
    ASSERT_LE(at + 12, bytes.size());
    uint64_t length = 0;
    std::memcpy(&length, bytes.data() + at, 8);
    ASSERT_LE(at + 16 + length, bytes.size());
    const std::string event = bytes.substr(at + 12, length);
    uint32_t stored = 0;
    std::memcpy(&stored, bytes.data() + at + 12 + length, 4);
    const uint32_t crc = tensorboard::crc32c(event);
    EXPECT_EQ(stored, ((crc >> 15) | (crc << 17)) + 0xa282ead8u) << "record " << records;
    events += event;
    at += 16 + length;
    ++records;
  }
  // The version record, then per epoch train and eval loss (and the late metric from epoch 2
  // on), then the evaluation run's loss (evaluate() restarts the run history at epoch 1).
  EXPECT_EQ(records, 1u + 2 + 3 + 3 + 1);
  EXPECT_NE(events.find("brain.Event:2"), std::string::npos);
  EXPECT_NE(events.find("top-1, %"), std::string::npos);
  EXPECT_NE(events.find("evaluation_loss"), std::string::npos);
}

TEST(CSVLogger, OneRowPerEpochWithEveryMetric) {
  const std::string path = testing::temp_dir("csv_logger") + ".csv";
  auto model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<CSVLogger>(path), std::make_shared<LateMetric>()});
  trainer.train(run_of(3));
  const RunHistory& history = trainer.run_history();
  const auto train = history.get_metric_values("train_loss_epoch");
  const auto eval = history.get_metric_values("eval_loss_epoch");
  ASSERT_EQ(train.size(), 3u);
  ASSERT_EQ(eval.size(), 3u);
  trainer.evaluate();  // not a row (and it restarts the run history)
  EXPECT_EQ(read_all(path), fmt::format("epoch,train_loss_epoch,eval_loss_epoch,\"top-1, %\"\n"
                                        "1,{},{},\n2,{},{},52\n3,{},{},53\n",
                                        train[0], eval[0], train[1], eval[1], train[2], eval[2]));
}

TEST(CSVLogger, AResumedRunKeepsTheRowsOfEarlierEpochs) {
  const std::string path = testing::temp_dir("csv_logger_resumed") + ".csv";
  const std::string state = testing::temp_dir("csv_logger_state");
  std::string first_row;
  {
    auto model = testing::linear_model();
    Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                    {std::make_shared<CSVLogger>(path), std::make_shared<LateMetric>()});
    trainer.train(run_of(2));
    trainer.save_training_state(state);
    std::istringstream lines(read_all(path));
    std::getline(lines, first_row);
    std::getline(lines, first_row);
    std::getline(lines, first_row);  // epoch 2's row
  }
  auto model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<CSVLogger>(path), std::make_shared<LateMetric>()});
  trainer.train(run_of(3, state));
  std::istringstream lines(read_all(path));
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 4u) << read_all(path);
  EXPECT_EQ(rows[2], first_row);
  EXPECT_EQ(rows[3].substr(0, 2), "3,");

  // A file that is not CSVLogger's is an error naming it, not silently replaced.
  std::ofstream(path) << "name,score\nx,1\n";
  auto other = testing::linear_model();
  Trainer again(other, nn::MSELoss(), testing::sgd(*other), {std::make_shared<CSVLogger>(path)});
  testing::expect_error_containing([&] { again.train(run_of(3, state)); },
                                   "is not a metrics file of CSVLogger");
}

}  // namespace
}  // namespace accel
