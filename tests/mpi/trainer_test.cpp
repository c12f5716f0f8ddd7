// The Trainer under mpirun: two processes with batch B each follow one process with batch 2B,
// the train shares are disjoint and padded evenly, gather removes its padding, evaluation
// equals one process's, checkpoints are written once and a failed write fails everywhere, and
// a two-process run resumes bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

using testing::DropoutModel;
using testing::expect_error_containing;
using testing::SaveAtStep;

distributed::ProcessGroup& group() { return *distributed::default_process_group(); }

std::shared_ptr<Accelerator> one_process() {
  return std::make_shared<Accelerator>(
      AcceleratorConfig{.process_group = std::make_shared<distributed::SingleProcessGroup>()});
}

// The same directory on every rank (ranks share the machine's /tmp).
std::string shared_temp_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "accel_mpi_" +
                          ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                          name;
  if (group().rank() == 0) std::filesystem::remove_all(dir);
  group().barrier()->wait();
  return dir;
}

struct Result {
  std::vector<Tensor> weights;
  std::vector<double> train_losses, eval_losses;
};

// With the default callbacks: MoveModulesToDevice prepares the loss module too, which must not
// take the model's place as the one being synchronized.
Result train(std::shared_ptr<Accelerator> accelerator, int64_t per_device_batch) {
  nn::Linear model = testing::linear_model(3);
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model, 0.05, 0.9), get_default_callbacks(),
                  std::make_shared<InMemoryRunHistory>(), std::move(accelerator));
  trainer.train({.train_dataset = testing::regression_dataset(40),
                 .num_epochs = 3,
                 .eval_dataset = testing::regression_dataset(16, 5),
                 .per_device_batch_size = per_device_batch,
                 .train_dataloader_kwargs = testing::in_order()});
  return {testing::snapshot(*model), trainer.run_history().get_metric_values("train_loss_epoch"),
          trainer.run_history().get_metric_values("eval_loss_epoch")};
}

void expect_near(const std::vector<double>& a, const std::vector<double>& b, double tolerance) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], tolerance) << i;
}

// Not bit for bit: the one process reduces 2B rows in one matmul, the two B rows each, then
// average (a different order of additions); float64 keeps the difference near 1e-15.
TEST(TrainerAcrossProcesses, FollowsOneProcessOnTheUnionBatch) {
  ASSERT_EQ(group().size(), 2);
  const Result two = train(nullptr, 4);  // the default group: both processes
  const Result one = train(one_process(), 8);
  ASSERT_EQ(two.weights.size(), one.weights.size());
  for (size_t i = 0; i < two.weights.size(); ++i) {
    EXPECT_LE((two.weights[i] - one.weights[i]).abs().max().item<double>(), 1e-12) << i;
  }
  expect_near(two.train_losses, one.train_losses, 1e-12);
  expect_near(two.eval_losses, one.eval_losses, 1e-12);
}

// Records the first feature of every training sample this process sees in epoch 1.
class SeenSamples : public Callback {
 public:
  void on_train_step_end(Trainer& trainer, const BatchOutput&, const data::Example& batch,
                         int64_t) override {
    if (trainer.run_history().current_epoch() == 1) seen.push_back(batch.data.select(1, 0));
  }
  std::vector<Tensor> seen;
};

TEST(TrainerAcrossProcesses, TrainSharesAreDisjointAndPaddedEvenly) {
  // 11 samples whose feature is their index: shares of 6 and 6, one sample seen twice.
  Tensor x = arange(0, 11, 1, kFloat64).reshape({11, 1}).expand({11, 4}).contiguous();
  auto dataset = std::make_shared<data::TensorDataset>(x, zeros({11, 1}, kFloat64));
  auto seen = std::make_shared<SeenSamples>();
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {seen});
  trainer.train({.train_dataset = dataset, .num_epochs = 1, .per_device_batch_size = 3});
  const Tensor mine = cat(seen->seen, 0);
  EXPECT_EQ(mine.size(0), 6);
  const Tensor all = trainer.gather(mine);
  std::vector<double> indices(all.data_ptr<double>(), all.data_ptr<double>() + all.numel());
  std::sort(indices.begin(), indices.end());
  const std::vector<double> every = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  // The wrap repeats the epoch order's first sample; which one that is depends on the shuffle.
  std::vector<double> unique = indices;
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  EXPECT_EQ(unique.size(), 11u);
  EXPECT_EQ(indices.size(), every.size());
}

TEST(TrainerAcrossProcesses, GatherRemovesThePadding) {
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model));
  const int rank = group().rank();
  const Tensor mine = full({rank + 1, 2}, static_cast<double>(rank), kFloat64);
  const Tensor all = trainer.gather(mine, /*padding_value=*/-1.0);
  EXPECT_TRUE(equal(all, tensor({0.0, 0.0, 1.0, 1.0, 1.0, 1.0}).reshape({3, 2})));
  expect_error_containing([&] { trainer.gather(mine); }, "the ranks' inputs differ");
}

