// LRSchedulerState <-> JSON with nlohmann_json (kept out of the public headers); every field is
// required on reading, and each type mismatch is reported with the key it occurred at.
#include "accel/optim/schedulers/lr_scheduler_state_json.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace accel::optim {
namespace {

using nlohmann::json;
constexpr const char* kOp = "lr_scheduler_state_from_json";

// The offending value for an error message, cut short: it may be a whole nested document.
std::string excerpt(const json& value) {
  std::string text = value.dump();
  return text.size() > 60 ? text.substr(0, 60) + "..." : text;
}

json number_to_json(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

double number_from_json(const json& value, const std::string& where) {
  if (value.is_number()) return value.get<double>();
  if (value == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (value == "Infinity") return std::numeric_limits<double>::infinity();
  if (value == "-Infinity") return -std::numeric_limits<double>::infinity();
  fail(kOp, "expected a number at {}, found {}", where, excerpt(value));
}

json state_to_json(const LRSchedulerState& state) {
  json out = {{"last_epoch", state.last_epoch},
              {"base_lrs", json::array()},
              {"last_lr", json::array()},
              {"values", json::object()},
              {"schedulers", json::array()}};
  for (double lr : state.base_lrs) out["base_lrs"].push_back(number_to_json(lr));
  for (double lr : state.last_lr) out["last_lr"].push_back(number_to_json(lr));
  for (const auto& [key, value] : state.values) out["values"][key] = number_to_json(value);
  for (const LRSchedulerState& child : state.schedulers) {
    out["schedulers"].push_back(state_to_json(child));
  }
  return out;
}

// object[key], which must exist and satisfy `is` (json::is_array, ...).
const json& field(const json& object, const char* key, bool (json::*is)() const noexcept,
                  const char* expected, const std::string& where) {
  ACCEL_CHECK(object.contains(key), kOp, "expected key \"{}\" in {}, found none", key, where);
  const json& value = object.at(key);
  ACCEL_CHECK((value.*is)(), kOp, "expected {}.{} to be {}, found {}", where, key, expected,
              excerpt(value));
  return value;
}

std::vector<double> numbers_from_json(const json& object, const char* key,
                                      const std::string& where) {
  std::vector<double> numbers;
  const json& array = field(object, key, &json::is_array, "an array", where);
  for (size_t i = 0; i < array.size(); ++i) {
    numbers.push_back(number_from_json(array[i], fmt::format("{}.{}[{}]", where, key, i)));
  }
  return numbers;
}

LRSchedulerState state_from_json(const json& in, const std::string& where) {
  ACCEL_CHECK(in.is_object(), kOp, "expected {} to be an object, found {}", where, excerpt(in));
  LRSchedulerState state;
  state.last_epoch =
      field(in, "last_epoch", &json::is_number_integer, "an integer", where).get<int64_t>();
  state.base_lrs = numbers_from_json(in, "base_lrs", where);
  state.last_lr = numbers_from_json(in, "last_lr", where);
  for (const auto& [key, value] :
       field(in, "values", &json::is_object, "an object", where).items()) {
    state.values[key] = number_from_json(value, fmt::format("{}.values.{}", where, key));
  }
  const json& children = field(in, "schedulers", &json::is_array, "an array", where);
  for (size_t i = 0; i < children.size(); ++i) {
    state.schedulers.push_back(
        state_from_json(children[i], fmt::format("{}.schedulers[{}]", where, i)));
  }
  return state;
}

}  // namespace

std::string lr_scheduler_state_to_json(const LRSchedulerState& state) {
  return state_to_json(state).dump();
}

LRSchedulerState lr_scheduler_state_from_json(std::string_view text) {
  json parsed;
  try {
    parsed = json::parse(text);
  } catch (const json::parse_error& e) {
    fail(kOp, "expected valid JSON, found {}", e.what());
  }
  return state_from_json(parsed, "state");
}

}  // namespace accel::optim
