// Tensor::index and index_put_ (core/indexing.h), nonzero and masked_select. Integers, slices,
// None and Ellipsis become view ops; index tensors then select along the dims they index,
// flattened into one: the rows of a reshaped view gathered with index_select, or written with
// scatter_add, so gradients and every device come from those ops.
#include "accel/core/indexing.h"

#include <algorithm>
#include <cstring>
#include <span>
#include <variant>
#include <vector>

#include "accel/core/ops/op_support.h"

namespace accel {

using indexing::EllipsisIndexType;
using indexing::Slice;
using indexing::TensorIndex;

namespace indexing {

TensorIndex::TensorIndex(const char* text) : value_(EllipsisIndexType{}) {
  ACCEL_CHECK(text != nullptr && std::strcmp(text, "...") == 0, "index",
              "a string index must be \"...\" (Ellipsis), got \"{}\"", text ? text : "(null)");
}

}  // namespace indexing

namespace {

bool is_mask(const Tensor& t) { return t.dtype() == kBool || t.dtype() == kUInt8; }

// The view the integers, slices, None and Ellipsis make, and the index tensors with the dims
// of that view they index (a mask of k dims becomes k integer tensors, one per dim, whose
// values need no wrapping or range check).
struct IndexPlan {
  Tensor view;
  std::vector<int64_t> dims;
  std::vector<Tensor> tensors;
  std::vector<bool> from_mask;

