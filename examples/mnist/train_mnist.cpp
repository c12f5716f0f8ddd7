// Trains a classifier on MNIST-format data (Fashion-MNIST by default) with accel's Trainer:
// the quickstart (tests/quickstart/quickstart.cpp) grown into a command-line program. It trains
// with the default callbacks, evaluates on the test split and ends with one summary line:
//   final: test_accuracy=<x> test_loss=<x> train_samples_per_s=<x> epochs=<n>
// A run stopped by a non-finite loss exits 1 instead, neither evaluating nor saving its state.
// Ctrl-C stops it before the next step, saves the training state when --save is given and
// exits 130; a second Ctrl-C exits at once. Under `mpirun -np N` it trains data-parallel on N
// processes (each loads its share of every epoch; rank 0 prints and saves).
#include <accel/accel.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "command_line.h"
#include "loss_curve.h"
#include "models.h"

using namespace accel;

namespace {

std::shared_ptr<optim::Optimizer> make_optimizer(const Flags& flags, const nn::Module& model) {
  if (flags.optimizer == "sgd") {
    return std::make_shared<optim::SGD>(model.parameters(),
                                        optim::SGDOptions(flags.lr).momentum(0.9));
  }
  if (flags.optimizer == "adam") {
    return std::make_shared<optim::Adam>(model.parameters(), optim::AdamOptions(flags.lr));
  }
  return std::make_shared<optim::AdamW>(model.parameters(), optim::AdamWOptions(flags.lr));
}

// Accumulates accuracy in the eval hook (the loss hook's outputs are the class scores) and
// records it as the metric "accuracy" after each evaluation, over all processes' samples.
// The count of correct answers stays on the model's device until it is read.
class ClassificationTrainer : public Trainer {
 public:
  using Trainer::Trainer;
  BatchOutput calculate_eval_batch_loss(const data::Example& batch) override {
    BatchOutput output = Trainer::calculate_eval_batch_loss(batch);
    const Tensor correct = sum(eq(argmax(output.model_outputs, 1), batch.target));
    correct_ = correct_.defined() ? correct_ + correct : correct;
    seen_ += output.batch_size;
    return output;
  }
  void eval_epoch_start() override {
    Trainer::eval_epoch_start();
    correct_ = Tensor();
    seen_ = 0;
  }
  // Recorded in the run history, so the epoch lines, metrics.csv and TensorBoard show it.
  void eval_epoch_end() override {
    Trainer::eval_epoch_end();
    const int64_t correct = correct_.defined() ? correct_.item<int64_t>() : 0;
    const Tensor totals = accelerator().reduce(tensor({correct, seen_}));
    const auto* counts = totals.data_ptr<int64_t>();
    accuracy_ = counts[1] ? static_cast<double>(counts[0]) / static_cast<double>(counts[1]) : 0;
    run_history().update_metric("accuracy", accuracy_);
  }
  double accuracy() const { return accuracy_; }

 private:
  Tensor correct_;
  int64_t seen_ = 0;
  double accuracy_ = 0;
};

// Wall time and samples of the training epochs only (evaluation excluded).
class TrainThroughput : public Callback {
 public:
  void on_train_epoch_start(Trainer&) override { start_ = Clock::now(); }
  void on_train_step_end(Trainer&, const BatchOutput& output, const data::Example&,
                         int64_t) override {
    samples_ += output.batch_size;
  }
  void on_train_epoch_end(Trainer&) override {
    seconds_ += std::chrono::duration<double>(Clock::now() - start_).count();
  }
  // All processes' samples over the slowest one's time.
  double samples_per_second(const Accelerator& accelerator) const {
    const double samples = accelerator.reduce(tensor({samples_})).item<double>();
    const double seconds =
        accelerator.reduce(tensor({seconds_}), distributed::ReduceOp::Max).item<double>();
    return seconds > 0 ? samples / seconds : 0.0;
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
  double samples_ = 0;
  double seconds_ = 0;
};

// On --resume the saved optimizer state wins, learning rate included, as with PyTorch's
// load_state_dict: this says so when --lr (or its default) differs from the saved rate, once
// the Trainer has loaded the state.
class ResumedLearningRateNote : public Callback {
 public:
  ResumedLearningRateNote(std::shared_ptr<optim::Optimizer> optimizer, double flag_lr)
      : optimizer_(std::move(optimizer)), flag_lr_(flag_lr) {}
  void on_training_run_start(Trainer& trainer) override {
    const double saved_lr = optimizer_->param_groups().front().options().get_lr();
    if (saved_lr == flag_lr_ || !trainer.accelerator().is_main_process()) return;
    std::printf(
        "note: resuming with the saved optimizer state, learning rate %g; --lr %g is "
        "ignored\n",
        saved_lr, flag_lr_);
  }

