// Mixed precision on the CPU: the loss scaler's arithmetic, an injected overflow that skips
// exactly one optimizer step (and its scheduler step) and halves the scale, and bf16/fp16
// training runs selected by config or ACCEL_MIXED_PRECISION.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

using testing::expect_error_containing;

std::shared_ptr<Accelerator> make_accelerator(MixedPrecision mode) {
  return std::make_shared<Accelerator>(AcceleratorConfig{.mixed_precision = mode});
}

// Autocast, like PyTorch's, leaves float64 inputs alone: mixed-precision runs use float32 data.
std::shared_ptr<data::TensorDataset> float32_dataset(int64_t n) {
  auto data = testing::regression_dataset(n);
  return std::make_shared<data::TensorDataset>(data->data().to(kFloat32),
                                               data->target().to(kFloat32));
}

TEST(GradScaler, UnscalesSkipsOnOverflowAndAdjustsTheScale) {
  Tensor w = ones({2}).requires_grad_();
  optim::SGD optimizer({w}, optim::SGDOptions(1.0));
  GradScaler scaler({.init_scale = 8.0, .growth_interval = 2});
  scaler.scale(sum(w * 3.0)).backward();
  EXPECT_TRUE(equal(w.grad(), full({2}, 24.0)));
  EXPECT_TRUE(scaler.step(optimizer));
  EXPECT_TRUE(equal(w, full({2}, -2.0)));
  scaler.update();
  EXPECT_EQ(scaler.get_scale(), 8.0);

  optimizer.zero_grad();
  scaler.scale(sum(w * 1.0)).backward();
  scaler.unscale_(optimizer);
  expect_error_containing([&] { scaler.unscale_(optimizer); }, "already called for this step");
  EXPECT_TRUE(scaler.step(optimizer));
  scaler.update();
  EXPECT_EQ(scaler.get_scale(), 16.0);  // two clean steps in a row

  optimizer.zero_grad();
  scaler.scale(sum(w * std::numeric_limits<float>::infinity())).backward();
  const Tensor before = w.clone();
  EXPECT_FALSE(scaler.step(optimizer));
  EXPECT_TRUE(equal(w, before));
  scaler.update();
  EXPECT_EQ(scaler.get_scale(), 8.0);
}

// Puts an infinity into one gradient during the backward of update `overflow_at`.
class OverflowingTrainer : public Trainer {
 public:
  OverflowingTrainer(nn::Linear model, int64_t overflow_at)
      : Trainer(model, nn::MSELoss(), testing::sgd(*model), {},
                std::make_shared<InMemoryRunHistory>(),
                // A scale small enough that only the injected infinity overflows float16.
                std::make_shared<Accelerator>(AcceleratorConfig{
                    .mixed_precision = MixedPrecision::FP16, .grad_scaler = {.init_scale = 1024}})),
        overflow_at_(overflow_at) {}
  void backward_step(const Tensor& loss) override {
    Trainer::backward_step(loss);
    if (global_step() == overflow_at_) {
      Tensor grad = get_model().parameters()[0].grad();
      grad.view({-1}).narrow(0, 0, 1).fill_(std::numeric_limits<double>::infinity());
    }
  }
  void optimizer_step() override {
    const auto before = testing::snapshot(get_model());
    Trainer::optimizer_step();
    changed.push_back(!testing::bit_identical(before, testing::snapshot(get_model())));
    scales.push_back(accelerator().grad_scaler()->get_scale());
  }
  std::vector<bool> changed;
  std::vector<double> scales;

 private:
  int64_t overflow_at_;
};

TEST(MixedPrecision, AnInjectedOverflowSkipsExactlyOneStepAndHalvesTheScale) {
  nn::Linear model = testing::linear_model();
  model->to(kFloat32);
  OverflowingTrainer trainer(model, /*overflow_at=*/2);
  trainer.train({.train_dataset = float32_dataset(20),
                 .num_epochs = 1,
                 .per_device_batch_size = 4,
                 .create_scheduler_fn = [](auto opt) {
                   return std::make_shared<optim::ExponentialLR>(opt, 0.5);
                 }});
  EXPECT_EQ(trainer.changed, (std::vector<bool>{true, true, false, true, true}));
  EXPECT_EQ(trainer.scales, (std::vector<double>{1024, 1024, 512, 512, 512}));
  // Four scheduler steps, not five.
  EXPECT_DOUBLE_EQ(trainer.scheduler()->get_last_lr()[0], 0.05 * std::pow(0.5, 4));
}

TEST(MixedPrecision, Bf16AndFp16TrainingReachALowLoss) {
  for (MixedPrecision mode : {MixedPrecision::BF16, MixedPrecision::FP16}) {
    nn::Linear model = testing::linear_model();
    model->to(kFloat32);
    Trainer trainer(model, nn::MSELoss(), testing::sgd(*model, 0.05, 0.9), {},
                    std::make_shared<InMemoryRunHistory>(), make_accelerator(mode));
    trainer.train(
        {.train_dataset = float32_dataset(256), .num_epochs = 10, .per_device_batch_size = 16});
    EXPECT_LT(trainer.run_history().get_latest_metric("train_loss_epoch"), 0.01) << to_string(mode);
    EXPECT_EQ(model->weight.dtype(), kFloat32);
  }
}

TEST(MixedPrecision, TheEnvironmentVariableSelectsTheMode) {
  ::setenv("ACCEL_MIXED_PRECISION", "bf16", 1);
  EXPECT_EQ(Accelerator().mixed_precision(), MixedPrecision::BF16);
  ::setenv("ACCEL_MIXED_PRECISION", "fp16", 1);
  EXPECT_NE(Accelerator().grad_scaler(), nullptr);
  EXPECT_EQ(Accelerator({.mixed_precision = MixedPrecision::No}).mixed_precision(),
            MixedPrecision::No);
  ::setenv("ACCEL_MIXED_PRECISION", "fp8", 1);
  expect_error_containing([] { Accelerator(); }, "must be one of no, fp16, bf16; got 'fp8'");
  ::unsetenv("ACCEL_MIXED_PRECISION");
  EXPECT_EQ(Accelerator().mixed_precision(), MixedPrecision::No);
}

}  // namespace
}  // namespace accel
