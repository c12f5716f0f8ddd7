// Trainer checkpoints and training states. A checkpoint is a directory: model.safetensors
// (PyTorch-loadable, the model's state_dict names), optimizer.safetensors, scheduler.json and
// checkpoint.json (what is present, plus the user's extras). A training state adds
// trainer_state.json (position, RNG, run history, loss tracker, loss scaler) and
// gradients.safetensors when gradients are pending. Both are written atomically.
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "accel/base/error.h"
#include "accel/core/factories.h"
#include "accel/core/io/atomic_directory.h"
#include "accel/core/io/atomic_file.h"
#include "accel/core/io/bounded_json.h"
#include "accel/core/io/in_file.h"
#include "accel/core/io/json_field.h"
#include "accel/core/io/message_name.h"
#include "accel/core/io/read_file.h"
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
// Bounds on the JSON files: a run history of millions of values fits, and the formats nest a
// few levels (more in the user's extras and SequentialLR's children).
constexpr io::JsonBounds kJsonFileBounds = {.max_bytes = uint64_t{64} << 20, .max_depth = 128};
// The largest epoch or step count a training state may hold: far beyond any run, so counting on
// from it cannot overflow.
constexpr int64_t kMaxCount = int64_t{1} << 53;

void write_text(const std::string& path, const std::string& text) {
  io::AtomicFileWriter writer(path);
  writer.write(text.data(), text.size());
  writer.commit();
}

std::string quoted(const std::string& path) { return fmt::format("\"{}\"", path); }

json parse_extras(const char* op, const std::string& extras_json) {
  try {
    return json::parse(extras_json);
  } catch (const json::exception& e) {
    fail(op, "the extras must be valid JSON, got '{}': {}", extras_json, e.what());
  }
}

// What a checkpoint.json says.
struct CheckpointInfo {
  bool has_optimizer;
  bool has_scheduler;
  json extras;
};

// The directory's checkpoint.json, checked to be one of ours.
CheckpointInfo read_checkpoint_info(const char* op, const std::string& dir) {
  ACCEL_CHECK(std::filesystem::is_directory(dir), op, "\"{}\" is not a checkpoint directory", dir);
  const std::string path = dir + "/" + kCheckpointFile;
  ACCEL_CHECK(std::filesystem::exists(path), op,
              "\"{}\" has no {}: not a checkpoint written by accel", dir, kCheckpointFile);
  const json document = io::read_bounded_json(path, kJsonFileBounds, op);
  const io::JsonField info(document, op, quoted(path));
  ACCEL_CHECK(info.at("format").string() == "accel-checkpoint" &&
                  info.at("version").integer() == kFormatVersion,
              op, "\"{}\" is not an accel checkpoint of format version {}", path, kFormatVersion);
  return {.has_optimizer = info.at("has_optimizer").boolean(),
          .has_scheduler = info.at("has_scheduler").boolean(),
          .extras = info.at("extras").value()};
}

// Where one process stands: its random state and its share of the epoch's loss so far.
struct ProcessPosition {
  GeneratorState rng;
  double train_loss_weighted_sum;
  double train_loss_count;
};

json position_json(const ProcessPosition& position) {
  return {{"rng", {{"seed", position.rng.seed}, {"offset", position.rng.offset}}},
          {"train_loss",
           {{"weighted_sum", io::json_number(position.train_loss_weighted_sum)},
            {"count", position.train_loss_count}}}};
}

// Every process's position, in rank order, on every process.
std::vector<ProcessPosition> gather_positions(const Accelerator& accelerator,
                                              const ProcessPosition& mine) {
  if (!accelerator.is_distributed()) return {mine};
  const Tensor rng = accelerator.gather(
      tensor({static_cast<int64_t>(mine.rng.seed), static_cast<int64_t>(mine.rng.offset)}));
  const Tensor loss =
      accelerator.gather(tensor({mine.train_loss_weighted_sum, mine.train_loss_count}));
  const auto* rng_values = rng.data_ptr<int64_t>();
  const auto* loss_values = loss.data_ptr<double>();
  std::vector<ProcessPosition> positions;
  for (int r = 0; r < accelerator.num_processes(); ++r) {
    positions.push_back({.rng = {.seed = static_cast<uint64_t>(rng_values[2 * r]),
                                 .offset = static_cast<uint64_t>(rng_values[2 * r + 1])},
                         .train_loss_weighted_sum = loss_values[2 * r],
                         .train_loss_count = loss_values[2 * r + 1]});
  }
  return positions;
}

