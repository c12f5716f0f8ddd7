// Indexing along one dim: index_select, gather and scatter_add, with their gradients.
// Each gradient is the other kernel: gather's is scatter_add into zeros and scatter_add's is
// gather; index_select runs both kernels over its 1-D index broadcast to the output's shape.
// index_add, index_copy and index_fill are composed of scatter_add and masked_fill.
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::InputInfo;
using autograd::SavedTensor;

namespace {

void check_index(const Tensor& self, const Tensor& index, const char* op) {
  ACCEL_CHECK(index.defined(), op, "the index tensor is undefined");
  ACCEL_CHECK(index.dtype() == kInt64 || index.dtype() == kInt32, op,
              "expected dtype int64 or int32 for index, got {}", index.dtype());
  check_same_device(self, index, op);
}

// The index has self's rank and fits inside self apart from `dim`, and inside src if any.
void check_index_shape(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                       const char* op) {
  ACCEL_CHECK(index.dim() == self.dim(), op,
              "index tensor must have the same number of dimensions as the input tensor: index "
              "{}, input {}",
              index.sizes(), self.sizes());
  for (int64_t d = 0; d < self.dim(); ++d) {
    ACCEL_CHECK(d == dim || index.sizes()[d] <= self.sizes()[d], op,
                "size does not match at dimension {}: expected index {} to be no larger than "
                "self {} apart from dimension {}",
                d, index.sizes(), self.sizes(), dim);
    ACCEL_CHECK(!src || index.sizes()[d] <= src->sizes()[d], op,
                "size does not match at dimension {}: expected index {} to be no larger than "
                "src {}",
                d, index.sizes(), src->sizes());
  }
}

// The strides of `t` with the one along `dim` zeroed: the base an index along dim offsets.
DimVector strides_without(const Tensor& t, int64_t dim) {
  DimVector strides(t.strides());
  strides[dim] = 0;
  return strides;
}

char* bytes(const Tensor& t) { return static_cast<char*>(t.data_ptr()); }

// out[i] = input[index[i] along dim]: a new tensor of the index's shape. No checks.
Tensor gather_values(const Tensor& input, int64_t dim, const Tensor& index) {
  Tensor out = empty(index.sizes(), input.options());
  const DimVector in_strides = strides_without(input, dim);
  const Loop<3> loop(index.sizes(), {bytes(out), bytes(input), bytes(index)},
                     {out.strides(), in_strides, index.strides()},
                     {out.element_size(), input.element_size(), index.element_size()});
  backend(input.device())
      .gather(input.dtype(), index.dtype(), loop, input.stride(dim) * input.element_size(),
              input.size(dim), current_stream(input.device()));
  return out;
}

// self[index[i] along dim] += src[i] in place, for a self no one else sees yet. No checks.
void scatter_add_into(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const DimVector self_strides = strides_without(self, dim);
  const Loop<3> loop(index.sizes(), {bytes(self), bytes(src), bytes(index)},
                     {self_strides, src.strides(), index.strides()},
                     {self.element_size(), src.element_size(), index.element_size()});
  backend(self.device())
      .scatter_add(self.dtype(), index.dtype(), loop, self.stride(dim) * self.element_size(),
                   self.size(dim), current_stream(self.device()));
}

// The gradient of a read by index: `grad` (over the index's shape) summed into zeros of
// `sizes` where it was read from, so repeated indices add up (index_add into zeros).
Tensor scatter_add_into_zeros(IntArrayRef sizes, int64_t dim, const Tensor& index,
                              const Tensor& grad) {
  Tensor result = zeros(sizes, grad.options());
  scatter_add_into(result, dim, index, grad);
  return result;
}

// A 1-D (or 0-dim) index for `dim` broadcast to `sizes`: index_select as a gather.
Tensor spread_index(const Tensor& index, int64_t dim, IntArrayRef sizes) {
  DimVector shape(sizes.size(), 1);
  shape[dim] = index.numel();
  return index.reshape(shape).expand(sizes);
}

// `grad` (over the index's shape) placed in the leading block of zeros of `sizes`.
Tensor pad_to(const Tensor& grad, IntArrayRef sizes) {
  if (grad.sizes() == sizes) return grad;
  Tensor out = zeros(sizes, grad.options());
  Tensor block = out;
  for (int64_t d = 0; d < grad.dim(); ++d) block = block.narrow(d, 0, grad.size(d));
  block.copy_(grad);
  return out;
}

}  // namespace

Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index) {
  check_index(a, index, "index_select");
  ACCEL_CHECK(index.dim() <= 1, "index_select", "index must be 1-D or a scalar, got shape {}",
              index.sizes());
  if (a.dim() == 0) {
    ACCEL_CHECK(index.numel() == 1, "index_select", "a 0-dim input takes exactly one index, got {}",
                index.numel());
    return index_select(a.reshape({1}), dim, index).reshape({});
  }
  const int64_t d = wrap_dim(dim, a.dim(), "index_select");
  check_index_range(index, d, a.size(d), "index_select");
  DimVector out_sizes(a.sizes());
  out_sizes[d] = index.numel();
  const Tensor spread = spread_index(index, d, out_sizes);
  Tensor out = gather_values(a, d, spread);
  if (autograd::should_record(a)) {
    autograd::record(
        "index_select", {a}, out,
        [in = InputInfo(a), d, spread = SavedTensor(spread)](const Tensor& grad, GradInputs& g) {
          g[0] = scatter_add_into_zeros(in.sizes, d, spread.get(), grad);
        });
  }
  return out;
}

