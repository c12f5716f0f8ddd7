// Trainer: pytorch-accelerated's training loop in C++. train() and evaluate() run the loop of
// docs/trainer.md; every step is a virtual hook to override, each followed by its callback
// event. Devices, processes and mixed precision go through the Accelerator only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accel/data/dataloader.h"
#include "accel/data/dataset.h"
#include "accel/data/distributed_sampler.h"
#include "accel/nn/module.h"
#include "accel/optim/optimizer.h"
#include "accel/optim/schedulers/lr_scheduler.h"
#include "accel/trainer/accelerator.h"
#include "accel/trainer/batch_output.h"
#include "accel/trainer/callback.h"
#include "accel/trainer/callback_handler.h"
#include "accel/trainer/callbacks/default_callbacks.h"
#include "accel/trainer/data_loader_kwargs.h"
#include "accel/trainer/loss_function.h"
#include "accel/trainer/run_config.h"
#include "accel/trainer/run_history.h"
#include "accel/trainer/scheduler_factory.h"

namespace accel {

using data::CollateFn;

// The arguments of train(), in the order of the Python signature; accel's additions follow
// their relatives (gradient_clip_norm after gradient_clip_value; seed last).
struct TrainArgs {
  data::DatasetPtr train_dataset = nullptr;
  int64_t num_epochs = 0;
  data::DatasetPtr eval_dataset = nullptr;
  int64_t per_device_batch_size = 8;
  std::optional<int64_t> max_num_train_steps = std::nullopt;
  int64_t gradient_accumulation_steps = 1;
  std::optional<double> gradient_clip_value = std::nullopt;
  std::optional<double> gradient_clip_norm = std::nullopt;
  SchedulerFactory create_scheduler_fn = {};
  std::optional<DataLoaderKwargs> train_dataloader_kwargs = std::nullopt;
  std::optional<DataLoaderKwargs> eval_dataloader_kwargs = std::nullopt;
  bool reset_run_history = true;
  CollateFn collate_fn = nullptr;
  // A training-state directory (save_training_state) to continue from; the run history is
  // then restored rather than reset.
  std::optional<std::string> resume_from = std::nullopt;
  uint64_t seed = 42;  // the RNG is seeded with seed + process index when training starts
};

struct EvalArgs {
  data::DatasetPtr dataset = nullptr;  // null: the eval dataset of the last train() run
  int64_t per_device_batch_size = 8;
  std::optional<DataLoaderKwargs> dataloader_kwargs = std::nullopt;
  CollateFn collate_fn = nullptr;
};

class Trainer {
 public:
  Trainer(std::shared_ptr<nn::Module> model, LossFunction loss_func,
          std::shared_ptr<optim::Optimizer> optimizer,
          std::vector<std::shared_ptr<Callback>> callbacks = get_default_callbacks(),
          std::shared_ptr<RunHistory> run_history = std::make_shared<InMemoryRunHistory>(),
          std::shared_ptr<Accelerator> accelerator = nullptr);
  virtual ~Trainer() = default;
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  void train(const TrainArgs& args);
  void evaluate(const EvalArgs& args = {});

  // ---- hooks, in the order the loop calls them (override any) ----
  virtual std::shared_ptr<data::DataLoader> create_train_dataloader(int64_t batch_size,
                                                                    const DataLoaderKwargs& kwargs);
  virtual std::shared_ptr<data::DataLoader> create_eval_dataloader(int64_t batch_size,
                                                                   const DataLoaderKwargs& kwargs);
  virtual std::shared_ptr<optim::LRScheduler> create_scheduler();
  virtual void training_run_start() {}
  virtual void train_epoch_start();
  virtual BatchOutput calculate_train_batch_loss(const data::Example& batch);
  virtual void backward_step(const Tensor& loss);
  virtual void optimizer_step();
  virtual void scheduler_step();
  virtual void optimizer_zero_grad();
  virtual void train_epoch_end();
  virtual void eval_epoch_start();
  virtual BatchOutput calculate_eval_batch_loss(const data::Example& batch);
  virtual void eval_epoch_end();
  virtual void training_run_epoch_end() {}
  virtual void training_run_end() {}
  virtual void evaluation_run_start() {}
  virtual void evaluation_run_end() {}

