// TensorBoardLogger: events.out.tfevents.<seconds>.<host>.<pid>.<n>, TensorBoard's file naming,
// appended record by record.
#include "accel/trainer/callbacks/tensorboard_logger.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "accel/base/error.h"
#include "accel/trainer/callbacks/tensorboard_events.h"
#include "accel/trainer/trainer.h"

namespace accel {
namespace {

double wall_time() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

TensorBoardLogger::TensorBoardLogger(std::string log_dir) : log_dir_(std::move(log_dir)) {}

void TensorBoardLogger::on_training_run_start(Trainer& trainer) {
  if (trainer.accelerator().is_main_process()) open_file();
}

void TensorBoardLogger::open_file() {
  const char* op = "TensorBoardLogger";
  std::error_code error;
  std::filesystem::create_directories(log_dir_, error);
  ACCEL_CHECK(!error, op, "cannot create the log directory \"{}\": {}", log_dir_, error.message());
  static std::atomic<int> files_opened{0};
  char host[256] = "localhost";
  ::gethostname(host, sizeof(host) - 1);
  const double now = wall_time();
  file_ = fmt::format("{}/events.out.tfevents.{}.{}.{}.{}", log_dir_, static_cast<int64_t>(now),
                      host, ::getpid(), files_opened++);
  out_.reset(std::fopen(file_.c_str(), "wb"));
  ACCEL_CHECK(out_ != nullptr, op, "cannot create \"{}\": {}", file_, std::strerror(errno));
  append(tensorboard::file_version_event(now));
  ACCEL_CHECK(std::fflush(out_.get()) == 0, op, "cannot write \"{}\": {}", file_,
              std::strerror(errno));
}

void TensorBoardLogger::log_metrics(Trainer&,
                                    const std::vector<std::pair<std::string, double>>& metrics) {
  if (!out_) open_file();  // an evaluation run before any training run
  const double now = wall_time();
  for (const auto& [name, value] : metrics) {
    append(tensorboard::scalar_event(now, epoch(), name, static_cast<float>(value)));
  }
  ACCEL_CHECK(std::fflush(out_.get()) == 0 && ::fsync(fileno(out_.get())) == 0, "TensorBoardLogger",
              "cannot write \"{}\": {}", file_, std::strerror(errno));
}

void TensorBoardLogger::append(const std::string& event) {
  const std::string bytes = tensorboard::record(event);
  ACCEL_CHECK(std::fwrite(bytes.data(), 1, bytes.size(), out_.get()) == bytes.size(),
              "TensorBoardLogger", "cannot write \"{}\": {}", file_, std::strerror(errno));
}

}  // namespace accel