  void add(int64_t dim, const Tensor& index, bool is_mask_coordinate) {
    dims.push_back(dim);
    tensors.push_back(index);
    from_mask.push_back(is_mask_coordinate);
  }
};

IndexPlan plan_indices(const Tensor& self, std::span<const TensorIndex> indices, const char* op) {
  int64_t consumed = 0, ellipses = 0;
  for (const TensorIndex& index : indices) {
    std::visit(
        [&]<typename I>(const I& value) {
          if constexpr (std::is_same_v<I, int64_t> || std::is_same_v<I, Slice>) {
            consumed += 1;
          } else if constexpr (std::is_same_v<I, Tensor>) {
            ACCEL_CHECK(value.defined(), op, "an index tensor is undefined");
            consumed += is_mask(value) ? value.dim() : 1;
          } else if constexpr (std::is_same_v<I, EllipsisIndexType>) {
            ellipses += 1;
          }
        },
        index.value());
  }
  ACCEL_CHECK(ellipses <= 1, op, "an index can only have a single ellipsis ('...'), got {}",
              ellipses);
  ACCEL_CHECK(consumed <= self.dim(), op,
              "too many indices for tensor of dimension {} (got {}) of shape {}", self.dim(),
              consumed, self.sizes());
  IndexPlan plan{self, {}, {}, {}};
  int64_t d = 0;       // the next dim of plan.view to index
  int64_t source = 0;  // the same dim's number in self, for messages
  for (const TensorIndex& index : indices) {
    std::visit(
        [&]<typename I>(const I& value) {
          Tensor& view = plan.view;
          if constexpr (std::is_same_v<I, int64_t>) {
            const int64_t size = view.size(d);
            ACCEL_CHECK(value >= -size && value < size, op,
                        "index {} is out of bounds for dimension {} with size {}", value, source,
                        size);
            view = view.select(d, value);
            source += 1;
          } else if constexpr (std::is_same_v<I, Slice>) {
            const int64_t step = value.step.value_or(1);
            ACCEL_CHECK(step > 0, op, "slice step must be positive, got {}", step);
            view = view.slice(d, value.start, value.stop, step);
            d += 1;
            source += 1;
          } else if constexpr (std::is_same_v<I, bool>) {  // x[True]: a new dim of 1, x[False] of 0
            view = view.unsqueeze(d);
            if (!value) view = view.slice(d, 0, 0);
            d += 1;
          } else if constexpr (std::is_same_v<I, std::nullopt_t>) {
            view = view.unsqueeze(d);
            d += 1;
          } else if constexpr (std::is_same_v<I, EllipsisIndexType>) {
            d += self.dim() - consumed;
            source += self.dim() - consumed;
          } else if (is_mask(value)) {
            for (int64_t k = 0; k < value.dim(); ++k) {
              ACCEL_CHECK(value.size(k) == view.size(d + k), op,
                          "the shape of the mask {} does not match the indexed tensor's shape {} "
                          "at dimension {}",
                          value.sizes(), view.sizes(), source + k);
            }
            if (value.dim() == 0) {  // a 0-dim mask acts as a bool index
              view = view.unsqueeze(d);
              plan.add(d, nonzero(value.view({1})).view({-1}), true);
              d += 1;
              return;
            }
            const Tensor coordinates = nonzero(value);
            for (int64_t k = 0; k < value.dim(); ++k)
              plan.add(d + k, coordinates.select(1, k), true);
            d += value.dim();
            source += value.dim();
          } else {
            ACCEL_CHECK(value.dtype() == kInt64 || value.dtype() == kInt32, op,
                        "tensors used as indices must be int64, int32, uint8 or bool, got {}",
                        value.dtype());
            check_same_device(self, value, op);
            plan.add(d, value, false);
            d += 1;
            source += 1;
          }
        },
        index.value());
  }
  return plan;
}

// Where the index tensors' values land: flat row numbers of the view's indexed dims moved to the
// front and merged into one, of the index tensors' broadcast shape.
struct Selection {
  std::vector<int64_t> permutation;  // indexed dims first, then the others in order
  DimVector shape;                   // the index tensors' broadcast shape
  Tensor rows;                       // int64, flat, one per element of `shape`
  bool adjacent;                     // the indexed dims are consecutive
};

Selection select_rows(const IndexPlan& plan, const char* op) {
  const Tensor& view = plan.view;
  Selection s;
  s.shape = DimVector(plan.tensors[0].sizes());
  for (const Tensor& t : plan.tensors) s.shape = broadcast_shapes(s.shape, t.sizes(), op);
  s.adjacent = true;
  for (size_t j = 1; j < plan.dims.size(); ++j)
    s.adjacent = s.adjacent && plan.dims[j] == plan.dims[j - 1] + 1;
  s.permutation = plan.dims;
  for (int64_t d = 0; d < view.dim(); ++d) {
    if (std::find(plan.dims.begin(), plan.dims.end(), d) == plan.dims.end())
      s.permutation.push_back(d);
  }
  for (size_t j = 0; j < plan.tensors.size(); ++j) {
    const int64_t size = view.size(plan.dims[j]);
    Tensor index = plan.tensors[j].to(kInt64);
    if (!plan.from_mask[j]) {
      index = where(index < 0, index + size, index);  // negative indices count from the end
      check_index_range(index, plan.dims[j], size, op);
    }
    index = index.expand(s.shape);
    s.rows = j == 0 ? index : s.rows * size + index;
  }
  s.rows = s.rows.reshape({-1});
  return s;
}

// view with the indexed dims first and merged: [rows, other dims...].
Tensor merged_rows(const Tensor& view, const IndexPlan& plan, const Selection& s) {
  const Tensor moved = view.permute(s.permutation);
  DimVector sizes{1};
  for (size_t j = 0; j < plan.dims.size(); ++j) sizes[0] *= moved.size(static_cast<int64_t>(j));
  for (int64_t d = static_cast<int64_t>(plan.dims.size()); d < moved.dim(); ++d)
    sizes.push_back(moved.size(d));
  return moved.reshape(sizes);
}

// The order of dims of advanced indexing's result from [index shape, other dims...]: with
// adjacent indexed dims the index shape takes the first indexed dim's place.
std::vector<int64_t> result_order(const IndexPlan& plan, const Selection& s, int64_t out_dim) {
  const auto index_dims = static_cast<int64_t>(s.shape.size());
  const int64_t before = s.adjacent ? plan.dims[0] : 0;
  std::vector<int64_t> order;
  for (int64_t d = 0; d < before; ++d) order.push_back(index_dims + d);
  for (int64_t d = 0; d < index_dims; ++d) order.push_back(d);
  for (int64_t d = index_dims + before; d < out_dim; ++d) order.push_back(d);
  return order;
}

std::vector<int64_t> inverse(const std::vector<int64_t>& order) {
  std::vector<int64_t> out(order.size());
  for (size_t i = 0; i < order.size(); ++i)
    out[static_cast<size_t>(order[i])] = static_cast<int64_t>(i);
  return out;
}

// [index shape, other dims...] as sizes, the gathered rows viewed in it.
DimVector gathered_shape(const Selection& s, const Tensor& rows) {
  DimVector shape = s.shape;
  for (int64_t d = 1; d < rows.dim(); ++d) shape.push_back(rows.size(d));
  return shape;
}

Tensor index_impl(const Tensor& self, std::span<const TensorIndex> indices) {
  constexpr const char* op = "index";
  const IndexPlan plan = plan_indices(self, indices, op);
  if (plan.tensors.empty()) return plan.view;
  const Selection s = select_rows(plan, op);
  const Tensor rows = merged_rows(plan.view, plan, s);
  const DimVector shape = gathered_shape(s, rows);
  const Tensor gathered = rows.index_select(0, s.rows).view(shape);
  return gathered.permute(result_order(plan, s, gathered.dim()));
}

void index_put_impl(const Tensor& self, std::span<const TensorIndex> indices, const Tensor& value,
                    bool accumulate) {
  constexpr const char* op = "index_put_";
  ACCEL_CHECK(value.defined(), op, "the value tensor is undefined");
  const IndexPlan plan = plan_indices(self, indices, op);
  if (plan.tensors.empty()) {
    ACCEL_CHECK(!accumulate, op, "accumulate needs index tensors; add the value with add_");
    plan.view.copy_(value);
    return;
  }
  check_same_device(self, value, op);
  const Selection s = select_rows(plan, op);
  const Tensor rows = merged_rows(plan.view, plan, s);
  const DimVector shape = gathered_shape(s, rows);
  // The value in the result's layout, then in [rows, other dims...] like `rows`.
  std::vector<int64_t> order = result_order(plan, s, static_cast<int64_t>(shape.size()));
  DimVector result_shape;
  for (int64_t d : order) result_shape.push_back(shape[static_cast<size_t>(d)]);
  DimVector flat_shape{s.rows.numel()};
  for (int64_t d = 1; d < rows.dim(); ++d) flat_shape.push_back(rows.size(d));
  const Tensor values =
      value.to(self.dtype()).expand(result_shape).permute(inverse(order)).reshape(flat_shape);
  DimVector index_shape(static_cast<size_t>(rows.dim()), 1);
  index_shape[0] = s.rows.numel();
  const Tensor scatter_index = s.rows.view(index_shape).expand(values.sizes());
  Tensor written;
  if (accumulate) {
    written = rows.scatter_add(0, scatter_index, values);
  } else {
    const Tensor hits = zeros({rows.size(0)}, TensorOptions(kInt64).device(self.device()))
                            .scatter_add(0, s.rows, ones_like(s.rows));
    ACCEL_CHECK(hits.numel() == 0 || hits.amax().item<int64_t>() <= 1, op,
                "an element is indexed more than once, so which value it would get is undefined; "
                "pass accumulate = true to add the values");
    DimVector hit_shape(static_cast<size_t>(rows.dim()), 1);
    hit_shape[0] = rows.size(0);
    written = where((hits > 0).view(hit_shape),
                    zeros_like(rows).scatter_add(0, scatter_index, values), rows);
  }
  // Back into self: as a whole when only index tensors were given (autograd then records an
  // in-place change of self), else through the view the other indices made.
  const Tensor moved = plan.view.permute(s.permutation);
  const Tensor result = written.view(moved.sizes()).permute(inverse(s.permutation));
  if (plan.view.is_same(self)) {
    self.copy_(result);
  } else {
    plan.view.copy_(result);
  }
}

}  // namespace

Tensor nonzero(const Tensor& a) {
  ACCEL_CHECK(a.defined(), "nonzero", "the tensor is undefined");
  // The result's size depends on the values: the count is read on the host (PyTorch
  // synchronizes too).
  const Tensor flags = (a.dtype() == kBool ? a : ne(a, false)).contiguous();  // false: no promotion
  const int64_t count = flags.sum().item<int64_t>();
  Tensor coordinates = empty({count, a.dim()}, TensorOptions(kInt64).device(a.device()));
  backend(a.device())
      .nonzero(flags.data_ptr<bool>(), a.sizes(), count, coordinates.data_ptr<int64_t>(),
               current_stream(a.device()));
  return coordinates;
}

Tensor argwhere(const Tensor& a) { return nonzero(a); }

Tensor masked_select(const Tensor& a, const Tensor& mask) {
  constexpr const char* op = "masked_select";
  ACCEL_CHECK(a.defined() && mask.defined(), op, "a tensor is undefined");
  ACCEL_CHECK(mask.dtype() == kBool, op, "expected a bool mask, got {}", mask.dtype());
  const DimVector shape = broadcast_shapes(a.sizes(), mask.sizes(), op);
  if (shape.empty()) return a.view({1}).index({mask.view({1})});
  return a.expand(shape).index({mask.expand(shape)});
}

Tensor Tensor::index(std::initializer_list<TensorIndex> indices) const {
  return index_impl(*this, indices);
}
Tensor Tensor::index(const std::vector<TensorIndex>& indices) const {
  return index_impl(*this, indices);
}
const Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Tensor& value,
                                 bool accumulate) const {
  index_put_impl(*this, indices, value, accumulate);
  return *this;
}
const Tensor& Tensor::index_put_(const std::vector<TensorIndex>& indices, const Tensor& value,
                                 bool accumulate) const {
  index_put_impl(*this, indices, value, accumulate);
  return *this;
}
const Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices,
                                 const Scalar& value) const {
  index_put_impl(*this, indices, scalar_tensor(value, options()), false);
  return *this;
}
const Tensor& Tensor::index_put_(const std::vector<TensorIndex>& indices,
                                 const Scalar& value) const {
  index_put_impl(*this, indices, scalar_tensor(value, options()), false);
  return *this;
}
Tensor Tensor::masked_select(const Tensor& mask) const { return accel::masked_select(*this, mask); }
Tensor Tensor::nonzero() const { return accel::nonzero(*this); }
Tensor Tensor::argwhere() const { return accel::nonzero(*this); }

}  // namespace accel