TEST(TrainerAcrossProcesses, EvaluationEqualsOneProcess) {
  auto evaluate = [](std::shared_ptr<Accelerator> accelerator, int64_t batch) {
    nn::Linear model = testing::linear_model(8);
    Trainer trainer(model, nn::MSELoss(), nullptr, {}, std::make_shared<InMemoryRunHistory>(),
                    std::move(accelerator));
    trainer.evaluate(
        {.dataset = testing::regression_dataset(13, 9), .per_device_batch_size = batch});
    return trainer.run_history().get_latest_metric("evaluation_loss");
  };
  EXPECT_NEAR(evaluate(nullptr, 3), evaluate(one_process(), 3), 1e-12);
}

TEST(TrainerAcrossProcesses, AnEvalBatchLargerThanTheEvalSetIsAnError) {
  nn::Linear model = testing::linear_model(8);
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {},
                  std::make_shared<InMemoryRunHistory>());
  expect_error_containing(
      [&] {
        trainer.train({.train_dataset = testing::regression_dataset(8),
                       .num_epochs = 1,
                       .eval_dataset = testing::regression_dataset(5),
                       .per_device_batch_size = 3});
      },
      "the eval batch across all processes (6) is larger than the eval dataset (5)");
  expect_error_containing(
      [&] {
        trainer.evaluate({.dataset = testing::regression_dataset(5), .per_device_batch_size = 3});
      },
      "is larger than the eval dataset (5)");
}

TEST(TrainerAcrossProcesses, CheckpointsAreWrittenOnceAndFailuresSeenEverywhere) {
  const std::string dir = shared_temp_dir("checkpoint");
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model));
  trainer.save_checkpoint(dir);
  EXPECT_TRUE(std::filesystem::exists(dir + "/model.safetensors"));
  trainer.load_checkpoint(dir);

  // A path under a regular file cannot be written: rank 0 says why, the others that it failed.
  const std::string file = shared_temp_dir("not_a_directory");
  if (group().rank() == 0) std::ofstream(file) << "x";
  group().barrier()->wait();
  expect_error_containing([&] { trainer.save_checkpoint(file + "/checkpoint"); },
                          group().rank() == 0 ? "" : "rank 0 failed to write the files");
}

Result dropout_run(uint64_t init_seed, std::shared_ptr<Callback> callback,
                   std::optional<std::string> resume_from) {
  manual_seed(init_seed);
  DropoutModel model;
  model->to(kFloat64);
  std::vector<std::shared_ptr<Callback>> callbacks;
  if (callback) callbacks.push_back(callback);
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model, 0.02, 0.9), callbacks);
  trainer.train({.train_dataset = testing::regression_dataset(40),
                 .num_epochs = 3,
                 .eval_dataset = testing::regression_dataset(10, 5),
                 .per_device_batch_size = 2,
                 .gradient_accumulation_steps = 2,
                 .resume_from = resume_from});
  return {testing::snapshot(*model), trainer.run_history().get_metric_values("train_loss_epoch"),
          trainer.run_history().get_metric_values("eval_loss_epoch")};
}

// Shuffled shares, dropout drawing from each process's own generator, accumulation: the
// resumed run must restore every process's position, not only rank 0's.
TEST(TrainerAcrossProcesses, ResumesBitForBit) {
  const std::string dir = shared_temp_dir("resume");
  // 10 batches per process and epoch, 5 updates: update 7 is mid-way through epoch 2.
  const Result uninterrupted = dropout_run(11, std::make_shared<SaveAtStep>(7, dir), std::nullopt);
  const Result resumed = dropout_run(99, nullptr, dir);
  EXPECT_TRUE(testing::bit_identical(resumed.weights, uninterrupted.weights));
  EXPECT_EQ(resumed.train_losses, uninterrupted.train_losses);
  EXPECT_EQ(resumed.eval_losses, uninterrupted.eval_losses);
}

TEST(TrainerAcrossProcesses, AStateOfAnotherProcessCountIsAnError) {
  const std::string dir = shared_temp_dir("one_process_state");
  if (group().rank() == 0) {
    manual_seed(1);
    DropoutModel model;
    model->to(kFloat64);
    Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {},
                    std::make_shared<InMemoryRunHistory>(), one_process());
    trainer.train({.train_dataset = testing::regression_dataset(8),
                   .num_epochs = 1,
                   .per_device_batch_size = 2});
    trainer.save_training_state(dir);
  }
  group().barrier()->wait();
  expect_error_containing([&] { dropout_run(1, nullptr, dir); },
                          "was saved by a run of 1 process(es) but this run has 2");
}

}  // namespace
}  // namespace accel
