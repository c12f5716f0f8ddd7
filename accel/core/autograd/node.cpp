// Graph building blocks: node identity, gradient edges, in-place checks, and the leaf
// accumulator that sums gradients into grad() in place.
#include "accel/core/autograd/node.h"

#include "accel/core/autograd/function.h"
#include "accel/core/ops.h"

namespace accel::autograd {

namespace {
thread_local uint64_t next_sequence_nr = 0;
thread_local bool grad_mode_enabled = true;

// Whether `g` can become leaf.grad() without a copy: nothing else refers to its memory.
bool can_adopt(const Tensor& g, const TensorImpl& leaf) {
  return g.impl_ptr().use_count() == 1 && g.storage().use_count() == 1 && g.is_contiguous() &&
         g.dtype() == leaf.dtype && g.storage_offset() == 0 && g.impl()->grad_fn == nullptr;
}
}  // namespace

Node::Node(const char* name) : name_(name), sequence_nr_(next_sequence_nr++) {}

AccumulateGrad::AccumulateGrad(const std::shared_ptr<TensorImpl>& leaf)
    : Node("AccumulateGrad"), leaf_(leaf) {
  // Run as soon as ready, so a leaf's post-accumulate hooks fire early in the backward.
  num_outputs = 1;
}

void AccumulateGrad::apply(GradVector& grad_outputs, GradInputs&) {
  std::shared_ptr<TensorImpl> impl = leaf_.lock();
  if (!impl) return;  // the leaf is gone: nobody can read its gradient
  Tensor leaf(impl);
  AutogradMeta& meta = impl->autograd();
  Tensor grad = std::move(grad_outputs[0]);
  for (const TensorHook& hook : meta.hooks) {
    Tensor replaced = hook(grad);
    if (replaced.defined()) grad = std::move(replaced);
  }
  ACCEL_CHECK(grad.sizes() == leaf.sizes(), "backward",
              "gradient of shape {} does not match the leaf's shape {}", grad.sizes(),
              leaf.sizes());
  if (!meta.grad.defined()) {
    meta.grad = can_adopt(grad, *impl) ? grad : grad.to(impl->dtype).contiguous().clone();
  } else {
    meta.grad.add_(grad);
  }
  for (const PostAccumulateGradHook& hook : meta.post_accumulate_hooks) hook(leaf);
}

bool should_record(TensorList inputs) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor& t : inputs) {
    if (requires_grad(t)) return true;
  }
  return false;
}

Edge gradient_edge(const Tensor& t) {
  if (!t.defined()) return {};
  TensorImpl* impl = t.impl();
  if (impl->grad_fn) return {impl->grad_fn, impl->output_nr};
  if (!impl->requires_grad) return {};
  AutogradMeta& meta = impl->autograd();
  if (!meta.grad_accumulator)
    meta.grad_accumulator = std::make_shared<AccumulateGrad>(t.impl_ptr());
  return {meta.grad_accumulator, 0};
}

void set_history(const Tensor& output, std::shared_ptr<Node> node, uint32_t output_nr) {
  TensorImpl* impl = output.impl();
  impl->grad_fn = std::move(node);
  impl->output_nr = output_nr;
  impl->requires_grad = false;
}

void check_inplace(const Tensor& self, bool other_requires_grad, const char* op) {
  if (!GradMode::is_enabled()) return;
  const TensorImpl* impl = self.impl();
  ACCEL_CHECK(!(impl->requires_grad && impl->grad_fn == nullptr), op,
              "a leaf tensor that requires grad (shape {}) is used in an in-place operation; "
              "modify it inside a NoGradGuard scope",
              self.sizes());
  ACCEL_CHECK(!(impl->is_view && (self.requires_grad() || other_requires_grad)), op,
              "in-place modification of a view (shape {}) that takes part in autograd is not "
              "supported; modify a clone() or the base tensor instead",
              self.sizes());
}

Tensor InputInfo::reduce(const Tensor& grad) const {
  Tensor g = grad.sizes() == IntArrayRef(sizes) ? grad : sum_to(grad, sizes);
  return g.dtype() == dtype ? g : g.to(dtype);
}

void SavedTensor::fail_modified() const {
  throw SavedTensorModified(fmt::format(
      "one of the tensors needed for gradient computation (shape {}) has been modified by an "
      "in-place operation: its version is {}, expected {}",
      data_.sizes(), data_.version(), version_));
}

}  // namespace accel::autograd

namespace accel {
bool GradMode::is_enabled() { return autograd::grad_mode_enabled; }
void GradMode::set_enabled(bool enabled) { autograd::grad_mode_enabled = enabled; }
}  // namespace accel
