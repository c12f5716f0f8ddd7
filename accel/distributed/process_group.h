// ProcessGroup: the collective operations data-parallel training needs (all_reduce,
// broadcast, all_gather, barrier), each returning a Work handle to wait on, as
// torch.distributed. Backends: SingleProcessGroup now; MPI and NCCL with the distributed work.
#pragma once

#include <memory>
#include <vector>

#include "accel/core/tensor.h"

namespace accel::distributed {

enum class ReduceOp { Sum, Mean, Max, Min };

// An issued collective. wait() blocks until its results are in the output tensors.
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

  // In place: every rank's `tensor` becomes the reduction over all ranks.
  virtual std::shared_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op = ReduceOp::Sum) = 0;
  // In place: every rank's `tensor` becomes root's.
  virtual std::shared_ptr<Work> broadcast(Tensor& tensor, int root = 0) = 0;
  // outputs[r] receives rank r's `input` (all inputs must have the same shape).
  virtual std::shared_ptr<Work> all_gather(std::vector<Tensor>& outputs, const Tensor& input) = 0;
  virtual std::shared_ptr<Work> barrier() = 0;
};

// One process: reductions and broadcasts leave the tensor as it is, all_gather copies.
class SingleProcessGroup final : public ProcessGroup {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  std::shared_ptr<Work> all_reduce(Tensor& tensor, ReduceOp op = ReduceOp::Sum) override;
  std::shared_ptr<Work> broadcast(Tensor& tensor, int root = 0) override;
  std::shared_ptr<Work> all_gather(std::vector<Tensor>& outputs, const Tensor& input) override;
  std::shared_ptr<Work> barrier() override;
};

}  // namespace accel::distributed
