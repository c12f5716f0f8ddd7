// Trainer: setup of a run and the training and evaluation loops, in the order they run
// (docs/trainer.md). Checkpoints and training states are in trainer_state.cpp.
#include "accel/trainer/trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <thread>

#include "accel/base/error.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/cuda.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/random.h"
#include "accel/trainer/callbacks/limit_batches.h"

namespace accel {
namespace {

// PT_ACC_LIMIT_BATCHES (the Python original's) or ACCEL_LIMIT_BATCHES: a positive count.
std::optional<int64_t> limit_batches_from_environment() {
  for (const char* name : {"ACCEL_LIMIT_BATCHES", "PT_ACC_LIMIT_BATCHES"}) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    char* end = nullptr;
    const long long n = std::strtoll(value, &end, 10);
    ACCEL_CHECK(*end == '\0' && n > 0, "Trainer", "{} must be a positive integer, got '{}'", name,
                value);
    return n;
  }
  return std::nullopt;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

Trainer::Trainer(std::shared_ptr<nn::Module> model, LossFunction loss_func,
                 std::shared_ptr<optim::Optimizer> optimizer,
                 std::vector<std::shared_ptr<Callback>> callbacks,
                 std::shared_ptr<RunHistory> run_history, std::shared_ptr<Accelerator> accelerator)
    : model_(std::move(model)),
      loss_func_(std::move(loss_func)),
      optimizer_(std::move(optimizer)),
      run_history_(std::move(run_history)),
      accelerator_(accelerator ? std::move(accelerator) : std::make_shared<Accelerator>()) {
  ACCEL_CHECK(model_ != nullptr, "Trainer", "expected a model, got null");
  ACCEL_CHECK(run_history_ != nullptr, "Trainer", "expected a run history, got null");
  if (auto limit = limit_batches_from_environment()) {
    callbacks.insert(callbacks.begin(), std::make_shared<LimitBatches>(*limit));
  }
  callback_handler_.add_callbacks(callbacks);
  callback_handler_.call_event(&Callback::on_init_end, *this);
}

const TrainerRunConfig& Trainer::run_config() const {
  ACCEL_CHECK(run_config_.has_value(), "Trainer::run_config",
              "there is no run configuration before train() or evaluate() is called");
  return *run_config_;
}

// ---- setup ----

void Trainer::train(const TrainArgs& args) {
  const char* op = "Trainer::train";
  ACCEL_CHECK(args.train_dataset != nullptr, op, "train_dataset is required");
  ACCEL_CHECK(args.num_epochs > 0, op, "num_epochs must be positive, got {}", args.num_epochs);
  ACCEL_CHECK(args.per_device_batch_size > 0, op, "per_device_batch_size must be positive, got {}",
              args.per_device_batch_size);
  ACCEL_CHECK(args.gradient_accumulation_steps > 0, op,
              "gradient_accumulation_steps must be positive, got {}",
              args.gradient_accumulation_steps);
  ACCEL_CHECK(!args.max_num_train_steps || *args.max_num_train_steps > 0, op,
              "max_num_train_steps must be positive, got {}", args.max_num_train_steps.value_or(0));
  ACCEL_CHECK(!args.gradient_clip_value || *args.gradient_clip_value > 0, op,
              "gradient_clip_value must be positive, got {}", args.gradient_clip_value.value_or(0));
  ACCEL_CHECK(!args.gradient_clip_norm || *args.gradient_clip_norm > 0, op,
              "gradient_clip_norm must be positive, got {}", args.gradient_clip_norm.value_or(0));
  ACCEL_CHECK(optimizer_ != nullptr, op, "training needs an optimizer; the Trainer has none");

  train_dataset_ = args.train_dataset;
  eval_dataset_ = args.eval_dataset;
  collate_fn_ = args.collate_fn;
  create_scheduler_fn_ = args.create_scheduler_fn;
  if (args.reset_run_history && !args.resume_from) run_history_->reset();

  train_dl_ = create_train_dataloader(args.per_device_batch_size,
                                      args.train_dataloader_kwargs.value_or(DataLoaderKwargs{}));
  ACCEL_CHECK(train_dl_ != nullptr, op, "create_train_dataloader returned null");
  eval_dl_ = nullptr;
  if (eval_dataset_) {
    eval_dl_ = create_eval_dataloader(args.per_device_batch_size,
                                      args.eval_dataloader_kwargs.value_or(DataLoaderKwargs{}));
    ACCEL_CHECK(eval_dl_ != nullptr, op, "create_eval_dataloader returned null");
  }
  accelerator_->prepare_model(*model_);
  manual_seed(args.seed + static_cast<uint64_t>(accelerator_->process_index()));

  run_config_ = make_run_config(args);
  check_eval_batch_size();
  if (create_scheduler_fn_) scheduler_ = create_scheduler();  // no factory, no hook call

  global_step_ = 0;
  epoch_index_ = 0;
  epoch_step_ = 0;
  resuming_mid_epoch_ = false;
  resume_at_evaluation_ = false;
  train_epoch_finished_ = false;
  epoch_end_reached_ = false;
  resumed_callback_states_.clear();
  train_loss_.reset();
  if (args.resume_from) load_training_state(*args.resume_from);
  run_training();
}

void Trainer::evaluate(const EvalArgs& args) {
  const char* op = "Trainer::evaluate";
  ACCEL_CHECK(args.per_device_batch_size > 0, op, "per_device_batch_size must be positive, got {}",
              args.per_device_batch_size);
  if (args.dataset) eval_dataset_ = args.dataset;
  ACCEL_CHECK(eval_dataset_ != nullptr, op,
              "no dataset to evaluate: pass EvalArgs::dataset (or train with an eval_dataset)");
  collate_fn_ = args.collate_fn;
  run_history_->reset();
  train_dl_ = nullptr;
  eval_dl_ = create_eval_dataloader(args.per_device_batch_size,
                                    args.dataloader_kwargs.value_or(DataLoaderKwargs{}));
  ACCEL_CHECK(eval_dl_ != nullptr, op, "create_eval_dataloader returned null");
  accelerator_->prepare_model(*model_);
  run_config_ = make_run_config({.train_dataset = nullptr,
                                 .num_epochs = 1,
                                 .per_device_batch_size = args.per_device_batch_size,
                                 .eval_dataloader_kwargs = args.dataloader_kwargs});
  check_eval_batch_size();

  evaluation_run_start();
  callback_handler_.call_event(&Callback::on_evaluation_run_start, *this);
  try {
    eval_epoch();
  } catch (const StopTrainingError& e) {
    accelerator_->print("{}", e.what());
    callback_handler_.call_event(&Callback::on_stop_training_error, *this);
  }
  evaluation_run_end();
  callback_handler_.call_event(&Callback::on_evaluation_run_end, *this);
}

DataLoaderKwargs Trainer::get_default_train_dl_kwargs(int64_t batch_size) const {
  const bool on_cuda = accelerator_->device().is_cuda();
  // On the CPU the cores are busy training: load in-process. On GPUs, the cores per GPU.
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const int workers = on_cuda ? std::max(cores / std::max(cuda::device_count(), 1), 1) : 0;
  return {.batch_size = batch_size,
          .shuffle = true,
          .drop_last = false,
          .num_workers = workers,
          .pin_memory = on_cuda};
}

DataLoaderKwargs Trainer::get_default_eval_dl_kwargs(int64_t batch_size) const {
  DataLoaderKwargs kwargs = get_default_train_dl_kwargs(batch_size);
  kwargs.shuffle = false;
  return kwargs;
}

std::shared_ptr<data::DataLoader> Trainer::make_dataloader(
    const data::DatasetPtr& dataset, int64_t batch_size, const DataLoaderKwargs& defaults,
    const DataLoaderKwargs& kwargs, data::DistributedSampler::Remainder remainder) const {
  ACCEL_CHECK(batch_size > 0, "Trainer", "batch_size must be positive, got {}", batch_size);
  DataLoaderKwargs merged = defaults;
  if (kwargs.sampler) merged.shuffle.reset();
  merged = merged.merged_with(kwargs);
  if (accelerator_->is_distributed() && !merged.sampler) {
    // The same epoch order on every process (the loader's seed, not the per-process one).
    merged.sampler = std::make_shared<data::DistributedSampler>(
        dataset->size(), accelerator_->num_processes(), accelerator_->process_index(),
        merged.shuffle.value_or(false), merged.seed.value_or(data::kDefaultSeed), remainder);
    merged.shuffle.reset();
  }
  data::DataLoaderOptions options = merged.to_options();
  if (collate_fn_) options.collate_fn(collate_fn_);
  return std::make_shared<data::DataLoader>(dataset, std::move(options));
}

std::shared_ptr<data::DataLoader> Trainer::create_train_dataloader(int64_t batch_size,
                                                                   const DataLoaderKwargs& kwargs) {
  // Training: every process takes as many batches (a short share wraps around).
  return make_dataloader(train_dataset_, batch_size, get_default_train_dl_kwargs(batch_size),
                         kwargs, data::DistributedSampler::Remainder::Pad);
}

std::shared_ptr<data::DataLoader> Trainer::create_eval_dataloader(int64_t batch_size,
                                                                  const DataLoaderKwargs& kwargs) {
  // Evaluation: each sample once (gather pads when asked).
  return make_dataloader(eval_dataset_, batch_size, get_default_eval_dl_kwargs(batch_size), kwargs,
                         data::DistributedSampler::Remainder::Keep);
}

TrainerRunConfig Trainer::make_run_config(const TrainArgs& args) const {
  TrainerRunConfig config;
  const int64_t processes = accelerator_->num_processes();
  config.train_per_device_batch_size = train_dl_ ? train_dl_->batch_size() : 0;
  config.eval_per_device_batch_size =
      eval_dl_ ? eval_dl_->batch_size() : config.train_per_device_batch_size;
  config.train_dl_kwargs = args.train_dataloader_kwargs.value_or(DataLoaderKwargs{});
  config.eval_dl_kwargs = args.eval_dataloader_kwargs.value_or(DataLoaderKwargs{});
  config.gradient_accumulation_steps = args.gradient_accumulation_steps;
  config.gradient_clip_value = args.gradient_clip_value;
  config.gradient_clip_norm = args.gradient_clip_norm;
  config.train_total_batch_size =
      config.train_per_device_batch_size * processes * args.gradient_accumulation_steps;
  config.eval_total_batch_size = config.eval_per_device_batch_size * processes;
  const int64_t local_batches = train_dl_ ? train_dl_->size() : 0;
  config.num_update_steps_per_epoch = ceil_div(local_batches, args.gradient_accumulation_steps);
  config.num_local_update_steps_per_epoch = config.num_update_steps_per_epoch;
  config.num_epochs = args.num_epochs;
  config.max_num_train_steps = args.max_num_train_steps;
  if (args.max_num_train_steps && config.num_update_steps_per_epoch > 0) {
    // The smaller of max_num_train_steps and num_epochs' worth of updates.
    config.num_epochs = std::min(
        args.num_epochs, ceil_div(*args.max_num_train_steps, config.num_update_steps_per_epoch));
  }
  config.is_local_process_zero = accelerator_->is_local_main_process();
  config.is_world_process_zero = accelerator_->is_main_process();
  config.is_distributed = accelerator_->is_distributed();
  config.mixed_precision = accelerator_->mixed_precision();
  config.num_processes = accelerator_->num_processes();
  return config;
}

// Across processes only, as the original: one process simply runs a short last batch.
void Trainer::check_eval_batch_size() const {
  if (!eval_dataset_ || !run_config_->is_distributed) return;
  const int64_t total = run_config_->eval_total_batch_size;
  ACCEL_CHECK(total <= eval_dataset_->size(), "Trainer",
              "the eval batch across all processes ({}) is larger than the eval dataset ({}); "
              "lower the batch size",
              total, eval_dataset_->size());
  // Uneven shares only matter where gather must wait for every process. The eval sampler
  // deals samples out in turn, so rank 0 holds the most and the last rank the fewest.
  const int64_t samples = eval_dataset_->size();
  const int64_t processes = run_config_->num_processes;
  const int64_t batch = run_config_->eval_per_device_batch_size;
  const int64_t most = ceil_div(samples, processes);
  const int64_t fewest = samples / processes;
  if (ceil_div(most, batch) != ceil_div(fewest, batch)) {
    accelerator_->print(
        "warning: with {} eval samples over {} processes at batch {}, rank 0 runs {} eval "
        "batches but rank {} runs {}: a Trainer::gather in the extra batch would wait forever; "
        "choose another batch size if you gather",
        samples, processes, batch, ceil_div(most, batch), processes - 1, ceil_div(fewest, batch));
    return;
  }
  auto last_batch = [&](int64_t share) { return share - (ceil_div(share, batch) - 1) * batch; };
  if (last_batch(most) != last_batch(fewest)) {
    accelerator_->print(
        "warning: with {} eval samples over {} processes at batch {}, the processes' last eval "
        "batches differ in size ({} and {}): Trainer::gather needs a padding_value there",
        samples, processes, batch, last_batch(most), last_batch(fewest));
  }
}

std::shared_ptr<optim::LRScheduler> Trainer::create_scheduler() {
  if (!create_scheduler_fn_) return nullptr;
  const TrainerPlaceholderValues values{
      .num_epochs = run_config_->num_epochs,
      .num_update_steps_per_epoch = run_config_->num_update_steps_per_epoch,
      .per_process_num_update_steps_per_epoch = run_config_->num_local_update_steps_per_epoch,
      .train_dataloader_len = train_dl_ ? train_dl_->size() : 0,
      .eval_dataloader_len = eval_dl_ ? eval_dl_->size() : 0};
  return create_scheduler_fn_(optimizer_, values);
}

// ---- the training run ----

void Trainer::run_training() {
  in_training_run_ = true;
  training_run_start();
  callback_handler_.call_event(&Callback::on_training_run_start, *this);
  restore_callback_states();
  while (epoch_index_ < run_config_->num_epochs) {
    try {
      if (resume_at_evaluation_) {
        resume_at_evaluation_ = false;
        train_epoch_finished_ = true;
      } else {
        train_epoch();
      }
      if (eval_dl_) run_eval_epoch();
      epoch_end_reached_ = true;
      training_run_epoch_end();
      callback_handler_.call_event(&Callback::on_training_run_epoch_end, *this);
      run_history_->increment_epoch();
      ++epoch_index_;
      epoch_step_ = 0;
      train_loss_.reset();
      train_epoch_finished_ = false;
      epoch_end_reached_ = false;
    } catch (const StopTrainingError& e) {
      accelerator_->print("{}", e.what());
      callback_handler_.call_event(&Callback::on_stop_training_error, *this);
      break;
    }
    if (reached_max_steps()) {
      accelerator_->print("Reached max number of training steps {} in epoch {}",
                          *run_config_->max_num_train_steps, epoch_index_);
      break;
    }
  }
  training_run_end();
  callback_handler_.call_event(&Callback::on_training_run_end, *this);
  in_training_run_ = false;
}

void Trainer::train_epoch() {
  train_epoch_finished_ = false;
  epoch_end_reached_ = false;
  inside_train_step_ = false;
  train_epoch_start();
  if (!resuming_mid_epoch_) {
    train_loss_.reset();
    epoch_step_ = 0;
    train_dl_->set_epoch(epoch_index_);
  }
  resuming_mid_epoch_ = false;
  callback_handler_.call_event(&Callback::on_train_epoch_start, *this);

  const int64_t gas = run_config_->gradient_accumulation_steps;
  const int64_t num_batches = train_dl_->size();
  end_epoch_requested_ = false;
  int64_t step = epoch_step_;
  for (const data::Example& loaded : *train_dl_) {
    callback_handler_.call_event(&Callback::on_train_step_start, *this);
    inside_train_step_ = true;
    const data::Example batch = prepare_batch(loaded);
    BatchOutput output = calculate_train_batch_loss(batch);
    check_batch_output(output, "calculate_train_batch_loss");
    // The recorded loss is the batch's own, not the accumulation-scaled one.
    batch_loss_value_ = output.loss.detach().mean().item<double>();
    train_loss_.update(batch_loss_value_, output.batch_size);
    if (gas > 1) {
      if (output.num_items_in_batch && run_config_->is_distributed) {
        output.loss = output.loss * static_cast<double>(run_config_->num_processes);
      }
      output.loss = output.loss / static_cast<double>(gas);
    }
    callback_handler_.call_event(&Callback::on_train_step_end, *this, std::as_const(output), batch,
                                 step);
    const bool update = (step + 1) % gas == 0 || step + 1 == num_batches || end_epoch_requested_;
    if (update) {
      backward_step(output.loss);
    } else {
      auto no_sync = accelerator_->no_sync(*model_);
      backward_step(output.loss);
    }
    epoch_step_ = ++step;
    inside_train_step_ = false;
    if (update) {
      update_parameters();
      if (reached_max_steps()) break;
    }
    if (end_epoch_requested_) break;
  }
  end_epoch_requested_ = false;
  train_epoch_finished_ = true;
  train_epoch_end();
  record_epoch_loss("train_loss_epoch", train_loss_);
  callback_handler_.call_event(&Callback::on_train_epoch_end, *this);
}

void Trainer::update_parameters() {
  if (run_config_->gradient_clip_value) {
    accelerator_->clip_grad_value_(*optimizer_, *run_config_->gradient_clip_value);
  }
  if (run_config_->gradient_clip_norm) {
    accelerator_->clip_grad_norm_(*optimizer_, *run_config_->gradient_clip_norm);
  }
  optimizer_step();
  if (scheduler_ && !accelerator_->optimizer_step_was_skipped()) scheduler_step();
  optimizer_zero_grad();
  ++global_step_;
}

bool Trainer::reached_max_steps() const {
  return run_config_->max_num_train_steps && global_step_ >= *run_config_->max_num_train_steps;
}

void Trainer::run_eval_epoch(bool intermediate) {
  ACCEL_CHECK(eval_dl_ != nullptr, "Trainer::run_eval_epoch", "there is no eval dataset");
  const bool was_training = model_->is_training();
  const bool train_epoch_end_requested = end_epoch_requested_;
  intermediate_evaluation_ = intermediate;
  try {
    eval_epoch();
  } catch (...) {
    intermediate_evaluation_ = false;
    end_epoch_requested_ = train_epoch_end_requested;
    model_->train(was_training);
    throw;
  }
  intermediate_evaluation_ = false;
  end_epoch_requested_ = train_epoch_end_requested;
  model_->train(was_training);
}

void Trainer::eval_epoch() {
  eval_epoch_start();
  eval_loss_.reset();
  callback_handler_.call_event(&Callback::on_eval_epoch_start, *this);
  {
    auto no_sync = accelerator_->no_sync(*model_);
    NoGradGuard no_grad;
    end_epoch_requested_ = false;
    for (const data::Example& loaded : *eval_dl_) {
      callback_handler_.call_event(&Callback::on_eval_step_start, *this);
      const data::Example batch = prepare_batch(loaded);
      const BatchOutput output = calculate_eval_batch_loss(batch);
      check_batch_output(output, "calculate_eval_batch_loss");
      batch_loss_value_ = output.loss.detach().mean().item<double>();
      eval_loss_.update(batch_loss_value_, output.batch_size);
      callback_handler_.call_event(&Callback::on_eval_step_end, *this, output, batch);
      if (end_epoch_requested_) break;
    }
    end_epoch_requested_ = false;
  }
  eval_epoch_end();
  record_epoch_loss(eval_metric_name(), eval_loss_);
  callback_handler_.call_event(&Callback::on_eval_epoch_end, *this);
}

std::string Trainer::eval_metric_name() const {
  if (intermediate_evaluation_) return "intermediate_eval_loss";
  return in_training_run_ ? "eval_loss_epoch" : "evaluation_loss";
}

void Trainer::record_epoch_loss(const std::string& name, const LossTracker& tracker) {
  Tensor totals = tensor({tracker.weighted_sum, tracker.count});
  totals = accelerator_->reduce(totals);
  const double count = totals[1].item<double>();
  const double average = count > 0 ? totals[0].item<double>() / count : std::nan("");
  run_history_->update_metric(name, average);
}

data::Example Trainer::prepare_batch(const data::Example& batch) const {
  return {accelerator_->prepare_tensor(batch.data), accelerator_->prepare_tensor(batch.target)};
}

void Trainer::check_batch_output(const BatchOutput& output, const char* hook) {
  ACCEL_CHECK(output.loss.defined(), "Trainer",
              "{} returned no loss (BatchOutput::loss is undefined)", hook);
  ACCEL_CHECK(output.loss.numel() == 1, "Trainer",
              "{} must return a scalar loss, got one of shape {}", hook, output.loss.sizes());
  ACCEL_CHECK(output.batch_size > 0, "Trainer", "{} returned batch_size {} (expected > 0)", hook,
              output.batch_size);
}

// ---- default hooks ----

void Trainer::train_epoch_start() { model_->train(); }

BatchOutput Trainer::calculate_train_batch_loss(const data::Example& batch) {
  ACCEL_CHECK(loss_func_.defined(), "Trainer::calculate_train_batch_loss",
              "the Trainer has no loss function; pass one or override this hook");
  Tensor outputs;
  Tensor loss;
  {
    auto autocast = accelerator_->autocast();
    outputs = model_->forward(batch.data);
    loss = loss_func_(outputs, batch.target);
  }
  return {.loss = loss, .model_outputs = outputs, .batch_size = batch.target.size(0)};
}

void Trainer::backward_step(const Tensor& loss) { accelerator_->backward(loss); }

void Trainer::optimizer_step() { accelerator_->optimizer_step(*optimizer_); }

void Trainer::scheduler_step() {
  if (scheduler_) scheduler_->step();
}

void Trainer::optimizer_zero_grad() { optimizer_->zero_grad(); }

void Trainer::train_epoch_end() {}

void Trainer::eval_epoch_start() { model_->eval(); }

BatchOutput Trainer::calculate_eval_batch_loss(const data::Example& batch) {
  ACCEL_CHECK(loss_func_.defined(), "Trainer::calculate_eval_batch_loss",
              "the Trainer has no loss function; pass one or override this hook");
  NoGradGuard no_grad;
  auto autocast = accelerator_->autocast();
  Tensor outputs = model_->forward(batch.data);
  Tensor loss = loss_func_(outputs, batch.target);
  return {.loss = loss, .model_outputs = outputs, .batch_size = batch.target.size(0)};
}

void Trainer::eval_epoch_end() {}

Tensor Trainer::gather(const Tensor& tensor, std::optional<double> padding_value) const {
  if (!padding_value || !accelerator_->is_distributed()) return accelerator_->gather(tensor);
  // Pad to the longest, gather, then keep each process's own rows only.
  const Tensor rows = accelerator_->gather(full({1}, tensor.size(0), kInt64));
  const Tensor padded =
      accelerator_->gather(accelerator_->pad_across_processes(tensor, 0, *padding_value));
  const int64_t longest = padded.size(0) / accelerator_->num_processes();
  std::vector<Tensor> parts;
  for (int64_t r = 0; r < accelerator_->num_processes(); ++r) {
    parts.push_back(padded.slice(0, r * longest, r * longest + rows[r].item<int64_t>()));
  }
  return cat(parts, 0);
}

}  // namespace accel
