// JsonField: each accessor checks the value's type (and range) first and reports a mismatch
// with the field's path, so callers read a document as plainly as a struct.
#include "accel/core/io/json_field.h"

#include <cmath>
#include <limits>

#include "accel/base/error.h"
#include "accel/core/io/message_name.h"

namespace accel::io {

using nlohmann::json;

JsonField::JsonField(const json& value, const char* op, std::string where)
    : JsonField(value, op, std::move(where), "") {}

JsonField::JsonField(const json& value, const char* op, std::string where, std::string path)
    : value_(value), op_(op), where_(std::move(where)), path_(std::move(path)) {}

void JsonField::fail(std::string_view what) const {
  if (path_.empty()) accel::fail(op_, "{}: {}", where_, what);
  accel::fail(op_, "{}: field '{}': {}", where_, path_, what);
}

std::string JsonField::excerpt() const {
  return shortened_for_message(value_.dump(-1, ' ', false, json::error_handler_t::replace));
}

void JsonField::require_object() const {
  if (!value_.is_object()) fail(fmt::format("expected an object, found {}", excerpt()));
}

void JsonField::require_array() const {
  if (!value_.is_array()) fail(fmt::format("expected an array, found {}", excerpt()));
}

JsonField JsonField::at(std::string_view key) const {
  require_object();
  const std::string path = path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
  const auto it = value_.find(key);
  if (it == value_.end()) JsonField(value_, op_, where_, path).fail("missing");
  return JsonField(*it, op_, where_, path);
}

bool JsonField::contains(std::string_view key) const {
  require_object();
  return value_.contains(key);
}

std::vector<std::string> JsonField::keys() const {
  require_object();
  std::vector<std::string> keys;
  for (const auto& item : value_.items()) keys.push_back(item.key());
  return keys;
}

size_t JsonField::size() const {
  require_array();
  return value_.size();
}

void JsonField::require_size(size_t expected) const {
  if (!value_.is_array() || value_.size() != expected) {
    fail(fmt::format("expected an array of {}, found {}", expected, excerpt()));
  }
}

JsonField JsonField::operator[](size_t index) const {
  require_array();
  if (index >= value_.size()) {
    fail(fmt::format("expected at least {} elements, found {}", index + 1, value_.size()));
  }
  return JsonField(value_[index], op_, where_, fmt::format("{}[{}]", path_, index));
}

int64_t JsonField::integer(int64_t min, int64_t max) const {
  const bool fits = value_.is_number_unsigned()
                        ? max >= 0 && value_.get<uint64_t>() <= static_cast<uint64_t>(max) &&
                              static_cast<int64_t>(value_.get<uint64_t>()) >= min
                        : value_.is_number_integer() && value_.get<int64_t>() >= min &&
                              value_.get<int64_t>() <= max;
  if (fits) return value_.get<int64_t>();
  if (min == std::numeric_limits<int64_t>::min() && max == std::numeric_limits<int64_t>::max()) {
    fail(fmt::format("expected an integer, found {}", excerpt()));
  }
  fail(fmt::format("expected an integer in [{}, {}], found {}", min, max, excerpt()));
}

uint64_t JsonField::unsigned_integer() const {
  // nlohmann stores a non-negative integer as unsigned; a negative one as signed.
  if (!value_.is_number_unsigned()) {
    fail(fmt::format("expected an unsigned 64-bit integer, found {}", excerpt()));
  }
  return value_.get<uint64_t>();
}

bool JsonField::boolean() const {
  if (!value_.is_boolean()) fail(fmt::format("expected true or false, found {}", excerpt()));
  return value_.get<bool>();
}

std::string JsonField::string() const {
  if (!value_.is_string()) fail(fmt::format("expected a string, found {}", excerpt()));
  return value_.get<std::string>();
}

double JsonField::number() const {
  if (value_.is_number()) return value_.get<double>();
  if (value_ == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (value_ == "Infinity") return std::numeric_limits<double>::infinity();
  if (value_ == "-Infinity") return -std::numeric_limits<double>::infinity();
  fail(fmt::format("expected a number (or \"NaN\", \"Infinity\", \"-Infinity\"), found {}",
                   excerpt()));
}

std::vector<double> JsonField::numbers() const {
  std::vector<double> numbers;
  for (size_t i = 0; i < size(); ++i) numbers.push_back((*this)[i].number());
  return numbers;
}

json json_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

}  // namespace accel::io
