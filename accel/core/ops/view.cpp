// View ops: results share the input's storage (and version counter) and differ only in
// sizes, strides and offset. Each gradient maps the view's gradient back onto the input's
// geometry: reshape it, permute it back, sum it over expanded dims, or scatter it into zeros.
#include "accel/core/object_pool.h"
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;

namespace {

Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  auto impl = make_pooled<TensorImpl>(base.storage(), base.dtype(), sizes, strides, offset);
  impl->is_view = true;
  return Tensor(std::move(impl));
}

// Records a view whose gradient is `grad.reshape(input sizes)`.
Tensor record_reshaping_view(const Tensor& a, Tensor out, const char* name) {
  if (autograd::should_record(a)) {
    autograd::record(name, {a}, out,
                     [sizes = DimVector(a.sizes())](const Tensor& grad, GradInputs& in) {
                       in[0] = grad.reshape(sizes);
                     });
  }
  return out;
}

// The sizes with one -1 inferred from numel, or an error.
DimVector infer_size(IntArrayRef sizes, int64_t numel, const char* op) {
  DimVector out(sizes);
  int64_t known = 1;
  int64_t infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      ACCEL_CHECK(infer < 0, op, "only one dimension can be inferred in shape {}", sizes);
      infer = static_cast<int64_t>(i);
    } else {
      ACCEL_CHECK(sizes[i] >= 0, op, "invalid shape dimension {} in {}", sizes[i], sizes);
      known *= sizes[i];
    }
  }
  if (infer >= 0) {
    ACCEL_CHECK(known != 0 && numel % known == 0, op, "shape {} is invalid for input of size {}",
                sizes, numel);
    out[infer] = numel / known;
  } else {
    ACCEL_CHECK(known == numel, op, "shape {} is invalid for input of size {}", sizes, numel);
  }
  return out;
}

// Strides that give `sizes` over memory laid out as (old_sizes, old_strides), if any
// (PyTorch's computeStride): each run of old dims that is contiguous in memory may be split
// or merged freely.
std::optional<DimVector> view_strides(IntArrayRef old_sizes, IntArrayRef old_strides,
                                      IntArrayRef sizes) {
  DimVector strides(sizes.size());
  if (old_sizes.empty()) {
    for (auto& s : strides) s = 1;
    return strides;
  }
  if (product(old_sizes) == 0) return contiguous_strides(sizes);
  int64_t view_d = static_cast<int64_t>(sizes.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t d = static_cast<int64_t>(old_sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= old_sizes[d];
    if (d == 0 ||
        (old_sizes[d - 1] != 1 && old_strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || sizes[view_d] == 1)) {
        strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= sizes[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = old_strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return strides;
}

}  // namespace

Tensor view(const Tensor& a, IntArrayRef sizes) {
  const DimVector shape = infer_size(sizes, a.numel(), "view");
  auto strides = view_strides(a.sizes(), a.strides(), shape);
  ACCEL_CHECK(strides.has_value(), "view",
              "view size {} is not compatible with input tensor's size {} and stride {} (at least "
              "one dimension spans across two contiguous subspaces); use reshape() instead",
              shape, a.sizes(), a.strides());
  return record_reshaping_view(a, make_view(a, shape, *strides, a.storage_offset()), "view");
}

Tensor reshape(const Tensor& a, IntArrayRef sizes) {
  const DimVector shape = infer_size(sizes, a.numel(), "reshape");
  if (auto strides = view_strides(a.sizes(), a.strides(), shape)) {
    return record_reshaping_view(a, make_view(a, shape, *strides, a.storage_offset()), "reshape");
  }
  return view(a.contiguous(), shape);
}

Tensor flatten(const Tensor& a, int64_t start_dim, int64_t end_dim) {
  if (a.dim() == 0) return a.reshape({1});
  const int64_t start = wrap_dim(start_dim, a.dim(), "flatten");
  const int64_t end = wrap_dim(end_dim, a.dim(), "flatten");
  ACCEL_CHECK(start <= end, "flatten", "start_dim {} cannot come after end_dim {}", start, end);
  DimVector shape;
  for (int64_t d = 0; d < start; ++d) shape.push_back(a.sizes()[d]);
  int64_t merged = 1;
  for (int64_t d = start; d <= end; ++d) merged *= a.sizes()[d];
  shape.push_back(merged);
  for (int64_t d = end + 1; d < a.dim(); ++d) shape.push_back(a.sizes()[d]);
  return a.reshape(shape);
}

Tensor unflatten(const Tensor& a, int64_t dim, IntArrayRef sizes) {
  constexpr const char* op = "unflatten";
  const int64_t d = wrap_dim(dim, a.dim(), op);
  ACCEL_CHECK(!sizes.empty(), op, "sizes must be non-empty");
  int64_t known = 1;
  int64_t inferred = -1;  // the position of a -1 among sizes
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && inferred < 0) {
      inferred = static_cast<int64_t>(i);
    } else {
      ACCEL_CHECK(sizes[i] >= 0, op, "sizes {} may hold one -1 and otherwise sizes >= 0", sizes);
      known *= sizes[i];
    }
  }
  const int64_t size = a.sizes()[d];
  const bool fits = inferred >= 0 ? known > 0 && size % known == 0 : known == size;
  ACCEL_CHECK(fits, op, "sizes {} don't multiply up to the size of dim {} ({}) of the input {}",
              sizes, d, size, a.sizes());
  DimVector shape(a.sizes().begin(), a.sizes().begin() + d);  // the dims before dim
  for (size_t i = 0; i < sizes.size(); ++i) {
    shape.push_back(static_cast<int64_t>(i) == inferred ? size / known : sizes[i]);
  }
  for (int64_t rest = d + 1; rest < a.dim(); ++rest) shape.push_back(a.sizes()[rest]);
  return a.view(shape);
}

Tensor squeeze(const Tensor& a) {
  DimVector sizes, strides;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (a.sizes()[d] == 1) continue;
    sizes.push_back(a.sizes()[d]);
    strides.push_back(a.strides()[d]);
  }
  return record_reshaping_view(a, make_view(a, sizes, strides, a.storage_offset()), "squeeze");
}

