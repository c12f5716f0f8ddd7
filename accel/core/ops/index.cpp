// Reading along one dim by index: index_select and gather, with their gradients (scatter_add
// into zeros); index_select runs gather over its 1-D index broadcast to the output's shape.
// index_add, index_copy and index_fill (1-D indices naming whole slices) are composed of
// scatter_add, scatter and masked_fill; take_along_dim is gather over broadcast operands.
#include "accel/core/ops/index_support.h"
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::InputInfo;
using autograd::SavedTensor;

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
  DimVector out_sizes(a.sizes());
  out_sizes[d] = index.numel();
  const Tensor spread = spread_index(index, d, out_sizes);
  Tensor out = gather_values("index_select", a, d, spread);
  if (autograd::should_record(a)) {
    autograd::record(
        "index_select", {a}, out,
        [in = InputInfo(a), d, spread = SavedTensor(spread)](const Tensor& grad, GradInputs& g) {
          g[0] = scatter_add_into_zeros("index_select", in.sizes, d, spread.get(), grad);
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
  Tensor out = gather_values("gather", a, d, index);
  if (autograd::should_record(a)) {
    autograd::record(
        "gather", {a}, out,
        [in = InputInfo(a), d, saved = SavedTensor(index)](const Tensor& grad, GradInputs& g) {
          g[0] = scatter_add_into_zeros("gather", in.sizes, d, saved.get(), grad);
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
  return scatter_recorded("index_add", math::ScatterReduce::Sum, a, d,
                          spread_index(index, d, source.sizes()), scaled, scaled);
}

Tensor index_copy(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source) {
  const int64_t d = check_index_source(a, dim, index, source, "index_copy");
  if (a.dim() == 0) {
    return index_copy(a.reshape({1}), 0, index.reshape({1}), source.reshape({1})).reshape({});
  }
  return scatter_recorded("index_copy", math::ScatterReduce::Assign, a, d,
                          spread_index(index, d, source.sizes()), source, source);
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

Tensor take_along_dim(const Tensor& a, const Tensor& indices, std::optional<int64_t> dim) {
  ACCEL_CHECK(indices.dtype() == kInt64, "take_along_dim", "expected int64 indices, got {}",
              to_string(indices.dtype()));
  if (!dim) return gather(a.flatten(), 0, indices.flatten());
  ACCEL_CHECK(a.dim() == indices.dim(), "take_along_dim",
              "expected input and indices with as many dims, got shapes {} and {}", a.sizes(),
              indices.sizes());
  const int64_t d = wrap_dim(*dim, a.dim(), "take_along_dim");
  // The dims other than d broadcast; along d, the indices pick among a's elements.
  DimVector a_sizes(a.sizes().begin(), a.sizes().end());
  DimVector index_sizes(indices.sizes().begin(), indices.sizes().end());
  a_sizes[static_cast<size_t>(d)] = 1;
  index_sizes[static_cast<size_t>(d)] = 1;
  DimVector a_shape = broadcast_shapes(a_sizes, index_sizes, "take_along_dim");
  DimVector index_shape = a_shape;
  a_shape[static_cast<size_t>(d)] = a.size(d);
  index_shape[static_cast<size_t>(d)] = indices.size(d);
  return gather(a.expand(a_shape), d, indices.expand(index_shape));
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
Tensor Tensor::take_along_dim(const Tensor& indices, std::optional<int64_t> dim) const {
  return accel::take_along_dim(*this, indices, dim);
}
Tensor Tensor::gather(int64_t dim, const Tensor& index) const {
  return accel::gather(*this, dim, index);
}

}  // namespace accel
