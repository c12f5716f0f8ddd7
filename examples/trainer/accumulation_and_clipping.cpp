// Gradient accumulation and clipping: batches of 16 with gradient_accumulation_steps=4 update
// the weights like batches of 64, and gradient_clip_norm caps each update's global gradient
// norm (clipped once per update, on the accumulated gradient). Exits 1 if either is not seen.
// Usage: example_accumulation_and_clipping [DIR]
#include <accel/accel.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

using namespace accel;

namespace {

constexpr int64_t kAccumulationSteps = 4;
constexpr double kClipNorm = 0.5;

// Watches the updates: the optimizer_step hook runs after clipping, so it sees the clipped norm.
class WatchedTrainer : public Trainer {
 public:
  using Trainer::Trainer;

  void optimizer_step() override {
    double squared = 0;
    for (const Tensor& parameter : get_model().parameters()) {
      const Tensor& grad = parameter.grad();
      if (grad.defined()) squared += (grad * grad).sum().item<double>();
    }
    max_norm_ = std::max(max_norm_, std::sqrt(squared));
    ++updates_;
    Trainer::optimizer_step();
  }

  double max_norm() const { return max_norm_; }
  int64_t updates() const { return updates_; }

 private:
  double max_norm_ = 0;
  int64_t updates_ = 0;
};

// Counts the batches of each epoch, and the updates they should make: one per group of
// kAccumulationSteps batches, the shorter last group of an epoch included.
class CountBatches : public Callback {
 public:
  void on_train_epoch_start(Trainer&) override { epoch_batches_ = 0; }
  void on_train_step_end(Trainer&, const BatchOutput&, const data::Example&, int64_t) override {
    ++epoch_batches_;
    ++batches_;
  }
  void on_train_epoch_end(Trainer&) override {
    expected_updates_ += (epoch_batches_ + kAccumulationSteps - 1) / kAccumulationSteps;
  }
  int64_t batches() const { return batches_; }
  int64_t expected_updates() const { return expected_updates_; }

 private:
  int64_t epoch_batches_ = 0;
  int64_t batches_ = 0;
  int64_t expected_updates_ = 0;
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
      std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.05).momentum(0.9));
  auto counter = std::make_shared<CountBatches>();
  auto callbacks = get_default_callbacks();
  callbacks.push_back(counter);
  WatchedTrainer trainer(model, nn::CrossEntropyLoss(), optimizer, callbacks);
  // Each batch's loss is divided by 4 before backward, so four accumulated gradients sum to the
  // gradient of the mean loss over 64 samples. gradient_clip_value (element-wise) may be given
  // as well; it is applied before the norm.
  trainer.train({.train_dataset = splits[0],
                 .num_epochs = 2,
                 .eval_dataset = splits[1],
                 .per_device_batch_size = 16,
                 .gradient_accumulation_steps = kAccumulationSteps,
                 .gradient_clip_norm = kClipNorm});

  const TrainerRunConfig& config = trainer.run_config();
  std::printf("\nrun config: train_total_batch_size=%lld num_update_steps_per_epoch=%lld\n",
              static_cast<long long>(config.train_total_batch_size),
              static_cast<long long>(config.num_update_steps_per_epoch));
  std::printf(
      "final: batches=%lld updates=%lld max_update_grad_norm=%.4f (clip %.2f) "
      "eval_loss=%.4f\n",
      static_cast<long long>(counter->batches()), static_cast<long long>(trainer.updates()),
      trainer.max_norm(), kClipNorm, trainer.run_history().get_latest_metric("eval_loss_epoch"));
  const bool grouped = trainer.updates() == counter->expected_updates();
  return grouped && trainer.max_norm() <= kClipNorm * (1 + 1e-5) ? 0 : 1;
}
