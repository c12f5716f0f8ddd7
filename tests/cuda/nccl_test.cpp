// The NCCL backend in one process on cuda:0: every collective and dtype against values
// computed on the CPU, ordering against the caller's stream, the errors of misuse, and
// DistributedDataParallel over an NCCL group against plain training. Each test skips itself
// without a GPU; several processes are tested by launching a program with torchrun or mpirun.
#include <gtest/gtest.h>

#include <optional>

#include "accel/accel.h"
#include "support/cuda_test.h"
#include "support/expect_error.h"
#include "support/tensor_compare.h"

namespace accel::distributed {
namespace {

using testing::expect_error_containing;
using testing::expect_same_bits;

const Device kGpu(kCUDA, 0);
const std::vector<ScalarType> kAllTypes = {kFloat32, kFloat64, kFloat16, kBFloat16,
                                           kInt64,   kInt32,   kUInt8,   kBool};

// One group for the whole binary (making a communicator takes a while).
ProcessGroup& group() {
  static const std::shared_ptr<ProcessGroup> instance =
      new_nccl_process_group(LaunchEnvironment{}, kGpu);
  return *instance;
}

// Small whole numbers every dtype holds exactly (bool: parity), on the CPU.
Tensor values(ScalarType dtype, int64_t n = 7) {
  std::vector<double> out;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t value = (i * 3) % 5 + 1;
    out.push_back(dtype == kBool ? static_cast<double>(value % 2) : static_cast<double>(value));
  }
  return tensor(out).to(dtype);
}

bool is_floating(ScalarType dtype) { return is_floating_point(dtype); }

TEST(NcclProcessGroup, IsOneProcessOnTheGivenDevice) {
  ACCEL_REQUIRE_CUDA();
  EXPECT_TRUE(nccl_is_compiled());
  EXPECT_EQ(group().rank(), 0);
  EXPECT_EQ(group().size(), 1);
  EXPECT_EQ(group().local_rank(), 0);
}

// With one process every reduction leaves the values as they were (bool ones stay 0 or 1),
// a broadcast keeps them and a gather or scatter copies them: compared with the CPU's values.
TEST(NcclProcessGroup, EveryCollectiveAndDtype) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : kAllTypes) {
    const std::string what = fmt::format("{}", dtype);
    const Tensor expected = values(dtype);
    std::vector<ReduceOp> ops = {ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min};
    if (is_floating(dtype)) ops.push_back(ReduceOp::Mean);
    for (ReduceOp op : ops) {
      Tensor t = expected.to(kGpu);
      group().all_reduce(t, op)->wait();
      expect_same_bits(t, expected, what + " all_reduce " + std::string(to_string(op)));
    }
    Tensor b = expected.to(kGpu);
    group().broadcast(b, 0)->wait();
    expect_same_bits(b, expected, what + " broadcast");

    const Tensor matrix = values(dtype, 12).reshape({3, 4});
    std::vector<Tensor> gathered;
    group().all_gather(gathered, matrix.to(kGpu))->wait();
    ASSERT_EQ(gathered.size(), 1u);
    EXPECT_TRUE(gathered[0].is_cuda());
    expect_same_bits(gathered[0], matrix, what + " all_gather");

    for (ReduceOp op : ops) {
      Tensor output = zeros({3, 4}, TensorOptions(dtype).device(kGpu));
      group().reduce_scatter(output, {matrix.to(kGpu)}, op)->wait();
      expect_same_bits(output, matrix, what + " reduce_scatter " + std::string(to_string(op)));
    }
  }
  group().barrier()->wait();
}

TEST(NcclProcessGroup, EmptyTensorsAreFine) {
  ACCEL_REQUIRE_CUDA();
  Tensor t = empty({0}, TensorOptions(kFloat32).device(kGpu));
  group().all_reduce(t)->wait();
  std::vector<Tensor> gathered;
  group().all_gather(gathered, t)->wait();
  ASSERT_EQ(gathered.size(), 1u);
  EXPECT_EQ(gathered[0].numel(), 0);
}

// A collective sees what the caller's stream computed before it, and the caller's stream sees
// its result after wait(), on the default stream and on a side stream alike.
TEST(NcclProcessGroup, IsOrderedWithTheCallersStream) {
  ACCEL_REQUIRE_CUDA();
  const Tensor x = randn({1 << 20});
  for (bool side_stream : {false, true}) {
    std::optional<StreamGuard> guard;
    if (side_stream) guard.emplace(cuda::stream_from_pool(kGpu));
    Tensor y = x.to(kGpu) * 2.0;  // queued on the current stream, likely still running
    auto work = group().all_reduce(y, ReduceOp::Sum);
    work->wait();
    const Tensor z = y + 1.0;  // ordered after the collective by wait()
    current_stream(kGpu).synchronize();
    EXPECT_TRUE(work->is_completed());
    expect_same_bits(z, x * 2.0 + 1.0, side_stream ? "on a side stream" : "on the default stream");
  }
}