// Runs `write` on rank 0 while the other processes wait; its failure becomes an error on every
// process (rank 0 rethrows its own).
void write_on_main_process(const Accelerator& accelerator, const char* op,
                           const std::function<void()>& write) {
  if (!accelerator.is_distributed()) return write();
  std::exception_ptr failure;
  if (accelerator.is_main_process()) {
    try {
      write();
    } catch (...) {
      failure = std::current_exception();
    }
  }
  const Tensor failed =
      accelerator.reduce(tensor({failure ? int64_t{1} : int64_t{0}}), distributed::ReduceOp::Max);
  if (failure) std::rethrow_exception(failure);
  ACCEL_CHECK(failed.item<int64_t>() == 0, op,
              "rank 0 failed to write the files (its error says why); nothing was saved");
}

// What a trainer_state.json says, every field checked before any of it is applied.
struct TrainingState {
  int64_t epoch_index;
  int64_t epoch_step;
  int64_t global_step;
  std::vector<ProcessPosition> processes;  // one per process of the run that saved it
  RunHistoryState history;
  bool has_gradients;
  bool evaluation_pending;  // saved after the epoch's training, before its evaluation and end
  std::optional<GradScalerState> grad_scaler;
  std::string callbacks;  // the callbacks' states: a JSON object's text, empty when absent
};

RunHistoryState read_run_history(const io::JsonField& in) {
  RunHistoryState history;
  history.current_epoch = in.at("current_epoch").integer(1, kMaxCount);
  const io::JsonField metrics = in.at("metrics");
  std::set<std::string> names;
  for (size_t i = 0; i < metrics.size(); ++i) {
    const io::JsonField metric = metrics[i];
    metric.require_size(2);
    std::string name = metric[0].string();
    if (!names.insert(name).second) {
      metric[0].fail(fmt::format("metric '{}' appears twice", io::shortened_for_message(name)));
    }
    history.metrics.emplace_back(std::move(name), metric[1].numbers());
  }
  return history;
}

GradScalerState read_grad_scaler(const io::JsonField& in) {
  const io::JsonField scale = in.at("scale");
  const double value = scale.number();
  if (!(value > 0 && std::isfinite(value))) {
    scale.fail(fmt::format("expected a positive finite number, found {}", value));
  }
  // The step counts came later than the scale: a state without them starts counting afresh.
  const int64_t steps = in.contains("steps") ? in.at("steps").integer(0, kMaxCount) : 0;
  return {.scale = value,
          .growth_tracker = in.at("growth_tracker").integer(0, kMaxCount),
          .steps = steps,
          .skipped_in_a_row =
              in.contains("skipped_in_a_row") ? in.at("skipped_in_a_row").integer(0, steps) : 0};
}

ProcessPosition read_position(const io::JsonField& in) {
  const io::JsonField rng = in.at("rng");
  const io::JsonField train_loss = in.at("train_loss");
  const double count = train_loss.at("count").number();
  if (!(count >= 0 && std::isfinite(count))) {
    train_loss.at("count").fail(fmt::format("expected a finite number >= 0, found {}", count));
  }
  return {.rng = {.seed = rng.at("seed").unsigned_integer(),
                  .offset = rng.at("offset").unsigned_integer()},
          .train_loss_weighted_sum = train_loss.at("weighted_sum").number(),
          .train_loss_count = count};
}

// The callbacks' states as text, checked to be an object of objects; each callback checks its
// own fields when it loads them.
std::string read_callback_states(const io::JsonField& states) {
  for (const std::string& name : states.keys()) (void)states.at(name).keys();
  return states.value().dump();
}

