// CSVLogger: rows kept in memory and the whole file written atomically after each epoch (a few
// hundred bytes per epoch); fields quoted as RFC 4180 says where a metric's name needs it.
#include "accel/trainer/callbacks/csv_logger.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "accel/base/error.h"
#include "accel/core/io/atomic_file.h"
#include "accel/core/io/read_file.h"
#include "accel/trainer/trainer.h"

namespace accel {
namespace {

constexpr uint64_t kMaxCsvBytes = uint64_t{256} << 20;

std::string quoted_field(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string out = "\"";
  for (char c : field) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The fields of one CSV record starting at `at` (advanced past its line end).
std::vector<std::string> read_record(const std::string& text, size_t& at) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (quoted) {
      if (c == '"' && at + 1 < text.size() && text[at + 1] == '"') {
        fields.back() += '"';
        ++at;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c == '\n') {
      ++at;
      break;
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

}  // namespace

CSVLogger::CSVLogger(std::string path) : path_(std::move(path)) {}

void CSVLogger::on_training_run_start(Trainer& trainer) {
  columns_.clear();
  rows_.clear();
  const int64_t first_epoch = trainer.run_history().current_epoch();
  if (first_epoch > 1 && std::filesystem::exists(path_)) keep_rows_before(first_epoch);
}

void CSVLogger::add_column(const std::string& name) {
  if (std::find(columns_.begin(), columns_.end(), name) == columns_.end()) {
    columns_.push_back(name);
  }
}

void CSVLogger::keep_rows_before(int64_t first_epoch) {
  const char* op = "CSVLogger";
  const std::string text = io::read_file(path_, op, kMaxCsvBytes);
  size_t at = 0;
  const std::vector<std::string> header = read_record(text, at);
  ACCEL_CHECK(header.front() == "epoch", op,
              "\"{}\" is not a metrics file of CSVLogger (its first column is not 'epoch'); move "
              "it away or log to another file",
              path_);
  for (size_t i = 1; i < header.size(); ++i) add_column(header[i]);
  for (int64_t line = 2; at < text.size(); ++line) {
    const std::vector<std::string> fields = read_record(text, at);
    ACCEL_CHECK(fields.size() == header.size(), op, "\"{}\" line {}: {} fields, expected {}", path_,
                line, fields.size(), header.size());
    char* end = nullptr;
    const int64_t epoch = std::strtoll(fields[0].c_str(), &end, 10);
    ACCEL_CHECK(!fields[0].empty() && *end == '\0' && epoch >= 1, op,
                "\"{}\" line {}: '{}' is not an epoch number", path_, line, fields[0]);
    if (epoch >= first_epoch) continue;
    Row row{epoch, {}};
    for (size_t i = 1; i < fields.size(); ++i) {
      if (fields[i].empty()) continue;
      const double value = std::strtod(fields[i].c_str(), &end);
      ACCEL_CHECK(*end == '\0', op, "\"{}\" line {}: '{}' is not a number", path_, line, fields[i]);
      row.values[header[i]] = value;
    }
    rows_.push_back(std::move(row));
  }
}

void CSVLogger::log_metrics(Trainer&, const std::vector<std::pair<std::string, double>>& metrics) {
  if (is_evaluation_run()) return;
  Row row{epoch(), {}};
  for (const auto& [name, value] : metrics) {
    add_column(name);
    row.values[name] = value;
  }
  rows_.push_back(std::move(row));
  write();
}

void CSVLogger::write() const {
  std::string text = "epoch";
  for (const std::string& column : columns_) text += "," + quoted_field(column);
  text += "\n";
  for (const Row& row : rows_) {
    text += std::to_string(row.epoch);
    for (const std::string& column : columns_) {
      const auto value = row.values.find(column);
      text += value == row.values.end() ? "," : fmt::format(",{}", value->second);
    }
    text += "\n";
  }
  io::AtomicFileWriter writer(path_);
  writer.write(text.data(), text.size());
  writer.commit();
}

}  // namespace accel
