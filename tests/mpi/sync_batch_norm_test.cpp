// SyncBatchNorm under mpirun: with each process holding part of a batch, the outputs, running
// statistics and gradients equal BatchNorm's on the union batch; ConvertSyncBatchNorm converts
// only when there are several processes; eval mode uses the running statistics locally.
#include <gtest/gtest.h>

#include "accel/accel.h"

namespace accel::distributed {
namespace {

ProcessGroup& group() { return *default_process_group(); }

double max_difference(const Tensor& a, const Tensor& b) {
  return (a - b).abs().max().item<double>();
}

// The union batch, float64: 4 samples per process, 3 channels of 2x2.
Tensor union_input() {
  Generator generator(21);
  return randn({4 * group().size(), 3, 2, 2}, kFloat64, &generator).mul(2.0).add(0.5);
}
Tensor rank_rows(const Tensor& t, int rank) { return t.slice(0, 4 * rank, 4 * rank + 4); }

TEST(SyncBatchNorm, EqualsBatchNormOnTheUnionBatch) {
  const int rank = group().rank();
  nn::BatchNorm2d synced(3), reference(3);
  synced->to(kFloat64);
  reference->to(kFloat64);
  EXPECT_EQ(convert_sync_batchnorm(*synced), 1);
  Generator generator(3);
  const Tensor all = union_input();
  const Tensor upstream = randn(all.sizes(), kFloat64, &generator);  // d loss / d output

  Tensor mine = rank_rows(all, rank).clone().requires_grad_();
  const Tensor out = synced->forward(mine);
  (out * rank_rows(upstream, rank)).sum().backward();
  Tensor whole = all.clone().requires_grad_();
  const Tensor reference_out = reference->forward(whole);
  (reference_out * upstream).sum().backward();  // the sum of every process's loss

  EXPECT_LE(max_difference(out, rank_rows(reference_out, rank)), 1e-12);
  EXPECT_LE(max_difference(synced->running_mean, reference->running_mean), 1e-12);
  EXPECT_LE(max_difference(synced->running_var, reference->running_var), 1e-12);
  EXPECT_LE(max_difference(mine.grad(), rank_rows(whole.grad(), rank)), 1e-12);
  // Each process's affine gradients are its share; summed they are the union's.
  Tensor weight_grad = synced->weight.grad().clone();
  group().all_reduce(weight_grad)->wait();
  EXPECT_LE(max_difference(weight_grad, reference->weight.grad()), 1e-12);

  synced->eval();  // running statistics, no communication
  reference->eval();
  EXPECT_LE(max_difference(synced->forward(rank_rows(all, rank)),
                           reference->forward(rank_rows(all, rank))),
            1e-12);
}

TEST(SyncBatchNorm, TrainsInsideDataParallelModels) {
  manual_seed(6);
  nn::Sequential model(nn::Linear(5, 4), nn::BatchNorm1d(4), nn::ReLU(), nn::Linear(4, 1));
  model->to(kFloat64);
  convert_sync_batchnorm(*model);
  DistributedDataParallel ddp(*model);
  optim::SGD optimizer(model->parameters(), optim::SGDOptions(0.1));
  Generator generator(8 + group().rank());
  for (int step = 0; step < 3; ++step) {
    optimizer.zero_grad();
    model->forward(randn({6, 5}, kFloat64, &generator)).pow(2).mean().backward();
    optimizer.step();
  }
  // Every replica holds the same weights and statistics.
  for (const auto& [name, value] : model->state_dict()) {
    Tensor rank0 = value.to(kFloat64).contiguous().clone();
    group().broadcast(rank0, 0)->wait();
    EXPECT_TRUE(equal(value.to(kFloat64), rank0)) << name;
  }
}

TEST(SyncBatchNorm, TheCallbackConvertsOnlyAcrossProcesses) {
  auto make_trainer = [](nn::Sequential& model, std::shared_ptr<ProcessGroup> group) {
    return std::make_unique<Trainer>(
        model, nn::MSELoss(), nullptr,
        std::vector<std::shared_ptr<Callback>>{std::make_shared<ConvertSyncBatchNorm>()},
        std::make_shared<InMemoryRunHistory>(),
        std::make_shared<Accelerator>(AcceleratorConfig{.process_group = std::move(group)}));
  };
  nn::Sequential across(nn::Linear(2, 3), nn::BatchNorm1d(3));
  auto trainer = make_trainer(across, default_process_group());
  EXPECT_TRUE(static_cast<bool>(
      std::dynamic_pointer_cast<nn::BatchNormImplBase>((*across)[1])->cross_process_sum));
  nn::Sequential alone(nn::Linear(2, 3), nn::BatchNorm1d(3));
  auto local = make_trainer(alone, std::make_shared<SingleProcessGroup>());
  EXPECT_FALSE(static_cast<bool>(
      std::dynamic_pointer_cast<nn::BatchNormImplBase>((*alone)[1])->cross_process_sum));
}

}  // namespace
}  // namespace accel::distributed
