// A scheduler factory with placeholders: OneCycleLR needs the run's total number of optimizer
// updates, which is only known once train() has built the data loader. The create_scheduler_fn
// lambda receives it resolved (TrainerPlaceholderValues). Usage: example_scheduler_placeholders
// [DIR]
#include <accel/accel.h>

#include <cmath>
#include <cstdio>
#include <string>

using namespace accel;

namespace {

constexpr double kMaxLr = 0.1;

// Prints the learning rate at the start and the end of every training epoch. The Trainer steps
// the scheduler once per optimizer update, so it changes within each epoch.
class PrintLearningRate : public Callback {
 public:
  void on_train_epoch_start(Trainer& trainer) override { start_lr_ = current_lr(trainer); }
  void on_train_epoch_end(Trainer& trainer) override {
    trainer.print("\nepoch {}: lr {:.5f} -> {:.5f} (after {} optimizer updates in all)",
                  trainer.run_history().current_epoch(), start_lr_, current_lr(trainer),
                  trainer.global_step());
  }

 private:
  static double current_lr(const Trainer& trainer) {
    return trainer.scheduler()->get_last_lr().at(0);
  }
  double start_lr_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const std::string data_dir = argc > 1 ? argv[1] : data::kFashionMnistDir;
  manual_seed(0);
  auto dataset = data::share(data::MNIST(data_dir, data::MNIST::Split::Train));
  auto splits = data::random_split_fractions(dataset, {0.9, 0.1});

  // A small MLP: 784 → 128 → 10 class scores (logits).
  nn::Sequential model{nn::Flatten(), nn::Linear(784, 128), nn::ReLU(), nn::Linear(128, 10)};
  // OneCycleLR also cycles SGD's momentum, so the optimizer must use momentum.
  auto optimizer =
      std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.01).momentum(0.9));
  // The Python original writes partial(OneCycleLR, epochs=NUM_EPOCHS,
  // steps_per_epoch=NUM_UPDATE_STEPS_PER_EPOCH); in C++ the placeholders arrive as numbers.
  // They describe the full data loader: under ACCEL_LIMIT_BATCHES the epochs are cut short,
  // so only the start of the cycle runs.
  auto one_cycle = [](std::shared_ptr<optim::Optimizer> opt, const TrainerPlaceholderValues& p) {
    const int64_t total_steps = p.num_epochs * p.num_update_steps_per_epoch;
    std::printf(
        "scheduler factory: num_epochs=%lld num_update_steps_per_epoch=%lld -> "
        "OneCycleLR total_steps=%lld\n",
        static_cast<long long>(p.num_epochs), static_cast<long long>(p.num_update_steps_per_epoch),
        static_cast<long long>(total_steps));
    return std::make_shared<optim::OneCycleLR>(opt, kMaxLr, total_steps);
  };

  auto callbacks = get_default_callbacks();
  callbacks.push_back(std::make_shared<PrintLearningRate>());
  Trainer trainer(model, nn::CrossEntropyLoss(), optimizer, callbacks);
  trainer.train({.train_dataset = splits[0],
                 .num_epochs = 3,
                 .eval_dataset = splits[1],
                 .per_device_batch_size = 64,
                 .create_scheduler_fn = one_cycle});

  const double final_lr = trainer.scheduler()->get_last_lr().at(0);
  std::printf("\nfinal: lr=%.6f eval_loss=%.4f\n", final_lr,
              trainer.run_history().get_latest_metric("eval_loss_epoch"));
  // The cycle starts at kMaxLr / div_factor (25) and has moved on since.
  return std::abs(final_lr - kMaxLr / 25) > 1e-9 ? 0 : 1;
}