Tensor squeeze(const Tensor& a, int64_t dim) {
  const int64_t d = wrap_dim(dim, a.dim(), "squeeze");
  DimVector sizes(a.sizes()), strides(a.strides());
  if (a.dim() > 0 && sizes[d] == 1) {
    sizes.erase(static_cast<size_t>(d));
    strides.erase(static_cast<size_t>(d));
  }
  return record_reshaping_view(a, make_view(a, sizes, strides, a.storage_offset()), "squeeze");
}

Tensor unsqueeze(const Tensor& a, int64_t dim) {
  const int64_t d = wrap_dim(dim, a.dim() + 1, "unsqueeze");
  DimVector sizes(a.sizes()), strides(a.strides());
  const int64_t stride = d < a.dim() ? a.sizes()[d] * a.strides()[d] : 1;
  sizes.insert(static_cast<size_t>(d), 1);
  strides.insert(static_cast<size_t>(d), stride);
  return record_reshaping_view(a, make_view(a, sizes, strides, a.storage_offset()), "unsqueeze");
}

Tensor permute(const Tensor& a, IntArrayRef dims) {
  const int64_t nd = a.dim();
  ACCEL_CHECK(static_cast<int64_t>(dims.size()) == nd, "permute",
              "number of dims don't match: tensor has {} dims ({}), permutation {}", nd, a.sizes(),
              dims);
  DimVector sizes(static_cast<size_t>(nd)), strides(static_cast<size_t>(nd)),
      inverse(static_cast<size_t>(nd));
  SmallVector<int64_t, kInlineDims> seen(static_cast<size_t>(nd), 0);
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t d = wrap_dim(dims[i], nd, "permute");
    ACCEL_CHECK(!seen[d], "permute", "repeated dim {} in permutation {}", d, dims);
    seen[d] = 1;
    sizes[i] = a.sizes()[d];
    strides[i] = a.strides()[d];
    inverse[d] = i;
  }
  Tensor out = make_view(a, sizes, strides, a.storage_offset());
  if (autograd::should_record(a)) {
    autograd::record("permute", {a}, out, [inverse](const Tensor& grad, GradInputs& in) {
      in[0] = grad.permute(inverse);
    });
  }
  return out;
}

Tensor transpose(const Tensor& a, int64_t dim0, int64_t dim1) {
  const int64_t d0 = wrap_dim(dim0, a.dim(), "transpose");
  const int64_t d1 = wrap_dim(dim1, a.dim(), "transpose");
  if (a.dim() == 0) return permute(a, {});
  DimVector order(static_cast<size_t>(a.dim()));
  for (int64_t d = 0; d < a.dim(); ++d) order[d] = d;
  std::swap(order[d0], order[d1]);
  return permute(a, order);
}

Tensor t(const Tensor& a) {
  ACCEL_CHECK(a.dim() <= 2, "t", "expects a tensor with <= 2 dimensions, but got {} ({})", a.dim(),
              a.sizes());
  return a.dim() < 2 ? permute(a, a.dim() == 1 ? IntArrayRef{0} : IntArrayRef{})
                     : transpose(a, 0, 1);
}

