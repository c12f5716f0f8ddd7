// A custom callback event: a Trainer subclass fires "eval_loss_improved" through
// callback_handler().call_event(name, trainer) whenever an epoch beats the best eval loss so
// far, and a callback reacts to it in on_event. Usage: example_custom_callback_event [DIR]
#include <accel/accel.h>

#include <cstdio>
#include <limits>
#include <string>

using namespace accel;

namespace {

class ImprovementTrainer : public Trainer {
 public:
  using Trainer::Trainer;

  void training_run_start() override { best_eval_loss_ = std::numeric_limits<double>::infinity(); }

  // Runs once per epoch, after the eval epoch has recorded eval_loss_epoch.
  void training_run_epoch_end() override {
    const double eval_loss = run_history().get_latest_metric("eval_loss_epoch");
    if (eval_loss < best_eval_loss_) {
      best_eval_loss_ = eval_loss;
      // Every registered callback receives the event, in list order; callbacks that do not
      // know the name ignore it (Callback::on_event is a no-op by default).
      callback_handler().call_event("eval_loss_improved", *this);
    }
  }

  double best_eval_loss() const { return best_eval_loss_; }

 private:
  double best_eval_loss_ = std::numeric_limits<double>::infinity();
};

class ImprovementReporter : public Callback {
 public:
  void on_event(const std::string& name, Trainer& trainer) override {
    if (name != "eval_loss_improved") return;
    ++improvements_;
    trainer.print("\nevent eval_loss_improved: epoch {} reached eval loss {:.4f}",
                  trainer.run_history().current_epoch(),
                  trainer.run_history().get_latest_metric("eval_loss_epoch"));
  }
  int improvements() const { return improvements_; }

 private:
  int improvements_ = 0;
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
  auto reporter = std::make_shared<ImprovementReporter>();
  auto callbacks = get_default_callbacks();
  callbacks.push_back(reporter);
  ImprovementTrainer trainer(model, nn::CrossEntropyLoss(), optimizer, callbacks);
  trainer.train({.train_dataset = splits[0],
                 .num_epochs = 3,
                 .eval_dataset = splits[1],
                 .per_device_batch_size = 64});

  std::printf("\nfinal: improvements=%d best_eval_loss=%.4f\n", reporter->improvements(),
              trainer.best_eval_loss());
  return reporter->improvements() > 0 ? 0 : 1;
}
