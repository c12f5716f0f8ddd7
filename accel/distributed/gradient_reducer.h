// GradientReducer: DistributedDataParallel's engine. Parameters are packed into buckets in
// reverse registration order (roughly the order backward produces their gradients); each
// parameter's post-accumulate-grad hook copies its gradient into its bucket, and a bucket whose
// gradients are all in is averaged across processes at once, on the group's worker, while
// backward goes on. Buckets are launched strictly in index order, so every process issues the
// same collectives in the same sequence whatever order its gradients arrive in. At the end of
// the backward pass the reducer waits for the buckets and writes the averages back into .grad.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "accel/core/tensor.h"
#include "accel/distributed/process_group.h"

namespace accel::distributed {

struct GradientReducerOptions {
  int64_t bucket_bytes = 25 << 20;
  // The first bucket is kept small so the first reduction starts early (as PyTorch does).
  int64_t first_bucket_bytes = 1 << 20;
  bool find_unused_parameters = false;
  // Called after each synchronized backward pass, once the gradients are written back.
  std::function<void()> after_pass;
};

class GradientReducer : public std::enable_shared_from_this<GradientReducer> {
 public:
  // `names[i]` names `parameters[i]` in errors. Call install_hooks() once made.
  GradientReducer(std::vector<Tensor> parameters, std::vector<std::string> names,
                  std::shared_ptr<ProcessGroup> group, GradientReducerOptions options);
  // Registers the hooks; they hold the reducer weakly, so they do nothing once it is gone.
  void install_hooks();

  // While false, backward passes leave gradients local (no_sync: gradient accumulation).
  void set_sync(bool sync) { sync_ = sync; }
  bool sync() const { return sync_; }

  int64_t num_buckets() const { return static_cast<int64_t>(buckets_.size()); }
  // The parameter indices of each bucket, in bucket order.
  std::vector<std::vector<size_t>> bucket_layout() const;

 private:
  struct Slot {
    size_t bucket;
    int64_t offset;  // in elements, into the bucket's buffer
  };
  struct Bucket {
    std::vector<size_t> parameters;
    Tensor buffer;  // flat, the parameters' dtype and device
    size_t pending = 0;
    std::shared_ptr<Work> work;
  };

  void on_gradient(size_t index);
  void start_pass();
  void launch_ready_buckets();
  void finish_pass();
  void write_back(const Tensor& used_anywhere);

  std::vector<Tensor> parameters_;
  std::vector<std::string> names_;
  std::shared_ptr<ProcessGroup> group_;
  GradientReducerOptions options_;
  std::vector<Slot> slots_;
  std::vector<Bucket> buckets_;
  bool sync_ = true;

  // The current backward pass.
  bool in_pass_ = false;
  std::vector<bool> ready_;
  size_t next_bucket_ = 0;
};

}  // namespace accel::distributed