  // The Trainer's default loader settings (docs/trainer.md).
  virtual DataLoaderKwargs get_default_train_dl_kwargs(int64_t batch_size) const;
  virtual DataLoaderKwargs get_default_eval_dl_kwargs(int64_t batch_size) const;

  // ---- checkpoints ----
  // A checkpoint directory: model.safetensors (loadable by PyTorch with the model's names),
  // optimizer and scheduler state beside it, `extras` as JSON. Written atomically.
  void save_checkpoint(const std::string& path, const std::string& extras_json = "{}",
                       bool save_optimizer = true, bool save_scheduler = true) const;
  // Loads a checkpoint into the model (and optimizer / scheduler when asked); returns the
  // extras JSON. Missing state, or a model that does not match, is an error naming the keys.
  std::string load_checkpoint(const std::string& path, bool load_optimizer = true,
                              bool load_scheduler = true);
  // Everything needed to continue this run exactly: checkpoint plus RNG, run history, epoch
  // and position within it, data-loader and loss-scaler state, pending gradients.
  // With several processes, every process calls the savers: rank 0 writes while the others
  // wait (a training state also records each process's random state and partial epoch loss),
  // and an error in rank 0's write is raised on every process. Every process loads.
  // Resumable points: between train steps (on_train_step_start, as SaveTrainingState saves),
  // after a train epoch, or outside train(); inside a step (e.g. on_train_step_end) is an error.
  void save_training_state(const std::string& dir, const std::string& extras_json = "{}") const;
  void load_training_state(const std::string& dir);

  // ---- for hooks and callbacks ----
  // Runs one evaluation epoch now (StepBasedEvaluation's mid-epoch evaluations set
  // `intermediate`); the model's train/eval mode is restored afterwards.
  void run_eval_epoch(bool intermediate = false);
  // Ends the running train or eval epoch after the current step (LimitBatches).
  void end_epoch_early() { end_epoch_requested_ = true; }
  bool is_intermediate_evaluation() const { return intermediate_evaluation_; }
  // Optimizer updates done in the current run (resumed runs count from the start).
  int64_t global_step() const { return global_step_; }
  // The current batch's loss as the Trainer read it (once per step: on a GPU, the step's one
  // synchronization), for callbacks that look at it after the step's loss is recorded.
  double batch_loss_value() const { return batch_loss_value_; }
  // Batches of the current epoch done so far.
  int64_t epoch_step() const { return epoch_step_; }
  // Whether the update of the current step skipped the optimizer (mixed-precision overflow).
  bool optimizer_step_was_skipped() const { return accelerator_->optimizer_step_was_skipped(); }
  // Every process's `tensor` concatenated along dim 0 in rank order. Tensors whose dim 0
  // differs across processes need a `padding_value`: they are padded to the longest for the
  // transfer, and the padding is removed from the result.
  Tensor gather(const Tensor& tensor, std::optional<double> padding_value = std::nullopt) const;
  template <typename... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) const {
    accelerator_->print(format, std::forward<Args>(args)...);
  }

  nn::Module& get_model() const { return *model_; }
  const std::shared_ptr<nn::Module>& model() const { return model_; }
  const LossFunction& loss_func() const { return loss_func_; }
  const std::shared_ptr<optim::Optimizer>& optimizer() const { return optimizer_; }
  const std::shared_ptr<optim::LRScheduler>& scheduler() const { return scheduler_; }
  RunHistory& run_history() const { return *run_history_; }
  // The current run's configuration; an error before train() or evaluate().
  const TrainerRunConfig& run_config() const;
  CallbackHandler& callback_handler() { return callback_handler_; }
  Accelerator& accelerator() const { return *accelerator_; }
  Device device() const { return accelerator_->device(); }
  const data::DatasetPtr& train_dataset() const { return train_dataset_; }
  const data::DatasetPtr& eval_dataset() const { return eval_dataset_; }
  const std::shared_ptr<data::DataLoader>& train_dataloader() const { return train_dl_; }
  const std::shared_ptr<data::DataLoader>& eval_dataloader() const { return eval_dl_; }
  const CollateFn& collate_fn() const { return collate_fn_; }
  // Whether a train() run (as opposed to evaluate()) is in progress.
  bool is_training_run() const { return in_training_run_; }

