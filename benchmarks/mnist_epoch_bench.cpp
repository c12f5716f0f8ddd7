// One training epoch of the MNIST example's MLP (SGD, batch 32) and of its CNN (Adam, batch 64,
// over the first --cnn-samples samples) on Fashion-MNIST: accel's Trainer and DataLoader, and —
// when built with LibTorch — the same loops written in LibTorch C++, at one thread and at every
// core, printed as one table (samples per second of wall time and per CPU-second).
// Usage: mnist_epoch_bench [--data DIR] [--cnn-samples N] [--threads N...]
#include <accel/accel.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "epochs.h"
#include "mnist/models.h"

namespace {

using namespace accel;

template <typename Model, typename Loss>
bench::EpochResult accel_epoch(const Model& model, Loss loss,
                               std::shared_ptr<optim::Optimizer> optimizer,
                               const data::DatasetPtr& train, int64_t batch_size) {
  Trainer trainer(model, std::move(loss), std::move(optimizer), {});
  return bench::time_epoch(train->size(), [&] {
    trainer.train({.train_dataset = train, .num_epochs = 1, .per_device_batch_size = batch_size});
    return trainer.run_history().get_latest_metric("train_loss_epoch");
  });
}

bench::EpochResult accel_mlp_epoch(const data::DatasetPtr& train) {
  manual_seed(0);
  mnist::MLP model;
  return accel_epoch(
      model, nn::NLLLoss(),
      std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.001).momentum(0.9)),
      train, 32);
}

bench::EpochResult accel_cnn_epoch(const data::DatasetPtr& train) {
  manual_seed(0);
  mnist::CNN model;
  return accel_epoch(model, nn::CrossEntropyLoss(),
                     std::make_shared<optim::Adam>(model->parameters(), optim::AdamOptions(0.001)),
                     train, 64);
}

std::string figures(const bench::EpochResult& r) {
  const auto n = static_cast<double>(r.samples);
  char text[64];
  std::snprintf(text, sizeof text, "%9.0f %9.0f %7.4f", n / r.wall_seconds, n / r.cpu_seconds,
                r.mean_loss);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/usr/share/datasets/fashion-mnist";
  int64_t cnn_samples = 12800;
  std::vector<int> thread_counts = {1, static_cast<int>(std::thread::hardware_concurrency())};
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--data") && has_value) {
      dir = argv[++i];
    } else if (!std::strcmp(argv[i], "--cnn-samples") && has_value) {
      cnn_samples = std::stoll(argv[++i]);
    } else if (!std::strcmp(argv[i], "--threads") && has_value) {
      thread_counts.clear();
      while (i + 1 < argc && argv[i + 1][0] != '-') thread_counts.push_back(std::stoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: %s [--data DIR] [--cnn-samples N] [--threads N...]\n", argv[0]);
      return 2;
    }
  }

  data::MNIST mnist(dir, data::MNIST::Split::Train);
  const data::DatasetPtr train = data::share(mnist);
  cnn_samples = std::min(cnn_samples, mnist.size());
  std::vector<int64_t> first(static_cast<size_t>(cnn_samples));
  for (int64_t i = 0; i < cnn_samples; ++i) first[static_cast<size_t>(i)] = i;
  const data::DatasetPtr cnn_train = std::make_shared<data::Subset>(train, first);
  const Tensor labels = mnist.targets().to(kInt64).contiguous();
  const bench::MnistArrays arrays{static_cast<const uint8_t*>(mnist.images().data_ptr()),
                                  labels.data_ptr<int64_t>(), mnist.size()};
  bench::MnistArrays cnn_arrays = arrays;
  cnn_arrays.count = cnn_samples;

  struct Workload {
    const char* name;
    std::function<bench::EpochResult()> accel;
    std::function<bench::EpochResult(int threads)> libtorch;
  };
  Workload workloads[] = {
      {"mlp, batch 32, SGD (60000 samples)", [&] { return accel_mlp_epoch(train); }, nullptr},
      {"cnn, batch 64, Adam", [&] { return accel_cnn_epoch(cnn_train); }, nullptr},
  };
#ifdef ACCEL_BENCH_WITH_LIBTORCH
  std::printf("LibTorch %s\n", bench::libtorch_version());
  workloads[0].libtorch = [&](int threads) { return bench::libtorch_mlp_epoch(arrays, threads); };
  workloads[1].libtorch = [&](int threads) {
    return bench::libtorch_cnn_epoch(cnn_arrays, threads);
  };
#else
  std::printf("LibTorch not found at build time: accel's figures only\n");
#endif
  std::printf("%-34s %7s | %-27s | %-27s | %s\n", "epoch", "threads",
              "accel samples/s, /cpu-s, loss", "libtorch", "accel/libtorch");
  for (const Workload& w : workloads) {
    for (int threads : thread_counts) {
      set_num_threads(threads);
      const bench::EpochResult a = w.accel();
      std::string line = figures(a);
      if (w.libtorch) {
        const bench::EpochResult t = w.libtorch(threads);
        char ratio[64];
        std::snprintf(ratio, sizeof ratio, " | %.2f (per CPU-s %.2f)",
                      t.wall_seconds / a.wall_seconds, t.cpu_seconds / a.cpu_seconds);
        line += " | " + figures(t) + ratio;
      }
      std::printf("%-34s %7d | %s\n", w.name, threads, line.c_str());
    }
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak RSS %.0f MB\n", usage.ru_maxrss / 1024.0);
}
