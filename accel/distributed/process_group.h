// ProcessGroup: the collective operations data-parallel training needs (all_reduce,
// broadcast, all_gather, reduce_scatter, barrier), each returning a Work handle to wait on,
// as torch.distributed. Backends: SingleProcessGroup (one process) and MpiProcessGroup (CPU
// tensors across the processes mpirun starts; mpi_process_group.h).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "accel/core/tensor.h"

namespace accel::distributed {

// Mean is Sum divided by the number of processes (floating-point tensors only). On bool
// tensors Sum and Max are a logical or, Min a logical and.
enum class ReduceOp { Sum, Mean, Max, Min };
std::string_view to_string(ReduceOp op);

// An issued collective. wait() rethrows the collective's error, if any, and makes its results
// visible to the caller: on CPU tensors it blocks until they are in the output tensors; on
// CUDA tensors it orders the caller's current stream after the collective (as PyTorch's NCCL
// work does), so later GPU work sees them without the host waiting.
class Work {
 public:
  virtual ~Work() = default;
  virtual void wait() = 0;
  virtual bool is_completed() const = 0;
};

class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // The rank among the processes of this machine (torchrun's LOCAL_RANK).
  virtual int local_rank() const = 0;
  // Where the tensors this group moves must be: the CPU for MPI, the group's GPU for NCCL.
  // (The one-process group takes tensors on any device and reports the CPU.)
  virtual Device device() const = 0;

  // In place: every rank's `tensor` becomes the reduction over all ranks.
  virtual std::shared_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op = ReduceOp::Sum) = 0;
  // In place: every rank's `tensor` becomes root's.
  virtual std::shared_ptr<Work> broadcast(Tensor& tensor, int root = 0) = 0;
  // outputs becomes size() tensors, outputs[r] receiving rank r's `input` (all inputs must
  // have the same shape and dtype).
  virtual std::shared_ptr<Work> all_gather(std::vector<Tensor>& outputs, const Tensor& input) = 0;
  // inputs holds size() tensors shaped like `output`; rank r's `output` receives the
  // reduction over all ranks of their inputs[r].
  virtual std::shared_ptr<Work> reduce_scatter(Tensor& output, const std::vector<Tensor>& inputs,
                                               ReduceOp op = ReduceOp::Sum) = 0;
  virtual std::shared_ptr<Work> barrier() = 0;
  // Ends every process of the job now with `exit_code`, for a process that failed while the
  // others may be waiting for it in a collective.
  [[noreturn]] virtual void abort(int exit_code) = 0;
};

// One process: reductions and broadcasts leave the tensor as it is, all_gather copies.
class SingleProcessGroup final : public ProcessGroup {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  Device device() const override { return Device(kCPU); }
  std::shared_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op = ReduceOp::Sum) override;
  std::shared_ptr<Work> broadcast(Tensor& tensor, int root = 0) override;
  std::shared_ptr<Work> all_gather(std::vector<Tensor>& outputs, const Tensor& input) override;
  std::shared_ptr<Work> reduce_scatter(Tensor& output, const std::vector<Tensor>& inputs,
                                       ReduceOp op = ReduceOp::Sum) override;
  std::shared_ptr<Work> barrier() override;
  [[noreturn]] void abort(int exit_code) override;
};

}  // namespace accel::distributed
