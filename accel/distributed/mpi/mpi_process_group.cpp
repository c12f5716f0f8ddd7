// MpiProcessGroup: each collective is checked on the caller's thread, then run by the group's
// worker thread as one blocking MPI call on the group's own communicator (a duplicate of
// MPI_COMM_WORLD), directly on the tensors' memory.
#include "accel/distributed/mpi_process_group.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "accel/base/error.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/distributed/collective_checks.h"
#include "accel/distributed/collective_worker.h"
#include "accel/distributed/mpi/mpi_runtime.h"

namespace accel::distributed {
namespace {

MPI_Datatype mpi_datatype(ScalarType dtype) {
  switch (dtype) {
    case kFloat32:
      return MPI_FLOAT;
    case kFloat64:
      return MPI_DOUBLE;
    case kFloat16:
    case kBFloat16:
      return MPI_UINT16_T;  // reduced by the runtime's own operations
    case kInt64:
      return MPI_INT64_T;
    case kInt32:
      return MPI_INT32_T;
    case kUInt8:
      return MPI_UINT8_T;
    case kBool:
      return MPI_C_BOOL;
  }
  fail("MpiProcessGroup", "no MPI type for {}", dtype);
}

MPI_Op mpi_op(ReduceOp op, ScalarType dtype) {
  const int index = op == ReduceOp::Max ? 1 : op == ReduceOp::Min ? 2 : 0;  // Sum, Mean: 0
  if (dtype == kFloat16) return mpi::float16_op(mpi::Float16Kind::Half, index);
  if (dtype == kBFloat16) return mpi::float16_op(mpi::Float16Kind::BFloat16, index);
  if (dtype == kBool) return op == ReduceOp::Min ? MPI_LAND : MPI_LOR;
  return index == 1 ? MPI_MAX : index == 2 ? MPI_MIN : MPI_SUM;
}

// MPI counts are ints.
int element_count(const Tensor& tensor, const char* op) {
  ACCEL_CHECK(tensor.numel() <= INT_MAX, op,
              "MPI moves at most {} elements per collective, got a tensor of {}: split it", INT_MAX,
              tensor.numel());
  return static_cast<int>(tensor.numel());
}

// Sum -> Mean, in place on the worker (no tensor ops there: plain loops over the memory).
template <typename T>
void divide_in_place(const Tensor& tensor, int divisor) {
  T* data = static_cast<T*>(tensor.data_ptr());
  for (int64_t i = 0; i < tensor.numel(); ++i) {
    data[i] = T(static_cast<float>(data[i]) / static_cast<float>(divisor));
  }
}
void divide_in_place_by(const Tensor& tensor, int divisor) {
  switch (tensor.dtype()) {
    case kFloat32:
      return divide_in_place<float>(tensor, divisor);
    case kFloat16:
      return divide_in_place<Half>(tensor, divisor);
    case kBFloat16:
      return divide_in_place<BFloat16>(tensor, divisor);
    case kFloat64: {
      double* data = static_cast<double*>(tensor.data_ptr());
      for (int64_t i = 0; i < tensor.numel(); ++i) data[i] /= divisor;
      return;
    }
    default:
      fail("ProcessGroup", "ReduceOp::Mean on {}", tensor.dtype());  // checked at issue time
  }
}

void check_cpu(const Tensor& tensor, const char* op) {
  ACCEL_CHECK(tensor.is_cpu(), op,
              "the MPI backend moves CPU tensors, got one on {} (CUDA tensors go through the NCCL "
              "backend)",
              tensor.device());
}

std::chrono::milliseconds timeout_from(MpiOptions options) {
  const char* value = std::getenv("ACCEL_DISTRIBUTED_TIMEOUT");
  if (value == nullptr || *value == '\0') return options.timeout;
  char* end = nullptr;
  const long seconds = std::strtol(value, &end, 10);
  ACCEL_CHECK(*end == '\0' && seconds > 0, "distributed::new_mpi_process_group",
              "ACCEL_DISTRIBUTED_TIMEOUT must be a positive whole number of seconds, got '{}'",
              value);
  return std::chrono::seconds(seconds);
}

// A communicator freed when its owner goes (unless MPI has been finalized by then).
struct OwnedComm {
  MPI_Comm comm = MPI_COMM_NULL;
  OwnedComm() = default;
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  ~OwnedComm() {
    if (comm != MPI_COMM_NULL && !mpi::is_finalized()) MPI_Comm_free(&comm);
  }
};

class MpiProcessGroup final : public ProcessGroup {
 public:
  explicit MpiProcessGroup(std::chrono::milliseconds timeout)
      : worker_(timeout, [this](const std::string& message) { abort_on_timeout(message); }) {
    mpi::start(timeout);
    mpi::check(MPI_Comm_dup(MPI_COMM_WORLD, &owned_comm_.comm),
               "distributed::new_mpi_process_group");
    comm_ = owned_comm_.comm;
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    MPI_Comm node = MPI_COMM_NULL;
    mpi::check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
               "distributed::new_mpi_process_group");
    MPI_Comm_rank(node, &local_rank_);
    MPI_Comm_free(&node);
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  Device device() const override { return Device(kCPU); }