 protected:
  // Batch-size-weighted mean of a loss over an epoch, reduced across processes.
  struct LossTracker {
    double weighted_sum = 0;
    double count = 0;
    void reset() { weighted_sum = count = 0; }
    void update(double loss, int64_t batch_size) {
      weighted_sum += loss * static_cast<double>(batch_size);
      count += static_cast<double>(batch_size);
    }
  };

 private:
  void train_epoch();
  void eval_epoch();
  void run_training();
  // Clipping (after unscaling), optimizer step, scheduler step, zero_grad: one update.
  void update_parameters();
  // The batch output's loss checked to be a scalar; `hook` names the hook in errors.
  static void check_batch_output(const BatchOutput& output, const char* hook);
  bool reached_max_steps() const;
  // The eval epoch's metric: intermediate_eval_loss, eval_loss_epoch or evaluation_loss.
  std::string eval_metric_name() const;
  // Adds the tracker's epoch loss to the run history under `name`.
  void record_epoch_loss(const std::string& name, const LossTracker& tracker);
  TrainerRunConfig make_run_config(const TrainArgs& args) const;
  // With several processes and no sampler given, each process loads its share through a
  // DistributedSampler: `remainder` says what happens to a dataset that does not divide evenly.
  std::shared_ptr<data::DataLoader> make_dataloader(
      const data::DatasetPtr& dataset, int64_t batch_size, const DataLoaderKwargs& defaults,
      const DataLoaderKwargs& kwargs, data::DistributedSampler::Remainder remainder) const;
  data::Example prepare_batch(const data::Example& batch) const;
  // Writes model, optimizer and scheduler files of a checkpoint or training state.
  void write_checkpoint_files(const std::function<std::string(const std::string&)>& file,
                              const std::string& extras_json, bool save_optimizer,
                              bool save_scheduler) const;
  void check_eval_batch_size() const;
  // The callback states (Callback::state_json) as one JSON object keyed by state_name.
  std::string callback_states_json() const;
  // Hands each callback its state from the training state the run resumed from, if any.
  void restore_callback_states();

  std::shared_ptr<nn::Module> model_;
  LossFunction loss_func_;
  std::shared_ptr<optim::Optimizer> optimizer_;
  std::shared_ptr<optim::LRScheduler> scheduler_;
  CallbackHandler callback_handler_;
  std::shared_ptr<RunHistory> run_history_;
  std::shared_ptr<Accelerator> accelerator_;

  data::DatasetPtr train_dataset_;
  data::DatasetPtr eval_dataset_;
  CollateFn collate_fn_;
  std::shared_ptr<data::DataLoader> train_dl_;
  std::shared_ptr<data::DataLoader> eval_dl_;
  std::optional<TrainerRunConfig> run_config_;
  SchedulerFactory create_scheduler_fn_;

  LossTracker train_loss_;
  LossTracker eval_loss_;
  double batch_loss_value_ = 0;
  int64_t global_step_ = 0;
  int64_t epoch_index_ = 0;  // epochs completed in this run
  int64_t epoch_step_ = 0;
  bool end_epoch_requested_ = false;
  bool intermediate_evaluation_ = false;
  bool in_training_run_ = false;
  bool resuming_mid_epoch_ = false;
  // Between the end of the current train epoch and the start of the next epoch. A training
  // state saved before epoch_end_reached_ (the epoch's evaluation and end still to come: from
  // on_train_epoch_end) resumes with them; one saved after it resumes at the next epoch.
  bool train_epoch_finished_ = false;
  bool epoch_end_reached_ = false;
  // Set by a resume from a state saved with the epoch's evaluation pending: the first epoch of
  // the run skips its training.
  bool resume_at_evaluation_ = false;
  // From a train step's first hook after on_train_step_start until the step is counted: no
  // position to resume from exists there (the batch is half consumed).
  bool inside_train_step_ = false;
  // From the training state this run resumed from, until restore_callback_states: the
  // callbacks' states (JSON object text, empty for none) and the state file, for messages.
  std::string resumed_callback_states_;
  std::string resumed_state_path_;
};

}  // namespace accel
