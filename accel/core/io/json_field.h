// Typed reading of a JSON document from a file: each value knows the document it came from and
// its path in it ('run_history.metrics[0][1]'), so a missing field, a wrong type or an
// out-of-range number is an accel::Error naming both, never an nlohmann exception. Internal to
// accel's .cpp files: nlohmann_json is a private dependency.
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace accel::io {

class JsonField {
 public:
  // The whole document `value`; `where` names it in messages (e.g. a quoted path).
  JsonField(const nlohmann::json& value, const char* op, std::string where);

  // An object's member, which must be present.
  JsonField at(std::string_view key) const;
  bool contains(std::string_view key) const;
  // An object's keys, in the document's order.
  std::vector<std::string> keys() const;
  // An array's length; require_size also checks it.
  size_t size() const;
  void require_size(size_t expected) const;
  // An array's element, index < size().
  JsonField operator[](size_t index) const;

  // The value as it is, of any type.
  const nlohmann::json& value() const { return value_; }
  int64_t integer(int64_t min = std::numeric_limits<int64_t>::min(),
                  int64_t max = std::numeric_limits<int64_t>::max()) const;
  uint64_t unsigned_integer() const;
  bool boolean() const;
  std::string string() const;
  // A finite JSON number, or "NaN", "Infinity" or "-Infinity" (how json_number writes
  // non-finite values, which JSON numbers cannot hold).
  double number() const;
  // An array of number()s.
  std::vector<double> numbers() const;

  // Throws accel::Error "op: <where>: field '<path>': <what>".
  [[noreturn]] void fail(std::string_view what) const;

 private:
  JsonField(const nlohmann::json& value, const char* op, std::string where, std::string path);
  void require_object() const;
  void require_array() const;
  // The value cut short for a message: it may be a whole nested document.
  std::string excerpt() const;

  const nlohmann::json& value_;
  const char* op_;
  std::string where_;
  std::string path_;  // empty for the whole document
};

// How number() wants `value` written: finite values as JSON numbers, others as strings.
nlohmann::json json_number(double value);

}  // namespace accel::io