Tensor expand(const Tensor& a, IntArrayRef sizes) {
  const int64_t nd = static_cast<int64_t>(sizes.size());
  ACCEL_CHECK(nd >= a.dim(), "expand",
              "the number of sizes provided ({}) must be greater or equal to the number of "
              "dimensions in the tensor ({})",
              nd, a.dim());
  DimVector out_sizes(static_cast<size_t>(nd)), out_strides(static_cast<size_t>(nd));
  const int64_t lead = nd - a.dim();
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t target = sizes[d];
    if (d < lead) {
      ACCEL_CHECK(target >= 0, "expand",
                  "the expanded size {} is not allowed in a leading, non-existing dimension",
                  target);
      out_sizes[d] = target;
      out_strides[d] = 0;
      continue;
    }
    const int64_t have = a.sizes()[d - lead];
    const int64_t want = target == -1 ? have : target;
    ACCEL_CHECK(want >= 0, "expand", "invalid size {} in target sizes {}", target, sizes);
    ACCEL_CHECK(have == want || have == 1, "expand",
                "the expanded size of the tensor ({}) must match the existing size ({}) at "
                "non-singleton dimension {}; target sizes {}, tensor sizes {}",
                want, have, d, sizes, a.sizes());
    out_sizes[d] = want;
    out_strides[d] = have == want ? a.strides()[d - lead] : 0;
  }
  Tensor out = make_view(a, out_sizes, out_strides, a.storage_offset());
  if (autograd::should_record(a)) {
    autograd::record("expand", {a}, out,
                     [sizes = DimVector(a.sizes())](const Tensor& grad, GradInputs& in) {
                       in[0] = sum_to(grad, sizes);
                     });
  }
  return out;
}

// narrow/slice/select: a window into one dim. The gradient is the window's gradient written
// into zeros of the input's shape.
Tensor slice(const Tensor& a, int64_t dim, std::optional<int64_t> start_opt,
             std::optional<int64_t> end_opt, int64_t step) {
  ACCEL_CHECK(a.dim() > 0, "slice", "cannot be applied to a 0-dim tensor");
  ACCEL_CHECK(step > 0, "slice", "step must be positive, got {}", step);
  const int64_t d = wrap_dim(dim, a.dim(), "slice");
  const int64_t size = a.sizes()[d];
  auto clamp_index = [size](int64_t i) {
    if (i < 0) i += size;
    return std::clamp<int64_t>(i, 0, size);
  };
  const int64_t start = clamp_index(start_opt.value_or(0));
  const int64_t end = std::max(start, clamp_index(end_opt.value_or(size)));
  DimVector sizes(a.sizes()), strides(a.strides());
  sizes[d] = (end - start + step - 1) / step;
  strides[d] = a.strides()[d] * step;
  Tensor out = make_view(a, sizes, strides, a.storage_offset() + start * a.strides()[d]);
  if (autograd::should_record(a)) {
    autograd::record(
        "slice", {a}, out,
        [in = autograd::InputInfo(a), d, start, end, step](const Tensor& grad, GradInputs& g) {
          Tensor result = zeros(in.sizes, grad.options());
          result.slice(d, start, end, step).copy_(grad);
          g[0] = result;
        });
  }
  return out;
}

Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length) {
  ACCEL_CHECK(a.dim() > 0, "narrow", "cannot be applied to a 0-dim tensor");
  const int64_t d = wrap_dim(dim, a.dim(), "narrow");
  const int64_t size = a.sizes()[d];
  ACCEL_CHECK(start >= -size && start <= size, "narrow",
              "start ({}) out of range for dimension {} of size {}", start, d, size);
  if (start < 0) start += size;
  ACCEL_CHECK(length >= 0 && start + length <= size, "narrow",
              "start ({}) + length ({}) exceeds dimension size ({}) of shape {}", start, length,
              size, a.sizes());
  return slice(a, d, start, start + length, 1);
}

Tensor select(const Tensor& a, int64_t dim, int64_t index) {
  ACCEL_CHECK(a.dim() > 0, "select", "cannot be applied to a 0-dim tensor");
  const int64_t d = wrap_dim(dim, a.dim(), "select");
  const int64_t size = a.sizes()[d];
  ACCEL_CHECK(index >= -size && index < size, "select",
              "index {} is out of bounds for dimension {} with size {}", index, d, size);
  if (index < 0) index += size;
  DimVector sizes(a.sizes()), strides(a.strides());
  sizes.erase(static_cast<size_t>(d));
  strides.erase(static_cast<size_t>(d));
  Tensor out = make_view(a, sizes, strides, a.storage_offset() + index * a.strides()[d]);
  if (autograd::should_record(a)) {
    autograd::record("select", {a}, out,
                     [in = autograd::InputInfo(a), d, index](const Tensor& grad, GradInputs& g) {
                       Tensor result = zeros(in.sizes, grad.options());
                       result.select(d, index).copy_(grad);
                       g[0] = result;
                     });
  }
  return out;
}

Tensor broadcast_to(const Tensor& a, IntArrayRef sizes) { return expand(a, sizes); }

