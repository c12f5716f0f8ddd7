// What the epoch benchmark's accel side and LibTorch side share, free of both libraries'
// headers: the data as plain arrays, and an epoch's wall time, CPU time and mean loss.
#pragma once

#include <time.h>

#include <chrono>
#include <cstdint>

namespace bench {

// Fashion-MNIST's training images ([count, 28, 28] bytes) and labels.
struct MnistArrays {
  const uint8_t* images = nullptr;
  const int64_t* labels = nullptr;
  int64_t count = 0;
};

struct EpochResult {
  double wall_seconds = 0;
  double cpu_seconds = 0;  // of the whole process: every thread that helped
  double mean_loss = 0;
  int64_t samples = 0;
};

// Times `run` (which returns the epoch's mean loss) over `samples` samples.
template <typename Run>
EpochResult time_epoch(int64_t samples, Run run) {
  const auto cpu_now = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  const double cpu_start = cpu_now();
  const auto wall_start = std::chrono::steady_clock::now();
  EpochResult result;
  result.mean_loss = run();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  result.cpu_seconds = cpu_now() - cpu_start;
  result.samples = samples;
  return result;
}

// The same epochs as the MNIST example's, written as a LibTorch user writes them: the images
// converted to float once, a shuffled index per epoch, index_select per batch. The MLP
// (784-128-64-10, log-softmax, NLL) with SGD(0.001, momentum 0.9) at batch 32; the CNN
// (two conv blocks, cross-entropy) with Adam(0.001) at batch 64, over the first `count`
// samples, with `threads` intra-op threads. Defined only in builds with LibTorch.
EpochResult libtorch_mlp_epoch(const MnistArrays& data, int threads);
EpochResult libtorch_cnn_epoch(const MnistArrays& data, int threads);
const char* libtorch_version();

}  // namespace bench
