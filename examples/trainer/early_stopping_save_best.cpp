// Early stopping and keeping the best model: EarlyStopping ends the run once the eval loss
// stops improving; SaveBestModel checkpoints every improvement and reloads the best one when the
// run ends. Usage: example_early_stopping_save_best [DIR] [SAVE_DIR] (default: a temp dir)
#include <accel/accel.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

using namespace accel;

int main(int argc, char** argv) {
  const std::string data_dir = argc > 1 ? argv[1] : data::kFashionMnistDir;
  const bool temporary = argc <= 2;
  const std::filesystem::path save_dir =
      temporary ? std::filesystem::temp_directory_path() /
                      ("accel_example_best_" + std::to_string(getpid()))
                : std::filesystem::path(argv[2]);
  manual_seed(0);
  auto dataset = data::share(data::MNIST(data_dir, data::MNIST::Split::Train));
  auto splits = data::random_split_fractions(dataset, {0.9, 0.1});

  // A small MLP: 784 → 128 → 10 class scores (logits).
  nn::Sequential model{nn::Flatten(), nn::Linear(784, 128), nn::ReLU(), nn::Linear(128, 10)};
  auto optimizer =
      std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.01).momentum(0.9));
  // Both watch eval_loss_epoch (lower is better) by default. EarlyStopping stops after
  // `patience` epochs that each fail to beat the best by more than the threshold (an absolute
  // difference): on the full data set this run stops after epoch 2; the 20-batch epochs of
  // ACCEL_LIMIT_BATCHES=20 improve by more and run all 3.
  auto early_stopping = std::make_shared<EarlyStopping>(
      EarlyStoppingOptions().patience(1).early_stopping_threshold(0.05));
  auto save_best = std::make_shared<SaveBestModel>(SaveBestModelOptions(save_dir.string()));
  auto callbacks = get_default_callbacks();
  // Both act at the end of each epoch, in list order: SaveBestModel first, so an epoch that
  // improves a little (below EarlyStopping's threshold) is still saved before the run stops.
  callbacks.push_back(save_best);
  callbacks.push_back(early_stopping);
  Trainer trainer(model, nn::CrossEntropyLoss(), optimizer, callbacks);
  trainer.train({.train_dataset = splits[0],
                 .num_epochs = 3,
                 .eval_dataset = splits[1],
                 .per_device_batch_size = 64});

  const auto eval_losses = trainer.run_history().get_metric_values("eval_loss_epoch");
  std::printf("\neval_loss_epoch by epoch:");
  for (double value : eval_losses) std::printf(" %.4f", value);
  std::printf("\nbest: eval_loss_epoch=%.4f at epoch %lld, saved in %s\n",
              *save_best->best_metric(), static_cast<long long>(save_best->best_metric_epoch()),
              save_dir.c_str());

  // The model now holds the best weights again: evaluating the same data reproduces the best loss.
  trainer.evaluate({.dataset = splits[1], .per_device_batch_size = 64});
  std::printf(
      "final: epochs_run=%zu stopped_early=%s best_eval_loss=%.4f reloaded_evaluation_loss=%.4f\n",
      eval_losses.size(), eval_losses.size() < 3 ? "yes" : "no", *save_best->best_metric(),
      trainer.run_history().get_latest_metric("evaluation_loss"));
  if (temporary) std::filesystem::remove_all(save_dir);
  const double reloaded = trainer.run_history().get_latest_metric("evaluation_loss");
  return std::abs(reloaded - *save_best->best_metric()) < 1e-6 ? 0 : 1;
}