Tensor movedim(const Tensor& a, IntArrayRef source, IntArrayRef destination) {
  ACCEL_CHECK(source.size() == destination.size(), "movedim",
              "source {} and destination {} must have the same number of dims", source,
              destination);
  const int64_t nd = a.dim();
  // order[position] = the input dim placed there; -1 where a remaining dim goes.
  DimVector order(static_cast<size_t>(nd), -1);
  SmallVector<int64_t, kInlineDims> moved(static_cast<size_t>(nd), 0);
  for (size_t i = 0; i < source.size(); ++i) {
    const int64_t from = wrap_dim(source[i], nd, "movedim");
    const int64_t to = wrap_dim(destination[i], nd, "movedim");
    ACCEL_CHECK(!moved[from] && order[to] < 0, "movedim",
                "repeated dim in source {} or destination {}", source, destination);
    moved[from] = 1;
    order[to] = from;
  }
  int64_t next = 0;
  for (int64_t& d : order) {
    if (d >= 0) continue;
    while (moved[next]) ++next;
    d = next++;
  }
  return permute(a, order);
}

Tensor movedim(const Tensor& a, int64_t source, int64_t destination) {
  return movedim(a, IntArrayRef{source}, IntArrayRef{destination});
}

Tensor diagonal(const Tensor& a, int64_t offset, int64_t dim1, int64_t dim2) {
  ACCEL_CHECK(a.dim() >= 2, "diagonal", "expected a tensor of at least 2 dims, got shape {}",
              a.sizes());
  const int64_t d1 = wrap_dim(dim1, a.dim(), "diagonal");
  const int64_t d2 = wrap_dim(dim2, a.dim(), "diagonal");
  ACCEL_CHECK(d1 != d2, "diagonal", "dim1 and dim2 must differ, got {} and {}", dim1, dim2);
  const int64_t rows = a.size(d1), cols = a.size(d2);
  const int64_t length = std::max<int64_t>(
      0, offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols));
  int64_t start = a.storage_offset();
  if (length > 0) start += offset >= 0 ? offset * a.stride(d2) : -offset * a.stride(d1);
  DimVector sizes, strides;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (d == d1 || d == d2) continue;
    sizes.push_back(a.size(d));
    strides.push_back(a.stride(d));
  }
  sizes.push_back(length);
  strides.push_back(a.stride(d1) + a.stride(d2));
  Tensor out = make_view(a, sizes, strides, start);
  if (autograd::should_record(a)) {
    autograd::record(
        "diagonal", {a}, out,
        [in = autograd::InputInfo(a), offset, d1, d2](const Tensor& grad, GradInputs& g) {
          Tensor result = zeros(in.sizes, grad.options());
          diagonal(result, offset, d1, d2).copy_(grad);
          g[0] = result;
        });
  }
  return out;
}

Tensor Tensor::view(IntArrayRef sizes) const { return accel::view(*this, sizes); }
Tensor Tensor::reshape(IntArrayRef sizes) const { return accel::reshape(*this, sizes); }
Tensor Tensor::flatten(int64_t start, int64_t end) const {
  return accel::flatten(*this, start, end);
}
Tensor Tensor::unflatten(int64_t dim, IntArrayRef sizes) const {
  return accel::unflatten(*this, dim, sizes);
}
Tensor Tensor::squeeze() const { return accel::squeeze(*this); }
Tensor Tensor::squeeze(int64_t dim) const { return accel::squeeze(*this, dim); }
Tensor Tensor::unsqueeze(int64_t dim) const { return accel::unsqueeze(*this, dim); }
Tensor Tensor::permute(IntArrayRef dims) const { return accel::permute(*this, dims); }
Tensor Tensor::transpose(int64_t d0, int64_t d1) const { return accel::transpose(*this, d0, d1); }
Tensor Tensor::t() const { return accel::t(*this); }
Tensor Tensor::expand(IntArrayRef sizes) const { return accel::expand(*this, sizes); }
Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length) const {
  return accel::narrow(*this, dim, start, length);
}
Tensor Tensor::slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                     int64_t step) const {
  return accel::slice(*this, dim, start, end, step);
}
Tensor Tensor::select(int64_t dim, int64_t index) const { return accel::select(*this, dim, index); }
Tensor Tensor::movedim(IntArrayRef source, IntArrayRef destination) const {
  return accel::movedim(*this, source, destination);
}
Tensor Tensor::movedim(int64_t source, int64_t destination) const {
  return accel::movedim(*this, source, destination);
}
Tensor Tensor::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  return accel::diagonal(*this, offset, dim1, dim2);
}
Tensor Tensor::broadcast_to(IntArrayRef sizes) const { return accel::broadcast_to(*this, sizes); }

}  // namespace accel