Tensor gather(const Tensor& a, int64_t dim, const Tensor& index) {
  check_index(a, index, "gather");
  if (a.dim() == 0 && index.dim() == 0) {
    return gather(a.reshape({1}), dim, index.reshape({1})).reshape({});
  }
  const int64_t d = wrap_dim(dim, a.dim(), "gather");
  check_index_shape(a, d, index, nullptr, "gather");
  check_index_range(index, d, a.size(d), "gather");
  Tensor out = gather_values(a, d, index);
  if (autograd::should_record(a)) {
    autograd::record(
        "gather", {a}, out,
        [in = InputInfo(a), d, saved = SavedTensor(index)](const Tensor& grad, GradInputs& g) {
          g[0] = scatter_add_into_zeros(in.sizes, d, saved.get(), grad);
        });
  }
  return out;
}

Tensor scatter_add(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& src) {
  check_index(a, index, "scatter_add");
  ACCEL_CHECK(src.defined(), "scatter_add", "the src tensor is undefined");
  check_same_device(a, src, "scatter_add");
  ACCEL_CHECK(a.dtype() == src.dtype(), "scatter_add",
              "expected self.dtype to be equal to src.dtype, got {} and {}", a.dtype(),
              src.dtype());
  if (a.dim() == 0 && index.dim() == 0 && src.dim() == 0) {
    return scatter_add(a.reshape({1}), dim, index.reshape({1}), src.reshape({1})).reshape({});
  }
  const int64_t d = wrap_dim(dim, a.dim(), "scatter_add");
  ACCEL_CHECK(src.dim() == a.dim(), "scatter_add",
              "src must have the same number of dimensions as self: src {}, self {}", src.sizes(),
              a.sizes());
  check_index_shape(a, d, index, &src, "scatter_add");
  check_index_range(index, d, a.size(d), "scatter_add");
  Tensor out = a.detach().clone();
  scatter_add_into(out, d, index, src);
  if (autograd::should_record(a, src)) {
    autograd::record("scatter_add", {a, src}, out,
                     [d, saved = SavedTensor(index), src_sizes = DimVector(src.sizes())](
                         const Tensor& grad, GradInputs& g) {
                       if (g.needs(0)) g[0] = grad;
                       if (g.needs(1))
                         g[1] = pad_to(gather_values(grad, d, saved.get()), src_sizes);
                     });
  }
  return out;
}

