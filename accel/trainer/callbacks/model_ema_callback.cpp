// ModelEmaCallback: the average is folded at the first event after each update (a step-end
// event sees the updates before its batch; the epoch end sees the epoch's last one), and lent to
// the model through ModelEma::Swap to evaluate and save it.
#include "accel/trainer/callbacks/model_ema_callback.h"

#include "accel/trainer/trainer.h"

namespace accel {
namespace {

// Records metrics under the average's prefix and marks its evaluation as running, for a scope.
class EmaEvaluationScope {
 public:
  EmaEvaluationScope(RunHistory& history, bool& evaluating)
      : history_(history), previous_prefix_(history.metric_name_prefix()), evaluating_(evaluating) {
    history_.set_metric_name_prefix(ModelEmaCallback::kMetricPrefix);
    evaluating_ = true;
  }
  ~EmaEvaluationScope() {
    history_.set_metric_name_prefix(previous_prefix_);
    evaluating_ = false;
  }
  EmaEvaluationScope(const EmaEvaluationScope&) = delete;
  EmaEvaluationScope& operator=(const EmaEvaluationScope&) = delete;

 private:
  RunHistory& history_;
  std::string previous_prefix_;
  bool& evaluating_;
};

}  // namespace

ModelEmaCallback::ModelEmaCallback(ModelEmaCallbackOptions options)
    : options_(std::move(options)),
      best_saver_(SaveBestModelOptions(options_.save_path())
                      .watch_metric(options_.watch_metric())
                      .greater_is_better(options_.greater_is_better())
                      .reset_on_train(false)
                      .save_optimizer(false)
                      .load_saved_checkpoint(false)) {}

void ModelEmaCallback::on_training_run_start(Trainer& trainer) {
  ema_.emplace(trainer.get_model(), options_.decay());
  folded_step_ = trainer.global_step();
}

void ModelEmaCallback::on_train_step_end(Trainer& trainer, const BatchOutput&, const data::Example&,
                                         int64_t) {
  update_after_optimizer_step(trainer);
}

void ModelEmaCallback::on_train_epoch_end(Trainer& trainer) {
  update_after_optimizer_step(trainer);
}

void ModelEmaCallback::update_after_optimizer_step(Trainer& trainer) {
  if (trainer.global_step() == folded_step_) return;
  folded_step_ = trainer.global_step();
  ema_->update(trainer.get_model());
}

void ModelEmaCallback::on_eval_epoch_end(Trainer& trainer) {
  // The average's own eval epoch fires this event too; intermediate evaluations are not epochs.
  if (!options_.evaluate_during_training() || !ema_ || evaluating_ ||
      trainer.is_intermediate_evaluation() || !trainer.is_training_run()) {
    return;
  }
  trainer.print("Running evaluation on EMA model");
  ModelEma::Swap swap(*ema_, trainer.get_model());
  EmaEvaluationScope scope(trainer.run_history(), evaluating_);
  trainer.run_eval_epoch();
}

void ModelEmaCallback::on_training_run_epoch_end(Trainer& trainer) {
  if (!ema_) return;
  ModelEma::Swap swap(*ema_, trainer.get_model());
  if (options_.evaluate_during_training()) {
    best_saver_.on_training_run_epoch_end(trainer);
  } else {
    trainer.save_checkpoint(options_.save_path(), "{}", /*save_optimizer=*/false);
  }
}

}  // namespace accel
