// DistributedDataParallel: data-parallel training of one model replica per process, as
// torch.nn.parallel.DistributedDataParallel. At construction every process gets rank 0's
// parameters and buffers (after checking that all processes hold the same model); from then on
// each backward pass averages the gradients across processes in buckets that are reduced while
// backward is still running, so every replica takes the same optimizer step. Buffers (batch
// norm's running statistics) are broadcast from rank 0 after each synchronized backward.
//
//   distributed::DistributedDataParallel ddp(*model);   // the default process group
//   auto loss = loss_fn(model(x), y);                   // the model is used as before
//   loss.backward();                                    // gradients are now averaged
//   { auto guard = ddp.no_sync(); micro_loss.backward(); }  // accumulate locally
#pragma once

#include <memory>

#include "accel/distributed/gradient_reducer.h"
#include "accel/distributed/process_group.h"
#include "accel/nn/module.h"

namespace accel::distributed {

struct DistributedDataParallelOptions {
  double bucket_cap_mb = 25;
  // Parameters that take no part in a loss are an error unless this is set (then they count as
  // zero gradients, at the cost of one more small reduction per step).
  bool find_unused_parameters = false;
  bool broadcast_buffers = true;
};

class DistributedDataParallel {
 public:
  // The process group defaults to the process's default group (init_process_group()).
  explicit DistributedDataParallel(nn::Module& module,
                                   std::shared_ptr<ProcessGroup> group = nullptr,
                                   DistributedDataParallelOptions options = {});
  DistributedDataParallel(const DistributedDataParallel&) = delete;
  DistributedDataParallel& operator=(const DistributedDataParallel&) = delete;

  nn::Module& module() const { return module_; }
  ProcessGroup& process_group() const { return *group_; }

  // While alive, backward passes accumulate gradients locally; the first backward after it
  // averages the accumulated gradients.
  class [[maybe_unused]] NoSync {
   public:
    explicit NoSync(DistributedDataParallel& ddp);
    ~NoSync();
    NoSync(const NoSync&) = delete;
    NoSync& operator=(const NoSync&) = delete;

   private:
    GradientReducer& reducer_;
    bool previous_;
  };
  [[nodiscard]] NoSync no_sync() { return NoSync(*this); }

  // Gradient buckets, each a list of parameter indices (registration order), in launch order.
  std::vector<std::vector<size_t>> bucket_layout() const { return reducer_->bucket_layout(); }

 private:
  void check_same_model_everywhere() const;
  void broadcast_state_from_rank0() const;

  nn::Module& module_;
  std::shared_ptr<ProcessGroup> group_;
  DistributedDataParallelOptions options_;
  std::shared_ptr<GradientReducer> reducer_;
};

}  // namespace accel::distributed
