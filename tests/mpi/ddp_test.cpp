// DistributedDataParallel under mpirun: the replicas start from rank 0's state, averaged
// gradients match single-process training on the union of the batches, no_sync accumulates
// locally, unused parameters and differing models are clear errors, buffers follow rank 0.
#include <gtest/gtest.h>

#include "accel/accel.h"
#include "accel/distributed/distributed_data_parallel.h"
#include "support/expect_error.h"

namespace accel::distributed {
namespace {

using testing::expect_error_containing;

ProcessGroup& group() { return *default_process_group(); }

nn::Sequential mlp(uint64_t seed) {
  manual_seed(seed);
  return nn::Sequential(nn::Linear(6, 8), nn::ReLU(), nn::Linear(8, 3));
}

// 4 samples per rank; rank r's are rows [4r, 4r + 4) of the union.
struct Batch {
  Tensor x, y;
};
Batch union_batch() {
  Generator generator(11);
  const int64_t n = 4 * group().size();
  return {randn({n, 6}, kFloat32, &generator), randn({n, 3}, kFloat32, &generator)};
}
Batch rank_batch(int rank) {
  const Batch all = union_batch();
  return {all.x.slice(0, 4 * rank, 4 * rank + 4), all.y.slice(0, 4 * rank, 4 * rank + 4)};
}

void expect_close(const std::vector<Tensor>& actual, const std::vector<Tensor>& expected,
                  double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    const double difference = (actual[i] - expected[i]).abs().max().item<double>();
    EXPECT_LE(difference, tolerance) << "tensor " << i;
  }
}

std::vector<Tensor> grads(const nn::Module& model) {
  std::vector<Tensor> out;
  for (const Tensor& p : model.parameters()) out.push_back(p.grad().clone());
  return out;
}

TEST(DistributedDataParallel, StartsFromRankZerosParameters) {
  nn::Sequential model = mlp(100 + group().rank());  // different on every rank
  DistributedDataParallel ddp(*model);
  const nn::Sequential reference = mlp(100);
  expect_close(model->parameters(), reference->parameters(), 0.0);
}

// Two ranks with batch B each follow one process with batch 2B to 1e-6, not bit for bit: the
// one process sums the loss over 2B rows in one matmul, the ranks over B rows each and then
// average, a different order of float additions.
TEST(DistributedDataParallel, TrainsAsOneProcessOnTheUnionBatch) {
  nn::Sequential model = mlp(5);
  nn::Sequential reference = mlp(5);
  DistributedDataParallel ddp(*model, nullptr, {.bucket_cap_mb = 0.0001});  // several buckets
  ASSERT_GT(ddp.bucket_layout().size(), 1u);
  optim::SGD optimizer(model->parameters(), optim::SGDOptions(0.1).momentum(0.9));
  optim::SGD reference_optimizer(reference->parameters(), optim::SGDOptions(0.1).momentum(0.9));
  const Batch mine = rank_batch(group().rank());
  const Batch all = union_batch();
  for (int step = 0; step < 5; ++step) {
    optimizer.zero_grad();
    nn::functional::mse_loss(model->forward(mine.x), mine.y).backward();
    optimizer.step();
    reference_optimizer.zero_grad();
    nn::functional::mse_loss(reference->forward(all.x), all.y).backward();
    reference_optimizer.step();
  }
  expect_close(model->parameters(), reference->parameters(), 1e-6);
}

// Bit for bit where the order is fixed: ranks given the same batch average identical gradients,
// and (g + g) / 2 == g exactly.
TEST(DistributedDataParallel, IdenticalBatchesGiveTheLocalGradientExactly) {
  nn::Sequential model = mlp(9);
  nn::Sequential reference = mlp(9);
  DistributedDataParallel ddp(*model);
  const Batch same = rank_batch(0);
  nn::functional::mse_loss(model->forward(same.x), same.y).backward();
  nn::functional::mse_loss(reference->forward(same.x), same.y).backward();
  if (group().size() == 2) expect_close(grads(*model), grads(*reference), 0.0);
}

TEST(DistributedDataParallel, NoSyncAccumulatesLocallyThenAverages) {
  nn::Sequential model = mlp(3);
  DistributedDataParallel ddp(*model);
  const Batch mine = rank_batch(group().rank());
  const Tensor first_x = mine.x.slice(0, 0, 2), second_x = mine.x.slice(0, 2, 4);
  const Tensor first_y = mine.y.slice(0, 0, 2), second_y = mine.y.slice(0, 2, 4);
  {
    auto guard = ddp.no_sync();
    nn::functional::mse_loss(model->forward(first_x), first_y).backward();
  }
  // Local so far: this rank's own gradient.
  nn::Sequential local = mlp(3);
  nn::functional::mse_loss(local->forward(first_x), first_y).backward();
  expect_close(grads(*model), grads(*local), 0.0);

  nn::functional::mse_loss(model->forward(second_x), second_y).backward();
  // Now the average over ranks of each rank's accumulated micro-batch gradients.
  std::vector<Tensor> expected;
  for (int r = 0; r < group().size(); ++r) {
    const Batch theirs = rank_batch(r);
    nn::Sequential replica = mlp(3);
    nn::functional::mse_loss(replica->forward(theirs.x.slice(0, 0, 2)), theirs.y.slice(0, 0, 2))
        .backward();
    nn::functional::mse_loss(replica->forward(theirs.x.slice(0, 2, 4)), theirs.y.slice(0, 2, 4))
        .backward();
    const std::vector<Tensor> g = grads(*replica);
    if (expected.empty()) {
      expected = g;
    } else {
      for (size_t i = 0; i < g.size(); ++i) expected[i] = expected[i] + g[i];
    }
  }
  for (Tensor& g : expected) g = g / static_cast<double>(group().size());
  expect_close(grads(*model), expected, 1e-6);
}

// A model with a layer the forward pass calls on no process, or on rank 1 only.
struct WithSpareImpl : nn::Module {
  nn::Linear used{nullptr}, spare{nullptr};
  bool spare_on_rank_one;
  explicit WithSpareImpl(bool spare_on_rank_one = false) : spare_on_rank_one(spare_on_rank_one) {
    manual_seed(4);
    used = register_module("used", nn::Linear(6, 3));
    spare = register_module("spare", nn::Linear(6, 3));
  }
  Tensor forward(const Tensor& x) override {
    const Tensor out = used->forward(x);
    return spare_on_rank_one && group().rank() == 1 ? out + spare->forward(x) : out;
  }
};
ACCEL_MODULE(WithSpare);

TEST(DistributedDataParallel, UnusedParametersAreNamedUnlessAllowed) {
  const Batch mine = rank_batch(group().rank());
  {
    WithSpare model;
    DistributedDataParallel ddp(*model);
    expect_error_containing(
        [&] { nn::functional::mse_loss(model->forward(mine.x), mine.y).backward(); },
        "2 parameter(s) received no gradient in this backward pass: spare.weight, spare.bias");
  }
  WithSpare model;
  DistributedDataParallel ddp(*model, nullptr, {.find_unused_parameters = true});
  nn::functional::mse_loss(model->forward(mine.x), mine.y).backward();
  EXPECT_FALSE(model->spare->weight.grad().defined());  // unused everywhere: left alone
  EXPECT_TRUE(model->used->weight.grad().defined());
}

// A layer only rank 1 calls: in each pass every process must still join the exchange of which
// parameters were used, and the layer's gradient averages rank 1's with the others' zeros.
TEST(DistributedDataParallel, AParameterSomeProcessesLeaveUnusedAveragesTheirZeros) {
  ASSERT_GE(group().size(), 2);
  const Batch mine = rank_batch(group().rank());
  WithSpare local(true);  // the same model without DDP: this process's own gradients
  nn::functional::mse_loss(local->forward(mine.x), mine.y).backward();
  Tensor rank_one_grad =
      local->spare->weight.grad().defined() ? local->spare->weight.grad().clone() : zeros({3, 6});
  group().broadcast(rank_one_grad, 1)->wait();

  WithSpare model(true);
  DistributedDataParallel ddp(*model, nullptr, {.find_unused_parameters = true});
  for (int pass = 0; pass < 2; ++pass) {  // a second pass finds any collective left unmatched
    model->zero_grad();
    nn::functional::mse_loss(model->forward(mine.x), mine.y).backward();
    const Tensor expected = rank_one_grad / static_cast<double>(group().size());
    expect_close({model->spare->weight.grad()}, {expected}, 1e-6);
  }
}

TEST(DistributedDataParallel, DifferentModelsAreAnError) {
  manual_seed(1);
  nn::Linear model(6, 3 + group().rank());
  expect_error_containing([&] { DistributedDataParallel ddp(*model); },
                          "the processes hold different models: entry 0 is 'parameter weight "
                          "float32 [3, 6]' on rank 0 but 'parameter weight float32 [4, 6]' on "
                          "rank 1");
}

TEST(DistributedDataParallel, BuffersFollowRankZero) {
  manual_seed(2);
  nn::Sequential model(nn::Linear(6, 4), nn::BatchNorm1d(4));
  DistributedDataParallel ddp(*model);
  const Batch mine = rank_batch(group().rank());
  model->forward(mine.x).sum().backward();  // each rank's statistics differ before the broadcast
  std::vector<Tensor> buffers;
  for (const Tensor& b : model->buffers()) buffers.push_back(b.to(kFloat64).reshape({-1}));
  const Tensor mine_flat = cat(buffers, 0);
  Tensor rank0 = mine_flat.clone();
  group().broadcast(rank0, 0)->wait();
  EXPECT_TRUE(equal(mine_flat, rank0));
}

}  // namespace
}  // namespace accel::distributed
