// The shared pieces of the indexing ops (core/ops/index_support.h): argument checks and the
// gather / scatter kernels run over the index's shape.
#include "accel/core/ops/index_support.h"

#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

// The strides of `t` with the one along `dim` zeroed: the base an index along dim offsets.
DimVector strides_without(const Tensor& t, int64_t dim) {
  DimVector strides(t.strides());
  strides[dim] = 0;
  return strides;
}

char* bytes(const Tensor& t) { return static_cast<char*>(t.data_ptr()); }

}  // namespace

void check_index(const Tensor& self, const Tensor& index, const char* op) {
  ACCEL_CHECK(index.defined(), op, "the index tensor is undefined");
  ACCEL_CHECK(index.dtype() == kInt64 || index.dtype() == kInt32, op,
              "expected dtype int64 or int32 for index, got {}", index.dtype());
  check_same_device(self, index, op);
}

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

Tensor gather_values(const char* name, const Tensor& input, int64_t dim, const Tensor& index) {
  Tensor out = empty(index.sizes(), input.options());
  const DimVector in_strides = strides_without(input, dim);
  const Loop<3> loop(index.sizes(), {bytes(out), bytes(input), bytes(index)},
                     {out.strides(), in_strides, index.strides()},
                     {out.element_size(), input.element_size(), index.element_size()});
  backend(input.device())
      .gather(input.dtype(), index.dtype(), loop, input.stride(dim) * input.element_size(),
              input.size(dim), {name, dim}, current_stream(input.device()));
  return out;
}

void scatter_into(const char* name, math::ScatterReduce op, const Tensor& self, int64_t dim,
                  const Tensor& index, const Tensor& src) {
  const DimVector self_strides = strides_without(self, dim);
  const Loop<3> loop(index.sizes(), {bytes(self), bytes(src), bytes(index)},
                     {self_strides, src.strides(), index.strides()},
                     {self.element_size(), src.element_size(), index.element_size()});
  backend(self.device())
      .scatter(op, self.dtype(), index.dtype(), loop, self.stride(dim) * self.element_size(),
               self.size(dim), {name, dim}, current_stream(self.device()));
}

Tensor scattered(const char* name, math::ScatterReduce op, const Tensor& self, int64_t dim,
                 const Tensor& index, const Tensor& src) {
  Tensor out = self.detach().clone();
  scatter_into(name, op, out, dim, index, src);
  return out;
}

Tensor scatter_recorded(const char* name, math::ScatterReduce op, const Tensor& self, int64_t dim,
                        const Tensor& index, const Tensor& src, const Tensor& recorded_src) {
  Tensor out = scattered(name, op, self, dim, index, src);
  if (autograd::should_record(self, recorded_src)) {
    autograd::record(
        name, {self, recorded_src}, out,
        [name, op, dim, saved = autograd::SavedTensor(index), src_sizes = DimVector(src.sizes())](
            const Tensor& grad, autograd::GradInputs& g) {
          const Tensor& index = saved.get();
          if (g.needs(0)) {
            g[0] = op == math::ScatterReduce::Assign ? scatter(grad, dim, index, 0) : grad;
          }
          if (g.needs(1)) g[1] = pad_to(gather_values(name, grad, dim, index), src_sizes);
        });
  }
  return out;
}

Tensor scatter_add_into_zeros(const char* name, IntArrayRef sizes, int64_t dim, const Tensor& index,
                              const Tensor& grad) {
  Tensor result = zeros(sizes, grad.options());
  scatter_into(name, math::ScatterReduce::Sum, result, dim, index, grad);
  return result;
}

Tensor spread_index(const Tensor& index, int64_t dim, IntArrayRef sizes) {
  DimVector shape(sizes.size(), 1);
  shape[dim] = index.numel();
  return index.reshape(shape).expand(sizes);
}

Tensor pad_to(const Tensor& grad, IntArrayRef sizes) {
  if (grad.sizes() == sizes) return grad;
  Tensor out = zeros(sizes, grad.options());
  Tensor block = out;
  for (int64_t d = 0; d < grad.dim(); ++d) block = block.narrow(d, 0, grad.size(d));
  block.copy_(grad);
  return out;
}

}  // namespace accel