namespace {

// The checks index_add and index_copy share: a 1-D index into self's `dim` with one entry per
// slice of `source`, which is shaped as self apart from `dim`. Returns the dim, wrapped.
int64_t check_index_source(const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor& source, const char* op) {
  check_index(self, index, op);
  ACCEL_CHECK(index.dim() <= 1, op, "index must be 1-D or a scalar, got shape {}", index.sizes());
  ACCEL_CHECK(source.defined(), op, "the source tensor is undefined");
  check_same_device(self, source, op);
  ACCEL_CHECK(self.dtype() == source.dtype(), op, "expected source of dtype {} (self's), got {}",
              self.dtype(), source.dtype());
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1), op);
  bool shapes_match = source.dim() == self.dim();
  for (int64_t i = 0; shapes_match && i < self.dim(); ++i) {
    shapes_match = source.size(i) == (i == d ? index.numel() : self.size(i));
  }
  ACCEL_CHECK(shapes_match, op,
              "expected source {} to match self {} apart from dim {}, which must hold the "
              "index's {} entries",
              source.sizes(), self.sizes(), d, index.numel());
  check_index_range(index, d, self.dim() == 0 ? 1 : self.size(d), op);
  return d;
}

}  // namespace

Tensor index_add(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha) {
  const int64_t d = check_index_source(a, dim, index, source, "index_add");
  ACCEL_CHECK(a.is_floating_point() || alpha.is_integral(), "index_add",
              "alpha {} must be an integer for a {} tensor", alpha.to_double(), a.dtype());
  if (a.dim() == 0) {
    return index_add(a.reshape({1}), 0, index.reshape({1}), source.reshape({1}), alpha).reshape({});
  }
  const Tensor scaled = alpha.to_double() == 1.0 ? source : mul(source, alpha);
  return scatter_add(a, d, spread_index(index, d, source.sizes()), scaled);
}

Tensor index_copy(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source) {
  const int64_t d = check_index_source(a, dim, index, source, "index_copy");
  if (a.dim() == 0) {
    return index_copy(a.reshape({1}), 0, index.reshape({1}), source.reshape({1})).reshape({});
  }
  return scatter_add(index_fill(a, d, index, 0), d, spread_index(index, d, source.sizes()), source);
}

Tensor index_fill(const Tensor& a, int64_t dim, const Tensor& index, const Scalar& value) {
  check_index(a, index, "index_fill");
  ACCEL_CHECK(index.dim() <= 1, "index_fill", "index must be 1-D or a scalar, got shape {}",
              index.sizes());
  if (a.dim() == 0) return index_fill(a.reshape({1}), dim, index, value).reshape({});
  const int64_t d = wrap_dim(dim, a.dim(), "index_fill");
  check_index_range(index, d, a.size(d), "index_fill");
  // Which slices along d the index names, as a mask broadcasting against a.
  const TensorOptions counts = TensorOptions(kInt64).device(a.device());
  const Tensor flat = index.reshape({-1}).to(kInt64);
  const Tensor hits =
      scatter_add(zeros({a.size(d)}, counts), 0, flat, ones({flat.numel()}, counts));
  DimVector shape(static_cast<size_t>(a.dim()), 1);
  shape[d] = a.size(d);
  return masked_fill(a, gt(hits, 0).reshape(shape), value);
}

Tensor Tensor::index_add(int64_t dim, const Tensor& index, const Tensor& source,
                         const Scalar& alpha) const {
  return accel::index_add(*this, dim, index, source, alpha);
}
Tensor Tensor::index_copy(int64_t dim, const Tensor& index, const Tensor& source) const {
  return accel::index_copy(*this, dim, index, source);
}
Tensor Tensor::index_fill(int64_t dim, const Tensor& index, const Scalar& value) const {
  return accel::index_fill(*this, dim, index, value);
}

Tensor Tensor::index_select(int64_t dim, const Tensor& index) const {
  return accel::index_select(*this, dim, index);
}
Tensor Tensor::gather(int64_t dim, const Tensor& index) const {
  return accel::gather(*this, dim, index);
}
Tensor Tensor::scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const {
  return accel::scatter_add(*this, dim, index, src);
}

}  // namespace accel
