// TensorImpl geometry and the Tensor members that are not ops: element access, autograd
// state (requires_grad, grad, hooks, backward) and detaching.
#include "accel/core/tensor.h"

#include <algorithm>

#include "accel/core/autograd/engine.h"
#include "accel/core/autograd/function.h"
#include "accel/core/object_pool.h"
#include "accel/core/ops.h"

namespace accel {

namespace {
// Writes the row-major strides of `sizes` into `strides` (sizes.size() elements).
void write_contiguous_strides(IntArrayRef sizes, int64_t* strides, const char* op) {
  if (sizes.empty()) return;
  bool overflow = false;
  strides[sizes.size() - 1] = 1;
  for (size_t i = sizes.size() - 1; i-- > 0;) {
    overflow |=
        __builtin_mul_overflow(strides[i + 1], std::max<int64_t>(sizes[i + 1], 1), &strides[i]);
  }
  ACCEL_CHECK(!overflow, op, "the strides of shape {} do not fit int64", sizes);
}
}  // namespace

DimVector contiguous_strides(IntArrayRef sizes, const char* op) {
  DimVector strides(sizes.size());
  write_contiguous_strides(sizes, strides.data(), op);
  return strides;
}

int64_t checked_numel(IntArrayRef sizes, const char* op) {
  int64_t numel = 1;
  bool overflow = false, has_zero = false;
  for (const int64_t size : sizes) {
    overflow |= __builtin_mul_overflow(numel, size, &numel);
    has_zero |= size == 0;
  }
  // A size-0 dimension makes the count 0 however large the others are.
  ACCEL_CHECK(!overflow || has_zero, op, "shape {} has more elements than int64 can count", sizes);
  return numel;
}

bool compute_is_contiguous(IntArrayRef sizes, IntArrayRef strides) {
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 0) return true;
    if (sizes[i] != 1 && strides[i] != expected) return false;
    if (__builtin_mul_overflow(expected, sizes[i], &expected)) {
      // Only a size-0 dimension further left makes such a shape hold any tensor at all.
      return std::find(sizes.begin(), sizes.begin() + i, 0) != sizes.begin() + i;
    }
  }
  return true;
}

TensorImpl::TensorImpl(std::shared_ptr<Storage> storage_, ScalarType dtype_, IntArrayRef sizes_,
                       IntArrayRef strides_, int64_t storage_offset_)
    : storage(std::move(storage_)), dtype(dtype_) {
  set_geometry(sizes_, strides_, storage_offset_);
}

TensorImpl::TensorImpl(std::shared_ptr<Storage> storage_, ScalarType dtype_, IntArrayRef sizes_,
                       int64_t numel_, Contiguous contiguous)
    : storage(std::move(storage_)), sizes(sizes_), numel(numel_), dtype(dtype_) {
  strides.resize(sizes_.size());
  write_contiguous_strides(sizes_, strides.data(), contiguous.op);
}

TensorImpl::~TensorImpl() = default;

void TensorImpl::set_geometry(IntArrayRef sizes_, IntArrayRef strides_, int64_t offset) {
  sizes = sizes_;
  strides = strides_;
  storage_offset = offset;
  numel = checked_numel(sizes_, "Tensor");
  is_contiguous = compute_is_contiguous(sizes_, strides_);
}

AutogradMeta& TensorImpl::autograd() {
  if (!autograd_meta) autograd_meta = std::make_unique<AutogradMeta>();
  return *autograd_meta;
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  const int64_t n = std::max<int64_t>(ndim, 1);
  ACCEL_CHECK(dim >= -n && dim < n, op,
              "dimension out of range (expected to be in range of [{}, {}], but got {})", -n, n - 1,
              dim);
  return dim < 0 ? dim + n : dim;
}

void Tensor::fail_undefined() {
  fail("Tensor",
       "the tensor is undefined (default-constructed or moved from) and has no shape or data; "
       "assign it a factory's or an op's result before using it");
}

Tensor& Tensor::operator=(const Tensor& source) && {
  copy_(source);
  return *this;
}
Tensor& Tensor::operator=(const Scalar& value) && {
  fill_(value);
  return *this;
}

int64_t Tensor::size(int64_t d) const { return sizes()[wrap_dim(d, dim(), "size")]; }
int64_t Tensor::stride(int64_t d) const { return strides()[wrap_dim(d, dim(), "stride")]; }

void Tensor::check_dtype_for_access(ScalarType requested, const char* op) const {
  ACCEL_CHECK(requested == dtype(), op, "requested {} elements from a {} tensor", requested,
              dtype());
}

