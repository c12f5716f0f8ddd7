// The Trainer on a GPU: a model and its optimizer moved to CUDA train with the same losses as on
// the CPU (float32, within summation-order tolerance), the optimizer state lives on the GPU,
// and steady-state training asks the device for no new memory. Skipped without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "accel/accel.h"
#include "support/cuda_test.h"

namespace accel {
namespace {

// The loss of every training step, read back once per step as the Trainer itself does.
class LossRecorder : public Callback {
 public:
  void on_train_step_end(Trainer&, const BatchOutput& output, const data::Example&,
                         int64_t) override {
    losses.push_back(output.loss.detach().item<double>());
  }
  std::vector<double> losses;
};

// Counts the device's cudaMalloc calls at the start of each epoch after the first.
class MallocCounter : public Callback {
 public:
  explicit MallocCounter(Device device) : device_(device) {}
  void on_train_epoch_start(Trainer&) override {
    at_epoch_start.push_back(allocator_for(device_).stats().num_system_allocations);
  }
  std::vector<int64_t> at_epoch_start;

 private:
  Device device_;
};

std::shared_ptr<data::TensorDataset> classification_data() {
  Generator generator(11);
  const Tensor x = randn({512, 20}, kFloat32, &generator);
  const Tensor y = randint(0, 5, {512}, kInt64, &generator);
  return std::make_shared<data::TensorDataset>(x, y);
}

struct TrainedRun {
  std::vector<double> losses;
  std::vector<int64_t> mallocs_at_epoch_start;
  nn::Sequential model;
  std::shared_ptr<optim::Optimizer> optimizer;
};

TrainedRun train_on(Device device) {
  manual_seed(3);
  TrainedRun run;
  run.model = nn::Sequential{nn::Linear(20, 64), nn::ReLU(), nn::Linear(64, 5)};
  run.optimizer =
      std::make_shared<optim::AdamW>(run.model->parameters(), optim::AdamWOptions(1e-2));
  auto losses = std::make_shared<LossRecorder>();
  auto mallocs = std::make_shared<MallocCounter>(device);
  Trainer trainer(run.model.ptr(), nn::CrossEntropyLoss(), run.optimizer, {losses, mallocs},
                  std::make_shared<InMemoryRunHistory>(),
                  std::make_shared<Accelerator>(AcceleratorConfig{.device = device}));
  trainer.train({.train_dataset = classification_data(),
                 .num_epochs = 3,
                 .per_device_batch_size = 64,
                 .gradient_clip_norm = 1.0,
                 .train_dataloader_kwargs = DataLoaderKwargs{.shuffle = false}});
  run.losses = losses->losses;
  run.mallocs_at_epoch_start = mallocs->at_epoch_start;
  return run;
}

TEST(CudaTrainer, TrainsWithTheCpuLosses) {
  ACCEL_REQUIRE_CUDA();
  const TrainedRun cpu = train_on(Device(kCPU));
  const TrainedRun gpu = train_on(Device(kCUDA, 0));
  ASSERT_EQ(gpu.losses.size(), cpu.losses.size());
  ASSERT_EQ(gpu.losses.size(), 24u);
  for (size_t i = 0; i < cpu.losses.size(); ++i) {
    // float32 sums in another order, compounded over 24 AdamW steps.
    EXPECT_NEAR(gpu.losses[i], cpu.losses[i], 1e-4 * (1 + std::abs(cpu.losses[i]))) << "step " << i;
  }
  EXPECT_LT(gpu.losses.back(), gpu.losses.front());
  for (const Tensor& p : gpu.model->parameters()) EXPECT_TRUE(p.is_cuda());
  const optim::OptimizerStateDict state = gpu.optimizer->state_dict();
  ASSERT_FALSE(state.state.empty());
  for (const auto& [index, param_state] : state.state) {
    for (const auto& [key, value] : param_state) {
      if (key != "step") {
        EXPECT_TRUE(value.is_cuda()) << key;
      }
    }
  }
}

TEST(CudaTrainer, SteadyStateTrainingAllocatesNoDeviceMemory) {
  ACCEL_REQUIRE_CUDA();
  const TrainedRun gpu = train_on(Device(kCUDA, 0));
  ASSERT_EQ(gpu.mallocs_at_epoch_start.size(), 3u);
  // The first epoch sizes the cache; later epochs only reuse it.
  EXPECT_EQ(gpu.mallocs_at_epoch_start[2], gpu.mallocs_at_epoch_start[1]);
}

}  // namespace
}  // namespace accel
