// Bucket assignment, the per-gradient hook, in-order launches and the end-of-backward wait.
#include "accel/distributed/gradient_reducer.h"

#include <fmt/format.h>

#include <algorithm>

#include "accel/base/error.h"
#include "accel/core/autograd/engine.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"

namespace accel::distributed {
namespace {

constexpr const char* kOp = "DistributedDataParallel";

// "a, b, c" for at most `limit` names, then "and N more".
std::string name_list(const std::vector<std::string>& names, size_t limit = 10) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < limit; ++i) text += (i ? ", " : "") + names[i];
  if (names.size() > limit) text += fmt::format(" and {} more", names.size() - limit);
  return text;
}

}  // namespace

GradientReducer::GradientReducer(std::vector<Tensor> parameters, std::vector<std::string> names,
                                 std::shared_ptr<ProcessGroup> group,
                                 GradientReducerOptions options)
    : parameters_(std::move(parameters)),
      names_(std::move(names)),
      group_(std::move(group)),
      options_(options),
      slots_(parameters_.size()) {
  ACCEL_CHECK(options_.bucket_bytes > 0 && options_.first_bucket_bytes > 0, kOp,
              "bucket sizes must be positive, got {} and {} bytes", options_.bucket_bytes,
              options_.first_bucket_bytes);
  // Reverse order; a new bucket when the dtype or device changes or the bucket is full.
  int64_t bucket_bytes = 0;
  for (size_t i = parameters_.size(); i-- > 0;) {
    const Tensor& p = parameters_[i];
    const int64_t cap = buckets_.size() <= 1
                            ? std::min(options_.first_bucket_bytes, options_.bucket_bytes)
                            : options_.bucket_bytes;
    const bool fits = !buckets_.empty() && bucket_bytes < cap &&
                      parameters_[buckets_.back().parameters.front()].dtype() == p.dtype() &&
                      parameters_[buckets_.back().parameters.front()].device() == p.device();
    if (!fits) {
      buckets_.emplace_back();
      bucket_bytes = 0;
    }
    buckets_.back().parameters.push_back(i);
    bucket_bytes += p.nbytes();
  }
  for (size_t b = 0; b < buckets_.size(); ++b) {
    int64_t numel = 0;
    for (size_t i : buckets_[b].parameters) {
      slots_[i] = {b, numel};
      numel += parameters_[i].numel();
    }
    const Tensor& first = parameters_[buckets_[b].parameters.front()];
    buckets_[b].buffer = zeros({numel}, first.options());
  }
  ready_.assign(parameters_.size(), false);
}

void GradientReducer::install_hooks() {
  std::weak_ptr<GradientReducer> weak = weak_from_this();
  for (size_t i = 0; i < parameters_.size(); ++i) {
    parameters_[i].register_post_accumulate_grad_hook([weak, i](const Tensor&) {
      if (auto reducer = weak.lock()) reducer->on_gradient(i);
    });
  }
}

std::vector<std::vector<size_t>> GradientReducer::bucket_layout() const {
  std::vector<std::vector<size_t>> layout;
  for (const Bucket& bucket : buckets_) layout.push_back(bucket.parameters);
  return layout;
}

void GradientReducer::start_pass() {
  in_pass_ = true;
  ready_.assign(parameters_.size(), false);
  next_bucket_ = 0;
  for (Bucket& bucket : buckets_) {
    bucket.pending = bucket.parameters.size();
    bucket.work = nullptr;
  }
  std::weak_ptr<GradientReducer> weak = weak_from_this();
  autograd::queue_callback([weak] {
    if (auto reducer = weak.lock()) reducer->finish_pass();
  });
}

void GradientReducer::on_gradient(size_t index) {
  if (!sync_) return;
  if (!in_pass_) start_pass();
  ACCEL_CHECK(!ready_[index], kOp, "parameter {} received two gradients in one backward pass",
              names_[index]);
  const Tensor& p = parameters_[index];
  const Slot slot = slots_[index];
  {
    NoGradGuard no_grad;
    buckets_[slot.bucket]
        .buffer.slice(0, slot.offset, slot.offset + p.numel())
        .copy_(p.grad().reshape({-1}));
  }
  ready_[index] = true;
  if (--buckets_[slot.bucket].pending == 0) launch_ready_buckets();
}

void GradientReducer::launch_ready_buckets() {
  while (next_bucket_ < buckets_.size() && buckets_[next_bucket_].pending == 0) {
    Bucket& bucket = buckets_[next_bucket_++];
    bucket.work = group_->all_reduce(bucket.buffer, ReduceOp::Mean);
  }
}

void GradientReducer::finish_pass() {
  in_pass_ = false;
  std::vector<std::string> unused;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    if (!ready_[i]) unused.push_back(names_[i]);
  }
  Tensor used_anywhere;
  if (options_.find_unused_parameters) {
    // An unused parameter contributes zeros; the processes then learn which were used
    // anywhere, and a parameter none used keeps its gradient as it was. Every process joins
    // this exchange in every pass, whether or not it left a parameter unused itself: which
    // collectives a process issues must not depend on its own data.
    used_anywhere = zeros({static_cast<int64_t>(parameters_.size())}, kUInt8);
    uint8_t* used = used_anywhere.data_ptr<uint8_t>();
    for (size_t i = 0; i < parameters_.size(); ++i) {
      used[i] = ready_[i] ? 1 : 0;
      if (ready_[i]) continue;
      const Slot slot = slots_[i];
      buckets_[slot.bucket]
          .buffer.slice(0, slot.offset, slot.offset + parameters_[i].numel())
          .zero_();
      ready_[i] = true;
      --buckets_[slot.bucket].pending;
    }
    launch_ready_buckets();
    Tensor used_on_group = used_anywhere.to(group_->device());
    group_->all_reduce(used_on_group, ReduceOp::Max)->wait();
    used_anywhere = used_on_group.to(Device(kCPU));
  }
  for (Bucket& bucket : buckets_) {
    if (bucket.work) bucket.work->wait();
  }
  ACCEL_CHECK(unused.empty() || options_.find_unused_parameters, kOp,
              "{} parameter(s) received no gradient in this backward pass: {}. Every parameter "
              "must take part in the loss, or construct DistributedDataParallel with "
              "find_unused_parameters = true",
              unused.size(), name_list(unused));
  write_back(used_anywhere);
  if (options_.after_pass) options_.after_pass();
}

void GradientReducer::write_back(const Tensor& used_anywhere) {
  NoGradGuard no_grad;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    if (used_anywhere.defined() && used_anywhere.data_ptr<uint8_t>()[i] == 0) continue;
    Tensor& p = parameters_[i];
    const Slot slot = slots_[i];
    const Tensor averaged =
        buckets_[slot.bucket].buffer.slice(0, slot.offset, slot.offset + p.numel()).view(p.sizes());
    if (p.grad().defined()) {
      p.mutable_grad().copy_(averaged);
    } else {
      p.set_grad(averaged.clone());
    }
  }
}

}  // namespace accel::distributed
