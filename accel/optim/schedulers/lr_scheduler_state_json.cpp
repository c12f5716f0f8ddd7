// LRSchedulerState <-> JSON with nlohmann_json (kept out of the public headers); every field is
// required on reading, and each type mismatch is reported with the field it occurred at.
#include "accel/optim/schedulers/lr_scheduler_state_json.h"

#include "accel/core/io/bounded_json.h"
#include "accel/core/io/json_field.h"

namespace accel::optim {
namespace {

using nlohmann::json;
constexpr const char* kOp = "lr_scheduler_state_from_json";
// A state is a few numbers per parameter group; each SequentialLR level nests two deeper, so
// the depth bound allows SequentialLRs nested about 60 deep.
constexpr io::JsonBounds kBounds = {.max_bytes = uint64_t{16} << 20, .max_depth = 128};

json state_to_json(const LRSchedulerState& state) {
  json out = {{"last_epoch", state.last_epoch},
              {"base_lrs", json::array()},
              {"last_lr", json::array()},
              {"values", json::object()},
              {"schedulers", json::array()}};
  for (double lr : state.base_lrs) out["base_lrs"].push_back(io::json_number(lr));
  for (double lr : state.last_lr) out["last_lr"].push_back(io::json_number(lr));
  for (const auto& [key, value] : state.values) out["values"][key] = io::json_number(value);
  for (const LRSchedulerState& child : state.schedulers) {
    out["schedulers"].push_back(state_to_json(child));
  }
  return out;
}

LRSchedulerState state_from_json(const io::JsonField& in) {
  LRSchedulerState state;
  state.last_epoch = in.at("last_epoch").integer();
  state.base_lrs = in.at("base_lrs").numbers();
  state.last_lr = in.at("last_lr").numbers();
  const io::JsonField values = in.at("values");
  for (const std::string& key : values.keys()) state.values[key] = values.at(key).number();
  const io::JsonField children = in.at("schedulers");
  for (size_t i = 0; i < children.size(); ++i) {
    state.schedulers.push_back(state_from_json(children[i]));
  }
  return state;
}

}  // namespace

std::string lr_scheduler_state_to_json(const LRSchedulerState& state) {
  return state_to_json(state).dump();
}

LRSchedulerState lr_scheduler_state_from_json(std::string_view text, const std::string& where) {
  const json parsed = io::parse_bounded_json(text, kBounds, kOp, where);
  return state_from_json(io::JsonField(parsed, kOp, where));
}

}  // namespace accel::optim