TrainingState read_training_state(const char* op, const std::string& path,
                                  int64_t batches_per_epoch) {
  const json document = io::read_bounded_json(path, kJsonFileBounds, op);
  const io::JsonField state(document, op, quoted(path));
  std::vector<ProcessPosition> processes;
  if (state.contains("processes")) {
    const io::JsonField list = state.at("processes");
    for (size_t i = 0; i < list.size(); ++i) processes.push_back(read_position(list[i]));
  } else {
    processes.push_back(read_position(state));
  }
  return {.epoch_index = state.at("epoch_index").integer(0, kMaxCount),
          .epoch_step = state.at("epoch_step").integer(0, batches_per_epoch),
          .global_step = state.at("global_step").integer(0, kMaxCount),
          .processes = std::move(processes),
          .history = read_run_history(state.at("run_history")),
          .has_gradients = state.at("has_gradients").boolean(),
          .evaluation_pending =
              state.contains("evaluation_pending") && state.at("evaluation_pending").boolean(),
          .grad_scaler = state.contains("grad_scaler")
                             ? std::optional(read_grad_scaler(state.at("grad_scaler")))
                             : std::nullopt,
          .callbacks = state.contains("callbacks") ? read_callback_states(state.at("callbacks"))
                                                   : std::string()};
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
  write_on_main_process(*accelerator_, "Trainer::save_checkpoint", [&] {
    io::AtomicDirectoryWriter writer(path);
    write_checkpoint_files([&](const std::string& name) { return writer.file(name); }, extras_json,
                           save_optimizer, save_scheduler);
    writer.commit();
  });
}

std::string Trainer::load_checkpoint(const std::string& path, bool load_optimizer,
                                     bool load_scheduler) {
  const char* op = "Trainer::load_checkpoint";
  const CheckpointInfo info = read_checkpoint_info(op, path);
  // Every file is read and checked against this Trainer before any is applied: a bad one
  // leaves the model, optimizer and scheduler as they were. The model first: weights that do
  // not fit it matter more than which optional states the file holds.
  const std::string model_path = path + "/" + kModelFile;
  const nn::OrderedDict<Tensor> model_state = nn::Module::read_state_dict(model_path);
  in_file(op, model_path, [&] { model_->check_state_dict(model_state); });
  if (load_optimizer) {
    ACCEL_CHECK(info.has_optimizer, op,
                "\"{}\" holds no optimizer state; pass load_optimizer = false to load the weights "
                "only",
                path);
    ACCEL_CHECK(optimizer_ != nullptr, op,
                "\"{}\" holds optimizer state but the Trainer has no optimizer to load it into",
                path);
  }
  if (load_scheduler && info.has_scheduler) {
    ACCEL_CHECK(scheduler_ != nullptr, op,
                "\"{}\" holds scheduler state but the Trainer has no scheduler to load it into "
                "(a Trainer has one only once train() has created it with create_scheduler_fn; "
                "to load weights for evaluation or a new run, pass load_scheduler = false)",
                path);
  }
  ACCEL_CHECK(!load_scheduler || !scheduler_ || info.has_scheduler, op,
              "\"{}\" holds no scheduler state; pass load_scheduler = false", path);
  const std::string optimizer_path = path + "/" + kOptimizerFile;
  std::optional<optim::OptimizerStateDict> optimizer_state;
  if (load_optimizer) {
    optimizer_state = optim::load_optimizer_state(optimizer_path);
    optim::check_optimizer_state(*optimizer_, *optimizer_state, optimizer_path);
  }
  const std::string scheduler_path = path + "/" + kSchedulerFile;
  std::optional<optim::LRSchedulerState> scheduler_state;
  if (load_scheduler && info.has_scheduler) {
    scheduler_state = optim::lr_scheduler_state_from_json(
        io::read_file(scheduler_path, op, kJsonFileBounds.max_bytes), quoted(scheduler_path));
    in_file(op, scheduler_path, [&] { scheduler_->check_state(*scheduler_state); });
  }
  model_->load_state_dict(model_state);
  if (optimizer_state) optimizer_->load_state_dict(*optimizer_state);
  if (scheduler_state) scheduler_->load_state_dict(*scheduler_state);
  return info.extras.dump();
}

