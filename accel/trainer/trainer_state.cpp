// Trainer checkpoints and training states. A checkpoint is a directory: model.safetensors
// (PyTorch-loadable, the model's state_dict names), optimizer.safetensors, scheduler.json and
// checkpoint.json (what is present, plus the user's extras). A training state adds
// trainer_state.json (position, RNG, run history, loss tracker, loss scaler) and
// gradients.safetensors when gradients are pending. Both are written atomically.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "accel/base/error.h"
#include "accel/core/io/atomic_directory.h"
#include "accel/core/io/atomic_file.h"
#include "accel/core/io/safetensors.h"
#include "accel/core/random.h"
#include "accel/optim/schedulers/lr_scheduler_state_json.h"
#include "accel/optim/serialize.h"
#include "accel/trainer/trainer.h"

namespace accel {
namespace {

using nlohmann::json;

constexpr const char* kModelFile = "model.safetensors";
constexpr const char* kOptimizerFile = "optimizer.safetensors";
constexpr const char* kSchedulerFile = "scheduler.json";
constexpr const char* kCheckpointFile = "checkpoint.json";
constexpr const char* kTrainerStateFile = "trainer_state.json";
constexpr const char* kGradientsFile = "gradients.safetensors";
constexpr int kFormatVersion = 1;

void write_text(const std::string& path, const std::string& text) {
  io::AtomicFileWriter writer(path);
  writer.write(text.data(), text.size());
  writer.commit();
}

std::string read_text(const char* op, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  ACCEL_CHECK(in.good(), op, "cannot open \"{}\"", path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

json parse_json(const char* op, const std::string& path) {
  try {
    return json::parse(read_text(op, path));
  } catch (const json::exception& e) {
    fail(op, "\"{}\" is not valid JSON: {}", path, e.what());
  }
}

json parse_extras(const char* op, const std::string& extras_json) {
  try {
    return json::parse(extras_json);
  } catch (const json::exception& e) {
    fail(op, "the extras must be valid JSON, got '{}': {}", extras_json, e.what());
  }
}

// The directory's checkpoint.json, checked to be one of ours.
json read_checkpoint_info(const char* op, const std::string& dir) {
  ACCEL_CHECK(std::filesystem::is_directory(dir), op, "\"{}\" is not a checkpoint directory", dir);
  const std::string path = dir + "/" + kCheckpointFile;
  ACCEL_CHECK(std::filesystem::exists(path), op,
              "\"{}\" has no {}: not a checkpoint written by accel", dir, kCheckpointFile);
  json info = parse_json(op, path);
  ACCEL_CHECK(info.is_object() && info.value("format", "") == "accel-checkpoint" &&
                  info.value("version", 0) == kFormatVersion,
              op, "\"{}\" is not an accel checkpoint of format version {}", path, kFormatVersion);
  return info;
}

template <typename T>
T field(const char* op, const json& object, const char* key, const std::string& source) {
  try {
    return object.at(key).get<T>();
  } catch (const json::exception& e) {
    fail(op, "\"{}\": missing or invalid field '{}': {}", source, key, e.what());
  }
}

}  // namespace

void Trainer::write_checkpoint_files(const std::function<std::string(const std::string&)>& file,
                                     const std::string& extras_json, bool save_optimizer,
                                     bool save_scheduler) const {
  const char* op = "Trainer::save_checkpoint";
  const json extras = parse_extras(op, extras_json);
  ACCEL_CHECK(!save_optimizer || optimizer_, op, "save_optimizer is set but there is no optimizer");
  model_->save(file(kModelFile));
  if (save_optimizer) optim::save(*optimizer_, file(kOptimizerFile));
  const bool with_scheduler = save_scheduler && scheduler_ != nullptr;
  if (with_scheduler) {
    write_text(file(kSchedulerFile), optim::lr_scheduler_state_to_json(scheduler_->state_dict()));
  }
  const json info = {{"format", "accel-checkpoint"},
                     {"version", kFormatVersion},
                     {"has_optimizer", save_optimizer},
                     {"has_scheduler", with_scheduler},
                     {"extras", extras}};
  write_text(file(kCheckpointFile), info.dump(2));
}

void Trainer::save_checkpoint(const std::string& path, const std::string& extras_json,
                              bool save_optimizer, bool save_scheduler) const {
  io::AtomicDirectoryWriter writer(path);
  write_checkpoint_files([&](const std::string& name) { return writer.file(name); }, extras_json,
                         save_optimizer, save_scheduler);
  writer.commit();
}

std::string Trainer::load_checkpoint(const std::string& path, bool load_optimizer,
                                     bool load_scheduler) {
  const char* op = "Trainer::load_checkpoint";
  const json info = read_checkpoint_info(op, path);
  const bool has_optimizer = info.value("has_optimizer", false);
  const bool has_scheduler = info.value("has_scheduler", false);
  if (load_optimizer) {
    ACCEL_CHECK(has_optimizer, op,
                "\"{}\" holds no optimizer state; pass load_optimizer = false to load the weights "
                "only",
                path);
    ACCEL_CHECK(optimizer_ != nullptr, op,
                "\"{}\" holds optimizer state but the Trainer has no optimizer to load it into",
                path);
  }
  if (load_scheduler && has_scheduler) {
    ACCEL_CHECK(scheduler_ != nullptr, op,
                "\"{}\" holds scheduler state but the Trainer has no scheduler to load it into "
                "(create it by training with create_scheduler_fn, or pass load_scheduler = false)",
                path);
  }
  ACCEL_CHECK(!load_scheduler || !scheduler_ || has_scheduler, op,
              "\"{}\" holds no scheduler state; pass load_scheduler = false", path);
  std::optional<optim::LRSchedulerState> scheduler_state;
  if (load_scheduler && has_scheduler) {
    scheduler_state =
        optim::lr_scheduler_state_from_json(read_text(op, path + "/" + kSchedulerFile));
  }
  model_->load(path + "/" + kModelFile);
  if (load_optimizer) optim::load(*optimizer_, path + "/" + kOptimizerFile);
  if (scheduler_state) scheduler_->load_state_dict(*scheduler_state);
  return info.at("extras").dump();
}

void Trainer::save_training_state(const std::string& dir, const std::string& extras_json) const {
  const char* op = "Trainer::save_training_state";
  ACCEL_CHECK(run_config_.has_value() && train_dl_, op,
              "a training state can only be saved during or after train()");
  io::AtomicDirectoryWriter writer(dir);
  write_checkpoint_files([&](const std::string& name) { return writer.file(name); }, extras_json,
                         /*save_optimizer=*/true, /*save_scheduler=*/true);

  io::NamedTensors gradients;
  const auto parameters = model_->named_parameters();
  for (const auto& [name, param] : parameters.items()) {
    if (param.grad().defined()) gradients.emplace_back(name, param.grad());
  }
  if (!gradients.empty()) io::save_safetensors(writer.file(kGradientsFile), gradients);

  // Mid-epoch, the next batch of this epoch; otherwise the start of the next epoch.
  const bool mid_epoch = !train_epoch_finished_ && epoch_step_ > 0;
  const int64_t epoch = train_epoch_finished_ ? epoch_index_ + 1 : epoch_index_;
  RunHistoryState history = run_history_->state();
  if (train_epoch_finished_) history.current_epoch += 1;
  json metrics = json::array();
  for (const auto& [name, values] : history.metrics) metrics.push_back({name, values});
  const GeneratorState rng = default_generator().get_state();
  json state = {{"epoch_index", epoch},
                {"epoch_step", mid_epoch ? epoch_step_ : 0},
                {"global_step", global_step_},
                {"rng", {{"seed", rng.seed}, {"offset", rng.offset}}},
                {"run_history", {{"current_epoch", history.current_epoch}, {"metrics", metrics}}},
                {"train_loss",
                 {{"weighted_sum", mid_epoch ? train_loss_.weighted_sum : 0.0},
                  {"count", mid_epoch ? train_loss_.count : 0.0}}},
                {"has_gradients", !gradients.empty()}};
  if (const GradScaler* scaler = accelerator_->grad_scaler()) {
    state["grad_scaler"] = {{"scale", scaler->state().scale},
                            {"growth_tracker", scaler->state().growth_tracker}};
  }
  write_text(writer.file(kTrainerStateFile), state.dump(2));
  writer.commit();
}

void Trainer::load_training_state(const std::string& dir) {
  const char* op = "Trainer::load_training_state";
  ACCEL_CHECK(run_config_.has_value() && train_dl_, op,
              "a training state is loaded by train(.resume_from = \"{}\"), which sets up the run "
              "first",
              dir);
  const json info = read_checkpoint_info(op, dir);
  const std::string state_path = dir + "/" + kTrainerStateFile;
  ACCEL_CHECK(std::filesystem::exists(state_path), op,
              "\"{}\" is a checkpoint, not a training state (no {})", dir, kTrainerStateFile);
  const json state = parse_json(op, state_path);
  const int64_t epoch = field<int64_t>(op, state, "epoch_index", state_path);
  const int64_t step = field<int64_t>(op, state, "epoch_step", state_path);
  ACCEL_CHECK(epoch >= 0 && step >= 0 && step <= train_dl_->size(), op,
              "\"{}\": position epoch {} step {} does not fit this run ({} batches per epoch)",
              state_path, epoch, step, train_dl_->size());
  const json& rng = state.at("rng");
  const json& history_json = state.at("run_history");
  RunHistoryState history;
  history.current_epoch = field<int64_t>(op, history_json, "current_epoch", state_path);
  for (const json& metric : history_json.at("metrics")) {
    history.metrics.emplace_back(metric.at(0).get<std::string>(),
                                 metric.at(1).get<std::vector<double>>());
  }
  const bool has_gradients = field<bool>(op, state, "has_gradients", state_path);
  io::SafetensorsContents gradients;
  if (has_gradients) gradients = io::load_safetensors(dir + "/" + kGradientsFile);
  if (state.contains("grad_scaler")) {
    ACCEL_CHECK(accelerator_->grad_scaler() != nullptr, op,
                "\"{}\" was saved with float16 mixed precision (loss-scaler state) but this run "
                "uses mixed precision '{}'",
                dir, to_string(accelerator_->mixed_precision()));
  }

  load_checkpoint(dir, /*load_optimizer=*/true,
                  /*load_scheduler=*/info.value("has_scheduler", false));
  const auto named = model_->named_parameters();
  for (auto& [name, grad] : gradients.tensors) {
    const Tensor* param = named.find(name);
    ACCEL_CHECK(param != nullptr && param->sizes() == grad.sizes(), op,
                "\"{}\": gradient '{}' does not match a parameter of the model", dir, name);
    Tensor p = *param;
    p.set_grad(grad.to(p.dtype()).to(p.device()));
  }
  if (state.contains("grad_scaler")) {
    accelerator_->grad_scaler()->load_state(
        {.scale = field<double>(op, state["grad_scaler"], "scale", state_path),
         .growth_tracker = field<int64_t>(op, state["grad_scaler"], "growth_tracker", state_path)});
  }
  default_generator().set_state({.seed = field<uint64_t>(op, rng, "seed", state_path),
                                 .offset = field<uint64_t>(op, rng, "offset", state_path)});
  run_history_->load_state(history);
  global_step_ = field<int64_t>(op, state, "global_step", state_path);
  epoch_index_ = epoch;
  epoch_step_ = step;
  train_loss_.weighted_sum = field<double>(op, state.at("train_loss"), "weighted_sum", state_path);
  train_loss_.count = field<double>(op, state.at("train_loss"), "count", state_path);
  resuming_mid_epoch_ = step > 0;
  if (resuming_mid_epoch_) train_dl_->load_state_dict({.epoch = epoch, .batches_consumed = step});
}

}  // namespace accel