TEST(NcclProcessGroup, MisuseIsAClearError) {
  ACCEL_REQUIRE_CUDA();
  Tensor on_cpu = ones({3});
  expect_error_containing([&] { group().all_reduce(on_cpu); },
                          "ProcessGroup::all_reduce: the NCCL backend moves CUDA tensors, got a "
                          "CPU tensor (CPU tensors go through the MPI backend)");
  expect_error_containing([&] { group().broadcast(on_cpu, 0); }, "moves CUDA tensors");
  std::vector<Tensor> gathered;
  expect_error_containing([&] { group().all_gather(gathered, on_cpu); }, "got a CPU input");
  Tensor output_on_cpu = zeros({3});
  expect_error_containing([&] { group().reduce_scatter(output_on_cpu, {on_cpu}); },
                          "got a CPU output");

  Tensor strided = zeros({4, 6}, TensorOptions(kFloat32).device(kGpu)).transpose(0, 1);
  expect_error_containing([&] { group().all_reduce(strided); }, "expected a contiguous tensor");
  Tensor integers = zeros({3}, TensorOptions(kInt64).device(kGpu));
  expect_error_containing([&] { group().all_reduce(integers, ReduceOp::Mean); },
                          "ReduceOp::Mean needs a floating-point tensor");
  Tensor t = zeros({3}, TensorOptions(kFloat32).device(kGpu));
  expect_error_containing([&] { group().broadcast(t, 1); }, "root must be a rank of the group");
  Tensor output = zeros({3}, TensorOptions(kFloat32).device(kGpu));
  expect_error_containing(
      [&] {
        group().reduce_scatter(output, {t, t});
      },
      "expected one input per rank (1), got 2");
  if (cuda::device_count() > 1) {
    Tensor elsewhere = zeros({3}, TensorOptions(kFloat32).device(Device(kCUDA, 1)));
    expect_error_containing([&] { group().all_reduce(elsewhere); },
                            "the tensor is on cuda:1 but this process's NCCL group uses cuda:0");
  }
  expect_error_containing([] { new_nccl_process_group(LaunchEnvironment{}, Device(kCPU)); },
                          "the NCCL backend needs a CUDA device, got cpu");
  LaunchEnvironment bad_rank;
  bad_rank.rank = 1;
  expect_error_containing([&] { new_nccl_process_group(bad_rank, kGpu); },
                          "rank 1 is not a rank of a world of size 1");
}

TEST(NcclProcessGroup, IsTheChoiceForANcclLaunch) {
  ACCEL_REQUIRE_CUDA();
  const auto made = new_process_group(Backend::Nccl, LaunchEnvironment{});
  EXPECT_EQ(made->size(), 1);
  Tensor t = ones({2}, TensorOptions(kFloat32).device(kGpu));
  made->all_reduce(t)->wait();
  expect_same_bits(t, ones({2}), "through new_process_group");
}

nn::Sequential mlp(uint64_t seed) {
  manual_seed(seed);
  nn::Sequential model(nn::Linear(6, 8), nn::ReLU(), nn::Linear(8, 3));
  model->to(kGpu);
  return model;
}

// One process: the averaged gradient is the local one, so DDP's training follows plain
// training on the GPU (to rounding: NCCL's average of one value may be computed as a product).
TEST(NcclProcessGroup, DistributedDataParallelTrainsAsPlainTraining) {
  ACCEL_REQUIRE_CUDA();
  nn::Sequential model = mlp(5);
  nn::Sequential reference = mlp(5);
  std::shared_ptr<ProcessGroup> nccl = new_nccl_process_group(LaunchEnvironment{}, kGpu);
  DistributedDataParallel ddp(*model, nccl, {.bucket_cap_mb = 0.0001});  // several buckets
  ASSERT_GT(ddp.bucket_layout().size(), 1u);
  optim::SGD optimizer(model->parameters(), optim::SGDOptions(0.1).momentum(0.9));
  optim::SGD reference_optimizer(reference->parameters(), optim::SGDOptions(0.1).momentum(0.9));
  Generator generator(11);
  const Tensor x = randn({8, 6}, kFloat32, &generator).to(kGpu);
  const Tensor y = randn({8, 3}, kFloat32, &generator).to(kGpu);
  for (int step = 0; step < 5; ++step) {
    optimizer.zero_grad();
    nn::functional::mse_loss(model->forward(x), y).backward();
    optimizer.step();
    reference_optimizer.zero_grad();
    nn::functional::mse_loss(reference->forward(x), y).backward();
    reference_optimizer.step();
  }
  const auto trained = model->parameters();
  const auto expected = reference->parameters();
  ASSERT_EQ(trained.size(), expected.size());
  for (size_t i = 0; i < trained.size(); ++i) {
    EXPECT_TRUE(trained[i].is_cuda());
    testing::expect_tensors_close(trained[i], expected[i].to(Device(kCPU)), {1e-6, 1e-7},
                                  fmt::format("parameter {}", i));
  }
}

}  // namespace
}  // namespace accel::distributed
