// Resuming from a training state: a first Trainer runs 2 epochs, saving a training state after
// each; a second Trainer, with a fresh model and optimizer, resumes from the last one and
// continues to epoch 3, its run history carrying on from the first run's.
// Usage: example_resume_training [DIR] [SAVE_DIR] (default: a temp dir)
#include <accel/accel.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace accel;

namespace {

std::vector<double> eval_losses(const Trainer& trainer) {
  return trainer.run_history().get_metric_values("eval_loss_epoch");
}

void print_history(const char* label, const std::vector<double>& values) {
  std::printf("%s eval_loss_epoch:", label);
  for (double value : values) std::printf(" %.4f", value);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string data_dir = argc > 1 ? argv[1] : data::kFashionMnistDir;
  const bool temporary = argc <= 2;
  const std::filesystem::path save_dir =
      temporary ? std::filesystem::temp_directory_path() /
                      ("accel_example_resume_" + std::to_string(getpid()))
                : std::filesystem::path(argv[2]);
  manual_seed(0);
  auto dataset = data::share(data::MNIST(data_dir, data::MNIST::Split::Train));
  auto splits = data::random_split_fractions(dataset, {0.9, 0.1});
  const TrainArgs args{.train_dataset = splits[0],
                       .num_epochs = 2,
                       .eval_dataset = splits[1],
                       .per_device_batch_size = 64};

  std::vector<double> first_run;
  // First run: 2 epochs. A training state holds the model, optimizer (and scheduler), RNG, run
  // history and the position in the run.
  {
    // A small MLP: 784 → 128 → 10 class scores (logits).
    nn::Sequential model{nn::Flatten(), nn::Linear(784, 128), nn::ReLU(), nn::Linear(128, 10)};
    auto optimizer =
        std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.01).momentum(0.9));
    auto callbacks = get_default_callbacks();
    // SAVE_DIR/epoch_<N>/ once epoch N is trained, evaluated and recorded; a run resumed from
    // it starts at epoch N + 1.
    callbacks.push_back(std::make_shared<SaveTrainingState>(
        SaveTrainingStateOptions(save_dir.string()).save_every_n_epochs(1).save_at_end(false)));
    Trainer trainer(model, nn::CrossEntropyLoss(), optimizer, callbacks);
    trainer.train(args);
    first_run = eval_losses(trainer);
  }

  // Second run: new objects of the same shapes; resume_from loads the weights and optimizer
  // state over them, and num_epochs counts from the start of the first run, so one more epoch
  // runs.
  // A small MLP: 784 → 128 → 10 class scores (logits).
  nn::Sequential model{nn::Flatten(), nn::Linear(784, 128), nn::ReLU(), nn::Linear(128, 10)};
  auto optimizer =
      std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.01).momentum(0.9));
  Trainer trainer(model, nn::CrossEntropyLoss(), optimizer);
  TrainArgs resumed = args;
  resumed.num_epochs = 3;
  resumed.resume_from = (save_dir / "epoch_2").string();
  trainer.train(resumed);

  // The resumed history starts with the first run's values and adds epoch 3's.
  const std::vector<double> history = eval_losses(trainer);
  const bool continues = history.size() == first_run.size() + 1 &&
                         std::equal(first_run.begin(), first_run.end(), history.begin());
  print_history("\nfirst run:  ", first_run);
  print_history("resumed run:", history);
  std::printf("final: history_continues=%s epochs=%zu global_step=%lld eval_loss=%.4f\n",
              continues ? "yes" : "no", history.size(),
              static_cast<long long>(trainer.global_step()), history.back());
  if (temporary) std::filesystem::remove_all(save_dir);
  return continues ? 0 : 1;
}
