// The MPI backend under mpirun (two or more processes): every collective and dtype against
// values computed locally from what each rank contributes, asynchronous handles, and the
// errors of misuse. Each rank fills its tensors from its rank number, so every rank knows
// what all the others sent.
#include <gtest/gtest.h>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/distributed/init_process_group.h"
#include "support/expect_error.h"

namespace accel::distributed {
namespace {

using testing::expect_error_containing;

const std::vector<ScalarType> kAllTypes = {kFloat32, kFloat64, kFloat16, kBFloat16,
                                           kInt64,   kInt32,   kUInt8,   kBool};

ProcessGroup& group() { return *default_process_group(); }

// What rank `r` contributes: small whole numbers every dtype holds exactly (bool: parity).
Tensor contribution(int r, ScalarType dtype, int64_t n = 7) {
  std::vector<double> values;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t value = (i * (r + 1)) % 5 + r % 3;
    values.push_back(dtype == kBool ? static_cast<double>(value % 2) : static_cast<double>(value));
  }
  return tensor(values).to(dtype);
}

// The reduction over all ranks' contributions, computed here in float64 (bool: or/and).
Tensor expected_reduction(ReduceOp op, ScalarType dtype, int64_t n = 7) {
  const int size = group().size();
  Tensor result = contribution(0, dtype, n).to(kFloat64);
  for (int r = 1; r < size; ++r) {
    const Tensor next = contribution(r, dtype, n).to(kFloat64);
    switch (op) {
      case ReduceOp::Sum:
      case ReduceOp::Mean:
        result = dtype == kBool ? maximum(result, next) : result + next;
        break;
      case ReduceOp::Max:
        result = maximum(result, next);
        break;
      case ReduceOp::Min:
        result = minimum(result, next);
        break;
    }
  }
  if (op == ReduceOp::Mean) result = result / static_cast<double>(size);
  return result.to(dtype);
}

TEST(MpiCollectives, RunsAcrossSeveralProcesses) {
  ASSERT_GE(group().size(), 2) << "run this test binary under mpirun -np 2";
  EXPECT_GE(group().rank(), 0);
  EXPECT_LT(group().rank(), group().size());
  EXPECT_EQ(get_world_size(), group().size());
  EXPECT_LE(group().local_rank(), group().rank());
}

TEST(MpiCollectives, AllReduceEveryDtypeAndOp) {
  for (ScalarType dtype : kAllTypes) {
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min}) {
      if (op == ReduceOp::Mean && !is_floating_point(dtype)) continue;
      Tensor t = contribution(group().rank(), dtype);
      group().all_reduce(t, op)->wait();
      EXPECT_TRUE(equal(t, expected_reduction(op, dtype)))
          << to_string(dtype) << " " << to_string(op) << ": " << t;
    }
  }
}

TEST(MpiCollectives, BroadcastFromEveryRoot) {
  for (ScalarType dtype : kAllTypes) {
    for (int root = 0; root < group().size(); ++root) {
      Tensor t = contribution(group().rank(), dtype).reshape({7, 1});
      group().broadcast(t, root)->wait();
      EXPECT_TRUE(equal(t, contribution(root, dtype).reshape({7, 1})))
          << to_string(dtype) << " root " << root;
    }
  }
}

TEST(MpiCollectives, AllGatherEveryDtype) {
  for (ScalarType dtype : kAllTypes) {
    std::vector<Tensor> outputs;
    group().all_gather(outputs, contribution(group().rank(), dtype).reshape({1, 7}))->wait();
    ASSERT_EQ(static_cast<int>(outputs.size()), group().size());
    for (int r = 0; r < group().size(); ++r) {
      EXPECT_TRUE(equal(outputs[static_cast<size_t>(r)], contribution(r, dtype).reshape({1, 7})))
          << to_string(dtype) << " from rank " << r;
    }
  }
}

TEST(MpiCollectives, ReduceScatterEveryDtype) {
  const int size = group().size();
  for (ScalarType dtype : kAllTypes) {
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min}) {
      if (op == ReduceOp::Mean && !is_floating_point(dtype)) continue;
      // Rank r sends contribution(r) split in `size` parts of 3; it receives part `rank`.
      const Tensor mine = contribution(group().rank(), dtype, 3 * size);
      std::vector<Tensor> inputs;
      for (int part = 0; part < size; ++part)
        inputs.push_back(mine.slice(0, 3 * part, 3 * part + 3));
      Tensor output = empty({3}, TensorOptions(dtype));
      group().reduce_scatter(output, inputs, op)->wait();
      const int64_t start = 3 * group().rank();
      EXPECT_TRUE(equal(output, expected_reduction(op, dtype, 3 * size).slice(0, start, start + 3)))
          << to_string(dtype) << " " << to_string(op);
    }
  }
}

TEST(MpiCollectives, HandlesCompleteOutOfOrderWaits) {
  std::vector<Tensor> tensors;
  std::vector<std::shared_ptr<Work>> works;
  for (int i = 0; i < 8; ++i) {
    tensors.push_back(full({1000}, static_cast<double>(i + group().rank()), kFloat32));
    works.push_back(group().all_reduce(tensors.back()));
  }
  works.push_back(group().barrier());
  for (auto it = works.rbegin(); it != works.rend(); ++it) (*it)->wait();
  const int size = group().size();
  for (int i = 0; i < 8; ++i) {
    const double sum = size * i + size * (size - 1) / 2.0;
    EXPECT_TRUE(equal(tensors[static_cast<size_t>(i)], full({1000}, sum, kFloat32))) << i;
    EXPECT_TRUE(works[static_cast<size_t>(i)]->is_completed());
  }
}

TEST(MpiCollectives, LargeTensor) {
  Tensor t = full({25'000'000}, 1.0 + group().rank(), kFloat32);  // 100 MB
  group().all_reduce(t, ReduceOp::Sum)->wait();
  const int size = group().size();
  EXPECT_EQ(t.min().item<float>(), size * (size + 1) / 2.0f);
  EXPECT_EQ(t.max().item<float>(), size * (size + 1) / 2.0f);
}

TEST(MpiCollectives, Misuse) {
  Tensor t = zeros({4, 4});
  Tensor ints = zeros({4}, kInt64);
  expect_error_containing([&] { group().all_reduce(ints, ReduceOp::Mean); },
                          "ReduceOp::Mean needs a floating-point tensor, got int64");
  Tensor transposed = t.t();
  expect_error_containing([&] { group().all_reduce(transposed); }, "expected a contiguous tensor");
  Tensor undefined;
  expect_error_containing([&] { group().broadcast(undefined); }, "expected a defined tensor");
  expect_error_containing([&] { group().broadcast(t, group().size()); },
                          "root must be a rank of the group");
  Tensor out = zeros({3});
  expect_error_containing([&] { group().reduce_scatter(out, {zeros({3})}); },
                          "expected one input per rank");
  // Ranks that gather different shapes: every rank learns it from its handle.
  std::vector<Tensor> outputs;
  expect_error_containing([&] { group().all_gather(outputs, zeros({2 + group().rank()}))->wait(); },
                          "the ranks' inputs differ");
  group().barrier()->wait();  // the group is still usable
}

}  // namespace
}  // namespace accel::distributed
