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

// A dataset kept on the GPU: its batches are gathered there (the index follows the data) and
// left unpinned, in the order and with the values of the same dataset on the CPU.
TEST(CudaTrainer, DatasetsOnTheGpuGiveTheirBatchesThere) {
  ACCEL_REQUIRE_CUDA();
  const auto on_cpu = classification_data();
  const Tensor& x = on_cpu->data();
  const Tensor& y = on_cpu->target();
  const Device gpu(kCUDA, 0);
  const auto on_gpu = std::make_shared<data::TensorDataset>(x.to(gpu), y.to(gpu));
  const auto both =
      std::make_shared<data::ConcatDataset>(std::vector<data::DatasetPtr>{on_gpu, on_gpu});
  for (const data::DatasetPtr& dataset : {data::DatasetPtr(on_gpu), data::DatasetPtr(both)}) {
    data::DataLoader loader(dataset, data::DataLoaderOptions().batch_size(100).pin_memory(true));
    int64_t row = 0;
    for (const data::Example& batch : loader) {
      ASSERT_TRUE(batch.data.is_cuda() && batch.target.is_cuda());
      const int64_t n = batch.data.size(0);
      const int64_t start = row % x.size(0);
      EXPECT_TRUE(batch.data.cpu().equal(x.slice(0, start, start + n)));
      EXPECT_TRUE(batch.target.cpu().equal(y.slice(0, start, start + n)));
      row += n;
    }
    EXPECT_EQ(row, dataset->size());
  }
}

// An average started before the model moved to the GPU (a Trainer moves it) follows it there.
TEST(CudaTrainer, ModelEmaFollowsAModelMovedToTheGpu) {
  ACCEL_REQUIRE_CUDA();
  nn::Linear model(3, 2);
  ModelEma ema(*model, 0.5);
  const Tensor before = model->weight.detach().clone();
  model->to(Device(kCUDA, 0));
  {
    NoGradGuard no_grad;
    model->weight.add_(1.0);
  }
  ema.update(*model);
  const Tensor& average = *ema.state_dict().find("weight");
  EXPECT_TRUE(average.is_cuda());
  EXPECT_TRUE(allclose(average.cpu(), before + 0.5));
}

}  // namespace
}  // namespace accel
