// Metrics in a callback: the same accuracy as metrics_in_trainer.cpp, computed without
// subclassing the Trainer. on_eval_step_end sees each batch's model outputs; on_eval_epoch_end
// records the result into the run history. Usage: example_metrics_in_callback [DIR]
#include <accel/accel.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace accel;

namespace {

class AccuracyCallback : public Callback {
 public:
  void on_eval_epoch_start(Trainer&) override { correct_ = seen_ = 0; }

  // batch_output.model_outputs holds what calculate_eval_batch_loss computed: no second
  // forward pass. trainer.gather() joins the processes' tensors when there are several.
  void on_eval_step_end(Trainer& trainer, const BatchOutput& batch_output,
                        const data::Example& batch) override {
    const Tensor predictions = trainer.gather(argmax(batch_output.model_outputs, 1));
    const Tensor targets = trainer.gather(batch.target);
    correct_ += sum(eq(predictions, targets)).item<int64_t>();
    seen_ += targets.size(0);
  }

  void on_eval_epoch_end(Trainer& trainer) override {
    trainer.run_history().update_metric("accuracy", static_cast<double>(correct_) / seen_);
  }

 private:
  int64_t correct_ = 0;
  int64_t seen_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string data_dir = argc > 1 ? argv[1] : data::kFashionMnistDir;
  manual_seed(0);
  auto dataset = data::share(data::MNIST(data_dir, data::MNIST::Split::Train));
  auto splits = data::random_split_fractions(dataset, {0.9, 0.1});

  // A small MLP: 784 → 128 → 10 class scores (logits).
  nn::Sequential model{nn::Flatten(), nn::Linear(784, 128), nn::ReLU(), nn::Linear(128, 10)};
  auto optimizer =
      std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.01).momentum(0.9));
  // Callbacks run in list order: placed before the defaults, the metric is recorded by the time
  // LogMetrics prints the eval metrics at the same event.
  std::vector<std::shared_ptr<Callback>> callbacks{std::make_shared<AccuracyCallback>()};
  for (auto& callback : get_default_callbacks()) callbacks.push_back(callback);
  Trainer trainer(model, nn::CrossEntropyLoss(), optimizer, callbacks);
  trainer.train({.train_dataset = splits[0],
                 .num_epochs = 3,
                 .eval_dataset = splits[1],
                 .per_device_batch_size = 64});

  const std::vector<double> accuracy = trainer.run_history().get_metric_values("accuracy");
  std::printf("\naccuracy by epoch:");
  for (double value : accuracy) {
    std::printf(" %.4f", value);
  }
  std::printf("\nfinal: accuracy=%.4f eval_loss=%.4f\n",
              trainer.run_history().get_latest_metric("accuracy"),
              trainer.run_history().get_latest_metric("eval_loss_epoch"));
  return accuracy.size() == 3 ? 0 : 1;
}