void Trainer::save_training_state(const std::string& dir, const std::string& extras_json) const {
  const char* op = "Trainer::save_training_state";
  ACCEL_CHECK(run_config_.has_value() && train_dl_, op,
              "a training state can only be saved during or after train()");
  ACCEL_CHECK(!inside_train_step_, op,
              "called inside a train step (after its batch was taken, before the step is "
              "counted), where no run can resume exactly; save from on_train_step_start (as "
              "SaveTrainingState does), after a train epoch, or after train()");
  // Mid-epoch, the next batch of this epoch; after its training, before its end, the epoch's
  // evaluation; otherwise the start of the next epoch.
  const bool mid_epoch = !train_epoch_finished_ && epoch_step_ > 0;
  const bool evaluation_pending = train_epoch_finished_ && !epoch_end_reached_;
  const bool epoch_done = train_epoch_finished_ && epoch_end_reached_;
  const int64_t epoch = epoch_done ? epoch_index_ + 1 : epoch_index_;
  const std::string callback_states = callback_states_json();
  const std::vector<ProcessPosition> processes = gather_positions(
      *accelerator_, {.rng = default_generator().get_state(),
                      .train_loss_weighted_sum = mid_epoch ? train_loss_.weighted_sum : 0.0,
                      .train_loss_count = mid_epoch ? train_loss_.count : 0.0});

  write_on_main_process(*accelerator_, op, [&] {
    io::AtomicDirectoryWriter writer(dir);
    write_checkpoint_files([&](const std::string& name) { return writer.file(name); }, extras_json,
                           /*save_optimizer=*/true, /*save_scheduler=*/true);

    io::NamedTensors gradients;
    const auto parameters = model_->named_parameters();
    for (const auto& [name, param] : parameters.items()) {
      if (param.grad().defined()) gradients.emplace_back(name, param.grad());
    }
    if (!gradients.empty()) io::save_safetensors(writer.file(kGradientsFile), gradients);

    RunHistoryState history = run_history_->state();
    if (epoch_done) history.current_epoch += 1;
    json metrics = json::array();
    for (const auto& [name, values] : history.metrics) {
      json numbers = json::array();
      for (double value : values) numbers.push_back(io::json_number(value));
      metrics.push_back({name, numbers});
    }
    json state = {{"epoch_index", epoch},
                  {"epoch_step", mid_epoch ? epoch_step_ : 0},
                  {"global_step", global_step_},
                  {"run_history", {{"current_epoch", history.current_epoch}, {"metrics", metrics}}},
                  {"has_gradients", !gradients.empty()}};
    if (evaluation_pending) state["evaluation_pending"] = true;
    // Rank 0's position at the top level (all a one-process state has), every process's in
    // "processes" when there are several.
    state.update(position_json(processes.front()));
    if (processes.size() > 1) {
      state["processes"] = json::array();
      for (const ProcessPosition& position : processes) {
        state["processes"].push_back(position_json(position));
      }
    }
    if (const GradScaler* scaler = accelerator_->grad_scaler()) {
      const GradScalerState& scaling = scaler->state();
      state["grad_scaler"] = {{"scale", scaling.scale},
                              {"growth_tracker", scaling.growth_tracker},
                              {"steps", scaling.steps},
                              {"skipped_in_a_row", scaling.skipped_in_a_row}};
    }
    const json callbacks = json::parse(callback_states);
    if (!callbacks.empty()) state["callbacks"] = callbacks;
    write_text(writer.file(kTrainerStateFile), state.dump(2));
    writer.commit();
  });
}

std::string Trainer::callback_states_json() const {
  json states = json::object();
  for (const auto& callback : callback_handler_.callbacks()) {
    const char* name = callback->state_name();
    if (name == nullptr) continue;
    json state = json::parse(callback->state_json(), nullptr, /*allow_exceptions=*/false);
    ACCEL_CHECK(state.is_object(), "Trainer::save_training_state",
                "callback {}'s state_json() must return a JSON object, got: {}", name,
                io::shortened_for_message(callback->state_json()));
    states[name] = std::move(state);
  }
  return states.dump();
}

