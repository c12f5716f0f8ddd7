// Optimizer state files. Each options class lists its options once (`fields`), and that list
// serves both directions: writing every option into JSON and reading every one back, so a
// new option cannot be saved but forgotten on load.
#include "accel/optim/serialize.h"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <typeinfo>

#include "accel/core/io/bounded_json.h"
#include "accel/core/io/in_file.h"
#include "accel/core/io/message_name.h"
#include "accel/core/io/safetensors.h"
#include "accel/optim/adadelta.h"
#include "accel/optim/adagrad.h"
#include "accel/optim/adam.h"
#include "accel/optim/adamax.h"
#include "accel/optim/asgd.h"
#include "accel/optim/lbfgs.h"
#include "accel/optim/nadam.h"
#include "accel/optim/radam.h"
#include "accel/optim/rmsprop.h"
#include "accel/optim/rprop.h"
#include "accel/optim/sgd.h"

namespace accel::optim {
namespace {

using nlohmann::json;

constexpr const char* kSave = "save_optimizer_state";
constexpr const char* kLoad = "load_optimizer_state";
constexpr const char* kFormatKey = "format";
constexpr const char* kFormat = "accel.optimizer_state.v1";
constexpr const char* kKindKey = "optimizer";
constexpr const char* kGroupsKey = "param_groups";
constexpr std::string_view kStatePrefix = "state.";
// Bounds on the "param_groups" JSON: 16 MiB holds millions of parameter indices, and the
// format nests 5 levels (groups, group, options, betas).
constexpr io::JsonBounds kGroupsBounds = {.max_bytes = uint64_t{16} << 20, .max_depth = 8};

// An option's JSON value; an unset optional option is null.
template <typename T>
json option_json(const T& value) {
  return value;
}
template <typename T>
json option_json(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

// Writes each option into a JSON object.
struct OptionsWriter {
  json& out;
  template <typename T, typename Set>
  void operator()(const char* name, const T& value, Set&&) {
    out[name] = option_json(value);
  }
};

// An option's value, typed as strictly as the option: nlohmann's conversions would read true
// as 1.0 and ignore a third beta. Problems throw std::invalid_argument for the caller to place.
void read_option(const json& value, const char* name, double& out) {
  if (!value.is_number()) {
    throw std::invalid_argument(fmt::format("option \"{}\" must be a number", name));
  }
  out = value.get<double>();
}

void read_option(const json& value, const char* name, bool& out) {
  if (!value.is_boolean()) {
    throw std::invalid_argument(fmt::format("option \"{}\" must be true or false", name));
  }
  out = value.get<bool>();
}

void read_option(const json& value, const char* name, int64_t& out) {
  if (!value.is_number_integer()) {
    throw std::invalid_argument(fmt::format("option \"{}\" must be an integer", name));
  }
  out = value.get<int64_t>();
}

void read_option(const json& value, const char* name, std::string& out) {
  if (!value.is_string()) {
    throw std::invalid_argument(fmt::format("option \"{}\" must be a string", name));
  }
  out = value.get<std::string>();
}

// An optional option: null when unset.
template <typename T>
void read_option(const json& value, const char* name, std::optional<T>& out) {
  if (value.is_null()) {
    out.reset();
    return;
  }
  T inner{};
  read_option(value, name, inner);
  out = std::move(inner);
}

void read_option(const json& value, const char* name, Betas& out) {
  if (!value.is_array() || value.size() != 2 || !value[0].is_number() || !value[1].is_number()) {
    throw std::invalid_argument(fmt::format("option \"{}\" must be two numbers", name));
  }
  out = {value[0].get<double>(), value[1].get<double>()};
}

// Reads each option from a JSON object, noting the names read so that an unknown key shows.
struct OptionsReader {
  const json& in;
  std::vector<std::string_view> read;
  template <typename T, typename Set>
  void operator()(const char* name, const T&, Set&& set) {
    auto it = in.find(name);
    if (it == in.end()) {
      throw std::invalid_argument(fmt::format("option \"{}\" is missing", name));
    }
    T value{};
    read_option(*it, name, value);
    set(value);
    read.push_back(name);
  }
};

// Every option of each options class, in declaration order: codec(name, value, setter).
#define ACCEL_OPTION(name) codec(#name, o.name(), [&o](const auto& v) { o.name(v); })
template <typename Codec>
void fields(Codec& codec, SGDOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(momentum);
  ACCEL_OPTION(dampening);
  ACCEL_OPTION(weight_decay);
  ACCEL_OPTION(nesterov);
  ACCEL_OPTION(maximize);
}

template <typename Codec, typename AdamLike>
requires std::same_as<AdamLike, AdamOptions> || std::same_as<AdamLike, AdamWOptions>
void fields(Codec& codec, AdamLike& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(betas);
  ACCEL_OPTION(eps);
  ACCEL_OPTION(weight_decay);
  ACCEL_OPTION(amsgrad);
  ACCEL_OPTION(maximize);
}

template <typename Codec>
void fields(Codec& codec, RMSpropOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(alpha);
  ACCEL_OPTION(eps);
  ACCEL_OPTION(weight_decay);
  ACCEL_OPTION(momentum);
  ACCEL_OPTION(centered);
  ACCEL_OPTION(maximize);
}

template <typename Codec>
void fields(Codec& codec, AdagradOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(lr_decay);
  ACCEL_OPTION(weight_decay);
  ACCEL_OPTION(initial_accumulator_value);
  ACCEL_OPTION(eps);
  ACCEL_OPTION(maximize);
}

template <typename Codec>
void fields(Codec& codec, AdamaxOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(betas);
  ACCEL_OPTION(eps);
  ACCEL_OPTION(weight_decay);
  ACCEL_OPTION(maximize);
}

template <typename Codec>
void fields(Codec& codec, NAdamOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(betas);
  ACCEL_OPTION(eps);
  ACCEL_OPTION(weight_decay);
  ACCEL_OPTION(momentum_decay);
  ACCEL_OPTION(decoupled_weight_decay);
  ACCEL_OPTION(maximize);
}

template <typename Codec>
void fields(Codec& codec, RAdamOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(betas);
  ACCEL_OPTION(eps);
  ACCEL_OPTION(weight_decay);
  ACCEL_OPTION(decoupled_weight_decay);
  ACCEL_OPTION(maximize);
}

template <typename Codec>
void fields(Codec& codec, AdadeltaOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(rho);
  ACCEL_OPTION(eps);
  ACCEL_OPTION(weight_decay);
  ACCEL_OPTION(maximize);
}

template <typename Codec>
void fields(Codec& codec, RpropOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(etas);
  ACCEL_OPTION(step_sizes);
  ACCEL_OPTION(maximize);
}

template <typename Codec>
void fields(Codec& codec, ASGDOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(lambd);
  ACCEL_OPTION(alpha);
  ACCEL_OPTION(t0);
  ACCEL_OPTION(weight_decay);
  ACCEL_OPTION(maximize);
}

template <typename Codec>
void fields(Codec& codec, LBFGSOptions& o) {
  ACCEL_OPTION(lr);
  ACCEL_OPTION(max_iter);
  ACCEL_OPTION(max_eval);
  ACCEL_OPTION(tolerance_grad);
  ACCEL_OPTION(tolerance_change);
  ACCEL_OPTION(history_size);
  ACCEL_OPTION(line_search_fn);
  ACCEL_OPTION(maximize);
}
#undef ACCEL_OPTION

// The optimizer kinds a file can hold, named as their optimizers are (Optimizer::name()).
template <typename Options>
struct Kind {
  using Type = Options;
  const char* name;
};
constexpr std::tuple kKinds{Kind<SGDOptions>{"SGD"},           Kind<AdamOptions>{"Adam"},
                            Kind<AdamWOptions>{"AdamW"},       Kind<RMSpropOptions>{"RMSprop"},
                            Kind<AdagradOptions>{"Adagrad"},   Kind<AdamaxOptions>{"Adamax"},
                            Kind<NAdamOptions>{"NAdam"},       Kind<RAdamOptions>{"RAdam"},
                            Kind<AdadeltaOptions>{"Adadelta"}, Kind<RpropOptions>{"Rprop"},
                            Kind<ASGDOptions>{"ASGD"},         Kind<LBFGSOptions>{"LBFGS"}};

// Calls f(kind) for each kind until one returns true; false if none did.
template <typename F>
bool any_kind(F&& f) {
  return std::apply([&](auto... kind) { return (f(kind) || ...); }, kKinds);
}

// The kind of `options` and its options as a JSON object.
std::pair<std::string, json> options_to_json(const OptimizerOptions& options) {
  std::pair<std::string, json> out{"", json::object()};
  const bool known = any_kind([&](auto kind) {
    using Options = typename decltype(kind)::Type;
    if (typeid(options) != typeid(Options)) return false;
    Options copy = static_cast<const Options&>(options);
    OptionsWriter writer{out.second};
    fields(writer, copy);
    out.first = kind.name;
    return true;
  });
  ACCEL_CHECK(known, kSave, "expected the options of one of accel's optimizers, found {}",
              typeid(options).name());
  return out;
}

// Options of `kind` from JSON; throws std::invalid_argument the caller turns into an error.
std::shared_ptr<const OptimizerOptions> options_from_json(const std::string& kind, const json& in) {
  if (!in.is_object()) throw std::invalid_argument("\"options\" must be a JSON object");
  std::shared_ptr<const OptimizerOptions> out;
  const bool known = any_kind([&](auto k) {
    using Options = typename decltype(k)::Type;
    if (kind != k.name) return false;
    Options options(0.0);
    OptionsReader reader{in, {}};
    fields(reader, options);
    for (const auto& [key, value] : in.items()) {
      if (std::find(reader.read.begin(), reader.read.end(), key) == reader.read.end()) {
        throw std::invalid_argument(
            fmt::format("unknown option {} for {}", io::quoted_for_message(key), kind));
      }
    }
    out = std::make_shared<Options>(options);
    return true;
  });
  if (!known) {
    throw std::invalid_argument(
        fmt::format("unknown optimizer kind {}", io::quoted_for_message(kind)));
  }
  return out;
}

std::string kind_of(const OptimizerOptions& options) { return options_to_json(options).first; }

// Parses "state.<index>.<key>" into the index and key.
std::pair<int64_t, std::string> parse_state_name(const std::string& name, const std::string& path) {
  const std::string_view view(name);
  const size_t dot = view.find('.', kStatePrefix.size());
  int64_t index = -1;
  if (view.starts_with(kStatePrefix) && dot != std::string_view::npos && dot + 1 < view.size()) {
    const char* begin = view.data() + kStatePrefix.size();
    const auto [end, error] = std::from_chars(begin, view.data() + dot, index);
    if (error != std::errc() || end != view.data() + dot) index = -1;
  }
  ACCEL_CHECK(index >= 0, kLoad, "\"{}\": expected tensor names \"state.<index>.<key>\", found {}",
              path, io::quoted_for_message(name));
  return {index, name.substr(dot + 1)};
}

std::vector<OptimizerStateDict::Group> parse_groups(const std::string& kind,
                                                    const std::string& text,
                                                    const std::string& path) {
  const json root = io::parse_bounded_json(
      text, kGroupsBounds, kLoad, fmt::format("\"{}\": metadata \"{}\"", path, kGroupsKey));
  ACCEL_CHECK(root.is_object() && root.contains(kGroupsKey) && root[kGroupsKey].is_array(), kLoad,
              "\"{}\": expected the parameter groups as {{\"{}\": [...]}}", path, kGroupsKey);
  const json& groups = root[kGroupsKey];
  std::vector<OptimizerStateDict::Group> out;
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto bad = [&](std::string_view what) {
      fail(kLoad, "\"{}\": parameter group {}: {}", path, g, what);
    };
    const json& group = groups[g];
    if (!group.is_object() || !group.contains("params") || !group.contains("options") ||
        !group.contains("initial_lr")) {
      bad("expected an object with \"params\", \"options\" and \"initial_lr\"");
    }
    OptimizerStateDict::Group parsed;
    const json& params = group["params"];
    if (!params.is_array()) bad("\"params\" must be an array of parameter indices");
    for (const json& index : params) {
      if (!index.is_number_integer()) bad("\"params\" must be an array of parameter indices");
      parsed.params.push_back(index.get<int64_t>());
    }
    const json& initial_lr = group["initial_lr"];
    if (!initial_lr.is_null()) {
      if (!initial_lr.is_number() || !(initial_lr.get<double>() >= 0.0)) {
        bad("\"initial_lr\" must be null or a non-negative number");
      }
      parsed.initial_lr = initial_lr.get<double>();
    }
    try {
      parsed.options = options_from_json(kind, group["options"]);
    } catch (const std::invalid_argument& error) {
      bad(error.what());
    }
    out.push_back(std::move(parsed));
  }
  return out;
}

}  // namespace

void save_optimizer_state(const OptimizerStateDict& state, const std::string& path) {
  std::string kind;
  json groups = json::array();
  for (size_t g = 0; g < state.param_groups.size(); ++g) {
    const OptimizerStateDict::Group& group = state.param_groups[g];
    ACCEL_CHECK(group.options != nullptr, kSave, "group {} has no options", g);
    auto [group_kind, options] = options_to_json(*group.options);
    ACCEL_CHECK(kind.empty() || kind == group_kind, kSave,
                "expected every group to hold {} options, found {} options in group {}", kind,
                group_kind, g);
    kind = group_kind;
    groups.push_back({{"params", group.params},
                      {"options", std::move(options)},
                      {"initial_lr", group.initial_lr ? json(*group.initial_lr) : json(nullptr)}});
  }
  io::NamedTensors tensors;
  for (const auto& [index, param_state] : state.state) {
    for (const auto& [key, value] : param_state) {
      tensors.emplace_back(fmt::format("{}{}.{}", kStatePrefix, index, key), value);
    }
  }
  const json header = {{kGroupsKey, std::move(groups)}};
  io::save_safetensors(path, tensors,
                       {{kFormatKey, kFormat}, {kKindKey, kind}, {kGroupsKey, header.dump()}});
}

OptimizerStateDict load_optimizer_state(const std::string& path) {
  io::SafetensorsContents contents = io::load_safetensors(path);
  const auto& metadata = contents.metadata;
  auto format = metadata.find(kFormatKey);
  ACCEL_CHECK(
      format != metadata.end() && format->second == kFormat, kLoad,
      "\"{}\": expected an optimizer state file (metadata format \"{}\"), found {}", path, kFormat,
      format == metadata.end() ? "no format" : "format " + io::quoted_for_message(format->second));
  auto kind = metadata.find(kKindKey);
  auto groups = metadata.find(kGroupsKey);
  ACCEL_CHECK(kind != metadata.end() && groups != metadata.end(), kLoad,
              "\"{}\": expected metadata \"{}\" and \"{}\", found only some", path, kKindKey,
              kGroupsKey);
  OptimizerStateDict dict;
  dict.param_groups = parse_groups(kind->second, groups->second, path);
  for (auto& [name, tensor] : contents.tensors) {
    auto [index, key] = parse_state_name(name, path);
    // "state.1.x" and "state.01.x" are different names for the same state.
    const bool added = dict.state[index].emplace(key, std::move(tensor)).second;
    ACCEL_CHECK(added, kLoad, "\"{}\": state {} of parameter {} appears twice", path,
                io::quoted_for_message(key), index);
  }
  return dict;
}

void save(const Optimizer& optimizer, const std::string& path) {
  save_optimizer_state(optimizer.state_dict(), path);
}

void check_optimizer_state(const Optimizer& optimizer, const OptimizerStateDict& state,
                           const std::string& path) {
  if (!state.param_groups.empty()) {
    const std::string kind = kind_of(*state.param_groups.front().options);
    ACCEL_CHECK(kind == optimizer.name(), "optim::load",
                "\"{}\": expected the state of a {} optimizer, found the state of {}", path,
                optimizer.name(), kind);
  }
  in_file("optim::load", path, [&] { optimizer.check_state_dict(state); });
}

void load(Optimizer& optimizer, const std::string& path) {
  const OptimizerStateDict state = load_optimizer_state(path);
  check_optimizer_state(optimizer, state, path);
  optimizer.load_state_dict(state);
}

}  // namespace accel::optim
