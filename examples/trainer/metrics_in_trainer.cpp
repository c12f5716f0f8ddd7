// Metrics in a Trainer subclass: accuracy is counted batch by batch in the eval loss hook
// (calculate_eval_batch_loss) and recorded into the run history in eval_epoch_end, so the
// default LogMetrics callback prints it beside the losses. Usage: example_metrics_in_trainer [DIR]
#include <accel/accel.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace accel;

namespace {

class AccuracyTrainer : public Trainer {
 public:
  using Trainer::Trainer;

  // Each eval epoch starts the count afresh.
  void eval_epoch_start() override {
    Trainer::eval_epoch_start();
    correct_ = seen_ = 0;
  }

  // The default hook computes the loss and keeps the model's outputs; count the hits on top.
  BatchOutput calculate_eval_batch_loss(const data::Example& batch) override {
    BatchOutput output = Trainer::calculate_eval_batch_loss(batch);
    // gather() joins every process's tensors, so with several processes the count covers the
    // whole eval set (with one process it returns its argument).
    const Tensor predictions = gather(argmax(output.model_outputs, 1));
    const Tensor targets = gather(batch.target);
    correct_ += sum(eq(predictions, targets)).item<int64_t>();
    seen_ += targets.size(0);
    return output;
  }

  // Runs before the eval loss is recorded and before on_eval_epoch_end, where LogMetrics
  // prints every non-train metric: `accuracy` among them.
  void eval_epoch_end() override {
    Trainer::eval_epoch_end();
    run_history().update_metric("accuracy", static_cast<double>(correct_) / seen_);
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
  AccuracyTrainer trainer(model, nn::CrossEntropyLoss(), optimizer);
  trainer.train({.train_dataset = splits[0],
                 .num_epochs = 3,
                 .eval_dataset = splits[1],
                 .per_device_batch_size = 64});

  // One value per epoch, like the losses.
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