Scalar Tensor::item() const {
  ACCEL_CHECK(numel() == 1, "item",
              "a Tensor with {} elements (shape {}) cannot be converted to a Scalar", numel(),
              sizes());
  const Tensor host = is_cpu() ? *this : cpu();
  const void* p = host.data_ptr();
  switch (dtype()) {
    case kFloat32:
      return *static_cast<const float*>(p);
    case kFloat64:
      return *static_cast<const double*>(p);
    case kFloat16:
      return *static_cast<const Half*>(p);
    case kBFloat16:
      return *static_cast<const BFloat16*>(p);
    case kInt64:
      return *static_cast<const int64_t*>(p);
    case kInt32:
      return *static_cast<const int32_t*>(p);
    case kUInt8:
      return *static_cast<const uint8_t*>(p);
    case kBool:
      return *static_cast<const bool*>(p);
  }
  fail("item", "unknown dtype");
}

// ---- autograd ----

const Tensor& Tensor::requires_grad_(bool requires_grad) const {
  TensorImpl& impl = const_cast<TensorImpl&>(checked_impl());
  ACCEL_CHECK(impl.grad_fn == nullptr || requires_grad, "requires_grad_",
              "can only change requires_grad of leaf tensors; use detach() to get a tensor "
              "without history");
  ACCEL_CHECK(!requires_grad || accel::is_floating_point(impl.dtype), "requires_grad_",
              "only floating point tensors can require gradients, got {}", impl.dtype);
  if (impl.grad_fn == nullptr) impl.requires_grad = requires_grad;
  return *this;
}

bool Tensor::is_leaf() const { return checked_impl().grad_fn == nullptr; }

const Tensor& Tensor::grad() const {
  static const Tensor undefined;
  const TensorImpl& impl = checked_impl();
  return impl.autograd_meta ? impl.autograd_meta->grad : undefined;
}

Tensor& Tensor::mutable_grad() { return impl_->autograd().grad; }

void Tensor::set_grad(const Tensor& grad) {
  if (grad.defined()) {
    ACCEL_CHECK(grad.sizes() == sizes(), "set_grad",
                "assigned grad has shape {} but the tensor has shape {}", grad.sizes(), sizes());
    ACCEL_CHECK(grad.dtype() == dtype() && grad.device() == device(), "set_grad",
                "assigned grad is {} on {}, but the tensor is {} on {}", grad.dtype(),
                grad.device(), dtype(), device());
  }
  const_cast<TensorImpl&>(checked_impl()).autograd().grad = grad;
}

const std::shared_ptr<autograd::Node>& Tensor::grad_fn() const { return checked_impl().grad_fn; }
uint32_t Tensor::output_nr() const { return checked_impl().output_nr; }

void Tensor::backward(const Tensor& gradient, bool retain_graph) const {
  const Tensor roots[] = {*this};
  if (gradient.defined()) {
    const Tensor grads[] = {gradient};
    autograd::backward(roots, grads, retain_graph);
  } else {
    autograd::backward(roots, {}, retain_graph);
  }
}

void Tensor::register_hook(TensorHook hook) const {
  ACCEL_CHECK(requires_grad(), "register_hook",
              "cannot register a hook on a tensor that doesn't require gradient");
  TensorImpl& impl = const_cast<TensorImpl&>(checked_impl());
  if (impl.grad_fn) {
    impl.grad_fn->output_hooks.emplace_back(impl.output_nr, std::move(hook));
  } else {
    impl.autograd().hooks.push_back(std::move(hook));
  }
}

void Tensor::register_post_accumulate_grad_hook(PostAccumulateGradHook hook) const {
  ACCEL_CHECK(is_leaf() && requires_grad(), "register_post_accumulate_grad_hook",
              "post accumulate grad hooks can only be registered on leaf tensors that require "
              "grad");
  const_cast<TensorImpl&>(checked_impl())
      .autograd()
      .post_accumulate_hooks.push_back(std::move(hook));
}

void Tensor::retain_grad() const {
  ACCEL_CHECK(requires_grad(), "retain_grad",
              "can't retain_grad on a tensor that has requires_grad=false");
  if (is_leaf()) return;  // leaves keep their gradient anyway
  TensorImpl& impl = const_cast<TensorImpl&>(checked_impl());
  AutogradMeta& meta = impl.autograd();
  if (meta.retains_grad) return;
  meta.retains_grad = true;
  std::weak_ptr<TensorImpl> weak = impl_;
  impl.grad_fn->output_hooks.emplace_back(impl.output_nr, [weak](const Tensor& grad) {
    if (auto self = weak.lock()) {
      Tensor& stored = self->autograd().grad;
      stored = stored.defined() ? stored + grad : grad.clone();
    }
    return Tensor();
  });
}

Tensor Tensor::detach() const {
  const TensorImpl& impl = checked_impl();
  auto out = make_pooled<TensorImpl>(impl.storage, impl.dtype, impl.sizes, impl.strides,
                                     impl.storage_offset);
  out->is_view = impl.is_view;
  return Tensor(std::move(out));
}

const Tensor& Tensor::detach_() const {
  TensorImpl& impl = const_cast<TensorImpl&>(checked_impl());
  impl.grad_fn.reset();
  impl.output_nr = 0;
  impl.requires_grad = false;
  return *this;
}

}  // namespace accel