  std::shared_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op) override {
    const char* name = "ProcessGroup::all_reduce";
    check_tensor(tensor, name);
    check_reduce_op(op, tensor.dtype(), name);
    const int count = element_count(tensor, name);
    return worker_.submit(name, [=, this] {
      mpi::check(MPI_Allreduce(MPI_IN_PLACE, tensor.data_ptr(), count, mpi_datatype(tensor.dtype()),
                               mpi_op(op, tensor.dtype()), comm_),
                 name);
      if (op == ReduceOp::Mean) divide_in_place_by(tensor, size_);
    });
  }

  std::shared_ptr<Work> broadcast(Tensor& tensor, int root) override {
    const char* name = "ProcessGroup::broadcast";
    check_tensor(tensor, name);
    check_root(root, size_, name);
    const int count = element_count(tensor, name);
    return worker_.submit(name, [=, this] {
      mpi::check(MPI_Bcast(tensor.data_ptr(), count, mpi_datatype(tensor.dtype()), root, comm_),
                 name);
    });
  }

  std::shared_ptr<Work> all_gather(std::vector<Tensor>& outputs, const Tensor& input) override {
    const char* name = "ProcessGroup::all_gather";
    check_tensor(input, name, "input");
    const int count = element_count(input, name);
    const Tensor gathered = gather_destination(input, size_, outputs);
    return worker_.submit(name, [=, this] {
      check_same_input_everywhere(input, name);
      const MPI_Datatype type = mpi_datatype(input.dtype());
      mpi::check(
          MPI_Allgather(input.data_ptr(), count, type, gathered.data_ptr(), count, type, comm_),
          name);
    });
  }

  std::shared_ptr<Work> reduce_scatter(Tensor& output, const std::vector<Tensor>& inputs,
                                       ReduceOp op) override {
    const char* name = "ProcessGroup::reduce_scatter";
    check_scatter_inputs(output, inputs, size_, name);
    check_tensor(output, name, "output");
    check_reduce_op(op, output.dtype(), name);
    const int count = element_count(output, name);
    const Tensor packed = packed_scatter_inputs(inputs);
    return worker_.submit(name, [=, this] {
      mpi::check(
          MPI_Reduce_scatter_block(packed.data_ptr(), output.data_ptr(), count,
                                   mpi_datatype(output.dtype()), mpi_op(op, output.dtype()), comm_),
          name);
      if (op == ReduceOp::Mean) divide_in_place_by(output, size_);
    });
  }

  std::shared_ptr<Work> barrier() override {
    return worker_.submit("ProcessGroup::barrier",
                          [this] { mpi::check(MPI_Barrier(comm_), "ProcessGroup::barrier"); });
  }

  void abort(int exit_code) override { mpi::abort_job(exit_code); }

 private:
  static void check_tensor(const Tensor& tensor, const char* op, const char* what = "tensor") {
    check_collective_tensor(tensor, op, what);
    check_cpu(tensor, op);
  }

  // Ranks that gather tensors of different shapes would read past buffers: compare first.
  void check_same_input_everywhere(const Tensor& input, const char* op) const {
    const int64_t mine[3] = {static_cast<int64_t>(input.dtype()), input.dim(), input.numel()};
    std::vector<int64_t> all(static_cast<size_t>(3 * size_));
    mpi::check(MPI_Allgather(mine, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, comm_), op);
    for (int r = 0; r < size_; ++r) {
      const int64_t* theirs = &all[static_cast<size_t>(3 * r)];
      ACCEL_CHECK(std::equal(mine, mine + 3, theirs), op,
                  "the ranks' inputs differ: rank {} has {} with {} elements in {} dims, rank {} "
                  "has {} with {} elements in {} dims",
                  rank_, input.dtype(), input.numel(), input.dim(), r,
                  static_cast<ScalarType>(theirs[0]), theirs[2], theirs[1]);
    }
  }

  [[noreturn]] void abort_on_timeout(const std::string& message) const {
    std::fprintf(stderr, "accel: rank %d: %s; aborting the job\n", rank_, message.c_str());
    mpi::abort_job(1);
  }

  OwnedComm owned_comm_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  CollectiveWorker worker_;  // last: stopped (its queue run) before the communicator is freed
};

}  // namespace

bool mpi_is_compiled() { return true; }

std::shared_ptr<ProcessGroup> new_mpi_process_group(MpiOptions options) {
  return std::make_shared<MpiProcessGroup>(timeout_from(options));
}

}  // namespace accel::distributed