 private:
  std::shared_ptr<optim::Optimizer> optimizer_;
  double flag_lr_;
};

// The default callbacks' TerminateOnNaN, which tells whether and why the run stopped early.
std::shared_ptr<TerminateOnNaN> find_terminate_on_nan(
    const std::vector<std::shared_ptr<Callback>>& callbacks) {
  for (const auto& callback : callbacks) {
    if (auto found = std::dynamic_pointer_cast<TerminateOnNaN>(callback)) return found;
  }
  return nullptr;
}

int run(const Flags& flags) {
  // One thread unless asked otherwise: on a machine with other work, more are often slower.
  if (flags.threads) {
    set_num_threads(*flags.threads);
  } else if (!std::getenv("ACCEL_NUM_THREADS") && !std::getenv("OMP_NUM_THREADS")) {
    set_num_threads(1);
  }
  manual_seed(flags.seed);
  auto dataset = data::share(data::MNIST(flags.data_dir, data::MNIST::Split::Train));
  auto test_dataset = data::share(data::MNIST(flags.data_dir, data::MNIST::Split::Test));
  // Fractions, so the split fits any dataset size.
  const auto splits = data::random_split_fractions(
      dataset, {1.0 - flags.val_fraction, flags.val_fraction}, flags.seed);

  std::shared_ptr<nn::Module> model;
  LossFunction loss;
  if (flags.model == "mlp") {
    model = mnist::MLP().ptr();
    loss = nn::NLLLoss();  // the MLP already outputs log-probabilities
  } else {
    model = mnist::CNN().ptr();
    loss = nn::CrossEntropyLoss();
  }
  if (flags.verbose && distributed::launch_environment().rank == 0)
    std::cout << *model << "\n" << nn::summary(*model);
  auto optimizer = make_optimizer(flags, *model);
  auto throughput = std::make_shared<TrainThroughput>();
  auto callbacks = get_default_callbacks();
  if (!flags.verbose) {  // the "Starting .../Finishing ..." lines: the epoch lines suffice
    std::erase_if(callbacks, [](const auto& callback) {
      return std::dynamic_pointer_cast<PrintProgress>(callback) != nullptr;
    });
  }
  callbacks.push_back(throughput);
  if (!flags.resume.empty()) {
    callbacks.push_back(std::make_shared<ResumedLearningRateNote>(optimizer, flags.lr));
  }
  const std::shared_ptr<TerminateOnNaN> terminate_on_nan = find_terminate_on_nan(callbacks);
  auto stop_on_interrupt = std::make_shared<StopOnInterrupt>();
  callbacks.push_back(stop_on_interrupt);
  if (!flags.log_dir.empty()) {
    callbacks.push_back(std::make_shared<CSVLogger>(flags.log_dir + "/metrics.csv"));
    callbacks.push_back(std::make_shared<TensorBoardLogger>(flags.log_dir));
  }
  std::optional<Device> device;  // auto: the Accelerator's choice (a GPU when there is one)
  if (flags.device != "auto") device = Device(flags.device);
  ClassificationTrainer trainer(
      model, loss, optimizer, callbacks, std::make_shared<InMemoryRunHistory>(),
      std::make_shared<Accelerator>(AcceleratorConfig{
          .mixed_precision = parse_mixed_precision(flags.mixed_precision), .device = device}));
  TrainArgs args{.train_dataset = splits[0],
                 .num_epochs = flags.epochs,
                 .eval_dataset = splits[1],
                 .per_device_batch_size = flags.batch_size,
                 .train_dataloader_kwargs = DataLoaderKwargs{.num_workers = flags.workers},
                 .seed = flags.seed};
  if (!flags.resume.empty()) args.resume_from = flags.resume;
  trainer.train(args);
  const bool main_process = trainer.accelerator().is_main_process();
  if (terminate_on_nan && terminate_on_nan->triggered()) {
    // The weights are not finite any more: neither evaluate them nor let them replace a good
    // saved state.
    if (main_process) {
      std::fprintf(stderr, "train_mnist: training stopped: %s%s\n",
                   terminate_on_nan->reason().c_str(),
                   flags.save.empty() ? "" : "; the training state is not saved");
    }
    return 1;
  }
  if (stop_on_interrupt->stopped_run()) {
    // Between two steps: a consistent state that --resume continues exactly.
    if (flags.save.empty()) {
      if (!main_process) return 130;
      std::fprintf(stderr, "train_mnist: interrupted in %s; nothing saved (--save DIR keeps it)\n",
                   stop_on_interrupt->where().c_str());
    } else {
      trainer.save_training_state(flags.save);
      if (!main_process) return 130;
      std::fprintf(stderr,
                   "train_mnist: interrupted in %s; saved the training state to %s: run again "
                   "with the same flags and --resume %s to continue\n",
                   stop_on_interrupt->where().c_str(), flags.save.c_str(), flags.save.c_str());
    }
    return 130;
  }
  const int64_t epochs_trained = trainer.run_history().current_epoch() - 1;
  if (!flags.log_dir.empty() && main_process) {  // before evaluate(), which starts a new history
    const RunHistory& history = trainer.run_history();
    write_metrics_svg(flags.log_dir + "/metrics.svg",
                      {{"train_loss_epoch", history.get_metric_values("train_loss_epoch")},
                       {"eval_loss_epoch", history.get_metric_values("eval_loss_epoch")}});
  }
  if (!flags.save.empty()) {
    trainer.save_training_state(flags.save);
    if (main_process) {
      std::printf("saved the training state to %s (weights: %s/model.safetensors)\n",
                  flags.save.c_str(), flags.save.c_str());
    }
  }

  // Across processes the Trainer refuses an eval batch larger than the dataset: a small test
  // split is one batch.
  constexpr int64_t kTestBatchSize = 256;
  trainer.evaluate({.dataset = test_dataset,
                    .per_device_batch_size = std::min(kTestBatchSize, test_dataset->size())});
  const double samples_per_second = throughput->samples_per_second(trainer.accelerator());
  if (!main_process) return 0;
  if (flags.verbose) {
    rusage usage_info{};
    getrusage(RUSAGE_SELF, &usage_info);
    std::printf("peak_resident_mb=%.1f\n", usage_info.ru_maxrss / 1024.0);
  }
  // A resumed run with no epochs left trained nothing: no throughput to report.
  const std::string throughput_text =
      samples_per_second > 0 ? fmt::format("{:.0f}", samples_per_second) : "none";
  std::printf("final: test_accuracy=%.4f test_loss=%.4f train_samples_per_s=%s epochs=%lld\n",
              trainer.accuracy(), trainer.run_history().get_latest_metric("evaluation_loss"),
              throughput_text.c_str(), static_cast<long long>(epochs_trained));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const ParsedCommandLine command_line = parse_command_line(argc, argv);
  if (!command_line.flags) return command_line.exit_code;
  // Whatever goes wrong at run time is one line and exit code 1, never a terminate.
  try {
    return run(*command_line.flags);
  } catch (const std::exception& e) {
    std::cerr << "train_mnist: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "train_mnist: an unknown error stopped the run\n";
  }
  // The other processes may be waiting for this one in a collective: end them all now.
  if (distributed::is_initialized() && distributed::get_world_size() > 1) {
    distributed::default_process_group()->abort(1);
  }
  return 1;
}