void Trainer::restore_callback_states() {
  if (resumed_callback_states_.empty()) return;
  const json states = json::parse(resumed_callback_states_);
  const io::JsonField field(states, "Trainer::train",
                            fmt::format("\"{}\", the callbacks' states", resumed_state_path_));
  for (const auto& callback : callback_handler_.callbacks()) {
    const char* name = callback->state_name();
    if (name != nullptr && field.contains(name)) callback->load_state(field.at(name));
  }
  resumed_callback_states_.clear();
}

void Trainer::load_training_state(const std::string& dir) {
  const char* op = "Trainer::load_training_state";
  ACCEL_CHECK(run_config_.has_value() && train_dl_, op,
              "a training state is loaded by train(.resume_from = \"{}\"), which sets up the run "
              "first",
              dir);
  const CheckpointInfo info = read_checkpoint_info(op, dir);
  const std::string state_path = dir + "/" + kTrainerStateFile;
  ACCEL_CHECK(std::filesystem::exists(state_path), op,
              "\"{}\" is a checkpoint, not a training state (no {})", dir, kTrainerStateFile);
  const TrainingState state = read_training_state(op, state_path, train_dl_->size());
  ACCEL_CHECK(static_cast<int>(state.processes.size()) == accelerator_->num_processes(), op,
              "\"{}\" was saved by a run of {} process(es) but this run has {}: each process "
              "resumes its own position, so resume with {}",
              dir, state.processes.size(), accelerator_->num_processes(), state.processes.size());
  const ProcessPosition& mine = state.processes[static_cast<size_t>(accelerator_->process_index())];
  io::SafetensorsContents gradients;
  if (state.has_gradients) gradients = io::load_safetensors(dir + "/" + kGradientsFile);
  if (state.grad_scaler) {
    ACCEL_CHECK(accelerator_->grad_scaler() != nullptr, op,
                "\"{}\" was saved with float16 mixed precision (loss-scaler state) but this run "
                "uses mixed precision '{}'",
                dir, to_string(accelerator_->mixed_precision()));
  }

  const auto named = model_->named_parameters();
  for (const auto& [name, grad] : gradients.tensors) {
    const Tensor* param = named.find(name);
    ACCEL_CHECK(param != nullptr && param->sizes() == grad.sizes(), op,
                "\"{}\": gradient '{}' does not match a parameter of the model", dir,
                io::shortened_for_message(name));
  }

  // Everything above only read and checked; from here on the state is applied.
  load_checkpoint(dir, /*load_optimizer=*/true, /*load_scheduler=*/info.has_scheduler);
  for (auto& [name, grad] : gradients.tensors) {
    Tensor param = *named.find(name);
    param.set_grad(grad.to(param.dtype()).to(param.device()));
  }
  if (state.grad_scaler) accelerator_->grad_scaler()->load_state(*state.grad_scaler);
  default_generator().set_state(mine.rng);
  run_history_->load_state(state.history);
  global_step_ = state.global_step;
  epoch_index_ = state.epoch_index;
  epoch_step_ = state.epoch_step;
  train_loss_.weighted_sum = mine.train_loss_weighted_sum;
  train_loss_.count = mine.train_loss_count;
  resuming_mid_epoch_ = epoch_step_ > 0;
  resume_at_evaluation_ = state.evaluation_pending;
  resumed_callback_states_ = state.callbacks;
  resumed_state_path_ = state_path;
  if (resuming_mid_epoch_) {
    train_dl_->load_state_dict({.epoch = epoch_index_, .batches_consumed = epoch_step_});
  }
  if (epoch_index_ >= run_config_->num_epochs) {
    accelerator_->print(
        "Resumed from {}: its {} epoch{} are done and this run asks for no more (num_epochs {}): "
        "nothing to train",
        dir, epoch_index_, epoch_index_ == 1 ? "" : "s", run_config_->num_epochs);
  } else if (resume_at_evaluation_) {
    accelerator_->print(
        "Resumed from {} at epoch {}, after its training, before its evaluation ({} optimizer "
        "steps so far)",
        dir, epoch_index_ + 1, global_step_);
  } else {
    accelerator_->print(
        "Resumed from {} at epoch {}, after {} of its {} batches ({} optimizer "
        "steps so far)",
        dir, epoch_index_ + 1, epoch_step_, train_dl_->size(), global_step_);
  }
}

}  // namespace accel
