// Data loading throughput: batches/s iterating Fashion-MNIST train, shuffled, at batch 32
// and 256 with 0 and 2 workers, and, for scale, the training steps/s of the quickstart's
// MLP at batch 32 on one thread (loading must run far ahead of training). Prints figures,
// asserts nothing; benchmarks/pytorch/data_loader.py runs the same loads in PyTorch.
// Usage: data_loader_bench [fashion-mnist dir]
#include <fmt/format.h>

#include <chrono>

#include "accel/accel.h"

using namespace accel;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Batches per second over whole epochs, at least `min_seconds` of them.
double batches_per_second(const data::DatasetPtr& dataset, int64_t batch_size, int workers,
                          double min_seconds = 2.0) {
  data::DataLoader loader(dataset,
                          data::DataLoaderOptions(batch_size).shuffle(true).num_workers(workers));
  int64_t batches = 0;
  int64_t checksum = 0;
  const Clock::time_point start = Clock::now();
  while (batches == 0 || seconds_since(start) < min_seconds) {
    for (const data::Example& batch : loader) {
      checksum += batch.target.size(0);
      ++batches;
    }
  }
  const double elapsed = seconds_since(start);
  if (checksum != batches / loader.size() * dataset->size())
    fmt::print("unexpected sample count\n");
  return static_cast<double>(batches) / elapsed;
}

// Training steps per second of the quickstart model (784-128-64-10 MLP, SGD).
double training_steps_per_second(const data::DatasetPtr& dataset, int64_t steps = 300) {
  nn::Sequential model{nn::Linear(784, 128), nn::ReLU(),         nn::Linear(128, 64),
                       nn::ReLU(),           nn::Linear(64, 10), nn::LogSoftmax(1)};
  optim::SGD optimizer(model->parameters(), optim::SGDOptions(0.001).momentum(0.9));
  std::vector<data::Example> batches;
  data::DataLoader loader(dataset, data::DataLoaderOptions(32).shuffle(true));
  for (const data::Example& batch : loader) {
    batches.push_back(batch);
    if (std::ssize(batches) == steps) break;
  }
  const Clock::time_point start = Clock::now();
  for (const data::Example& batch : batches) {
    optimizer.zero_grad();
    Tensor loss =
        F::nll_loss(model->forward(batch.data.view({batch.data.size(0), -1})), batch.target);
    loss.backward();
    optimizer.step();
  }
  return static_cast<double>(batches.size()) / seconds_since(start);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : data::kFashionMnistDir;
  set_num_threads(1);
  Clock::time_point start = Clock::now();
  const auto dataset = std::make_shared<data::MNIST>(dir, data::MNIST::Split::Train);
  fmt::print("load Fashion-MNIST train ({} images, gzip): {:.2f} s\n", dataset->size(),
             seconds_since(start));
  double single_thread_32 = 0;
  for (int64_t batch_size : {32, 256}) {
    for (int workers : {0, 2}) {
      const double rate = batches_per_second(dataset, batch_size, workers);
      if (batch_size == 32 && workers == 0) single_thread_32 = rate;
      fmt::print("batch {:>3}  workers {}  {:>9.0f} batches/s  {:>6.2f} M samples/s\n", batch_size,
                 workers, rate, rate * static_cast<double>(batch_size) / 1e6);
    }
  }
  const double steps = training_steps_per_second(dataset);
  fmt::print("training the quickstart MLP at batch 32, 1 thread: {:.0f} steps/s\n", steps);
  fmt::print("loading (batch 32, 0 workers) / training: {:.1f}x (target >= 20x)\n",
             single_thread_32 / steps);
}
