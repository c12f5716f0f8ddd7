// flip (and fliplr, flipud, rot90), repeat, tile, roll, tril, triu, diag_embed/diag, trace and
// meshgrid: new arrangements of
// existing elements, composed from index_select, expand/reshape, narrow/cat, masked_fill and
// the diagonal view, whose gradients and devices they inherit (diag_embed records its own: the
// diagonal of the gradient).
#include <vector>

#include "accel/core/autograd/function.h"
#include "accel/core/autograd/grad_mode.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel {

Tensor flip(const Tensor& a, IntArrayRef dims) {
  ACCEL_CHECK(a.defined(), "flip", "the tensor is undefined");
  std::vector<bool> flipped(static_cast<size_t>(std::max<int64_t>(a.dim(), 1)), false);
  Tensor out = a;
  for (int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, a.dim(), "flip");
    ACCEL_CHECK(!flipped[static_cast<size_t>(d)], "flip", "dim {} appears more than once in {}", d,
                dims);
    flipped[static_cast<size_t>(d)] = true;
    if (a.dim() == 0) continue;
    const int64_t n = a.size(d);
    out = out.index_select(d, arange(n - 1, -1, -1, TensorOptions(kInt64).device(a.device())));
  }
  return out.is_same(a) ? a.clone() : out;  // a new tensor, as PyTorch's, even when nothing flips
}

Tensor fliplr(const Tensor& a) {
  ACCEL_CHECK(a.dim() >= 2, "fliplr", "expected a tensor of at least 2 dims, got shape {}",
              a.sizes());
  return flip(a, {1});
}
Tensor flipud(const Tensor& a) {
  ACCEL_CHECK(a.dim() >= 1, "flipud", "expected a tensor of at least 1 dim, got shape {}",
              a.sizes());
  return flip(a, {0});
}

Tensor rot90(const Tensor& a, int64_t k, IntArrayRef dims) {
  ACCEL_CHECK(dims.size() == 2, "rot90", "expected two dims, got {}", dims);
  ACCEL_CHECK(a.dim() >= 2, "rot90", "expected a tensor of at least 2 dims, got shape {}",
              a.sizes());
  const int64_t first = wrap_dim(dims[0], a.dim(), "rot90");
  const int64_t second = wrap_dim(dims[1], a.dim(), "rot90");
  ACCEL_CHECK(first != second, "rot90", "expected two different dims, got {}", dims);
  // A quarter turn from the first dim towards the second: flip the second, then swap them.
  switch (((k % 4) + 4) % 4) {
    case 1:
      return flip(a, {second}).transpose(first, second);
    case 2:
      return flip(a, {first, second});
    case 3:
      return flip(a, {first}).transpose(first, second);
    default:
      return a.clone();
  }
}

Tensor repeat(const Tensor& a, IntArrayRef repeats) {
  ACCEL_CHECK(a.defined(), "repeat", "the tensor is undefined");
  ACCEL_CHECK(static_cast<int64_t>(repeats.size()) >= a.dim(), "repeat",
              "the number of repeats {} must be at least the tensor's dims {} (shape {})",
              repeats.size(), a.dim(), a.sizes());
  const auto dims = static_cast<int64_t>(repeats.size());
  // a as [1, s0, 1, s1, ...] (leading dims of size 1 added), expanded to [r0, s0, r1, s1, ...].
  DimVector interleaved, expanded, result;
  for (int64_t i = 0; i < dims; ++i) {
    const int64_t r = repeats[static_cast<size_t>(i)];
    ACCEL_CHECK(r >= 0, "repeat", "repeats must be non-negative, got {}", repeats);
    const int64_t source = i - (dims - a.dim());
    const int64_t size = source >= 0 ? a.size(source) : 1;
    interleaved.push_back(1);
    interleaved.push_back(size);
    expanded.push_back(r);
    expanded.push_back(size);
    result.push_back(r * size);
  }
  return a.reshape(interleaved).expand(expanded).reshape(result);
}

Tensor tile(const Tensor& a, IntArrayRef reps) {
  ACCEL_CHECK(a.defined(), "tile", "the tensor is undefined");
  DimVector padded(
      static_cast<size_t>(std::max<int64_t>(0, a.dim() - static_cast<int64_t>(reps.size()))), 1);
  for (int64_t r : reps) padded.push_back(r);
  return repeat(a, padded);
}

Tensor roll(const Tensor& a, IntArrayRef shifts, IntArrayRef dims) {
  ACCEL_CHECK(a.defined(), "roll", "the tensor is undefined");
  if (dims.empty()) {
    ACCEL_CHECK(shifts.size() == 1, "roll",
                "without dims, expected one shift (of the flattened tensor), got {}", shifts);
    return roll(a.flatten(), shifts, {0}).view(a.sizes());
  }
  ACCEL_CHECK(shifts.size() == dims.size(), "roll",
              "shifts {} and dims {} must have the same length", shifts, dims);
  Tensor out = a;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = wrap_dim(dims[i], a.dim(), "roll");
    const int64_t n = a.size(d);
    const int64_t shift = n == 0 ? 0 : ((shifts[i] % n) + n) % n;
    if (shift == 0) continue;
    out = cat({out.narrow(d, n - shift, shift), out.narrow(d, 0, n - shift)}, d);
  }
  return out.is_same(a) ? a.clone() : out;
}

Tensor diag_embed(const Tensor& a, int64_t offset, int64_t dim1, int64_t dim2) {
  ACCEL_CHECK(a.defined() && a.dim() >= 1, "diag_embed",
              "expected a tensor of at least 1 dim, got shape {}", a.sizes());
  const int64_t out_dims = a.dim() + 1;
  const int64_t d1 = wrap_dim(dim1, out_dims, "diag_embed");
  const int64_t d2 = wrap_dim(dim2, out_dims, "diag_embed");
  ACCEL_CHECK(d1 != d2, "diag_embed", "dim1 and dim2 must differ, got {} and {}", dim1, dim2);
  const int64_t n = a.size(-1) + std::abs(offset);
  DimVector sizes;
  for (int64_t d = 0, source = 0; d < out_dims; ++d) {
    sizes.push_back(d == d1 || d == d2 ? n : a.size(source++));
  }
  Tensor out = zeros(sizes, a.options());
  {
    NoGradGuard no_grad;
    diagonal(out, offset, d1, d2).copy_(a);
  }
  if (autograd::should_record(a)) {
    autograd::record("diag_embed", {a}, out,
                     [offset, d1, d2](const Tensor& grad, autograd::GradInputs& in) {
                       in[0] = diagonal(grad, offset, d1, d2);
                     });
  }
  return out;
}

Tensor diag(const Tensor& a, int64_t k) {
  ACCEL_CHECK(a.defined() && (a.dim() == 1 || a.dim() == 2), "diag",
              "expected a 1-D or 2-D tensor, got shape {}", a.sizes());
  return a.dim() == 1 ? diag_embed(a, k, 0, 1) : diagonal(a, k).clone();
}

Tensor trace(const Tensor& a) {
  ACCEL_CHECK(a.defined() && a.dim() == 2, "trace", "expected a 2-D tensor, got shape {}",
              a.sizes());
  return diagonal(a).sum();
}

std::vector<Tensor> meshgrid(TensorList tensors, std::string_view indexing) {
  ACCEL_CHECK(indexing == "ij" || indexing == "xy", "meshgrid",
              "indexing must be \"ij\" or \"xy\", got \"{}\"", indexing);
  ACCEL_CHECK(!tensors.empty(), "meshgrid", "expected at least one tensor");
  DimVector shape;
  for (const Tensor& t : tensors) {
    ACCEL_CHECK(t.dim() <= 1, "meshgrid", "expected 0-D or 1-D tensors, got one of shape {}",
                t.sizes());
    ACCEL_CHECK(t.dtype() == tensors[0].dtype() && t.device() == tensors[0].device(), "meshgrid",
                "expected tensors of one dtype and device, got {} on {} and {} on {}",
                tensors[0].dtype(), tensors[0].device(), t.dtype(), t.device());
    shape.push_back(t.numel());
  }
  // "xy": the first two inputs vary along dims 1 and 0.
  const bool swap = indexing == "xy" && tensors.size() >= 2;
  if (swap) std::swap(shape[0], shape[1]);
  std::vector<Tensor> grids;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const size_t position = swap && i < 2 ? 1 - i : i;
    DimVector view_shape(shape.size(), 1);
    view_shape[position] = -1;
    grids.push_back(tensors[i].reshape(view_shape).expand(shape));
  }
  return grids;
}

namespace {

// Keeps the elements on and below (lower) or on and above (upper) diagonal `k` of the last two
// dims, zeroing the others.
Tensor triangle(const Tensor& a, int64_t k, bool lower, const char* op) {
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  ACCEL_CHECK(a.dim() >= 2, op, "expected a tensor of at least 2 dims, got shape {}", a.sizes());
  const TensorOptions on_device = TensorOptions(kInt64).device(a.device());
  const Tensor offset = arange(a.size(-1), on_device).unsqueeze(0) -
                        arange(a.size(-2), on_device).unsqueeze(1);  // column - row
  return a.masked_fill(lower ? gt(offset, k) : lt(offset, k), 0);
}

}  // namespace

Tensor tril(const Tensor& a, int64_t diagonal) { return triangle(a, diagonal, true, "tril"); }
Tensor triu(const Tensor& a, int64_t diagonal) { return triangle(a, diagonal, false, "triu"); }

Tensor Tensor::flip(IntArrayRef dims) const { return accel::flip(*this, dims); }
Tensor Tensor::repeat(IntArrayRef repeats) const { return accel::repeat(*this, repeats); }
Tensor Tensor::fliplr() const { return accel::fliplr(*this); }
Tensor Tensor::flipud() const { return accel::flipud(*this); }
Tensor Tensor::rot90(int64_t k, IntArrayRef dims) const { return accel::rot90(*this, k, dims); }
Tensor Tensor::tril(int64_t diagonal) const { return accel::tril(*this, diagonal); }
Tensor Tensor::triu(int64_t diagonal) const { return accel::triu(*this, diagonal); }
Tensor Tensor::roll(IntArrayRef shifts, IntArrayRef dims) const {
  return accel::roll(*this, shifts, dims);
}
Tensor Tensor::tile(IntArrayRef reps) const { return accel::tile(*this, reps); }
Tensor Tensor::diag_embed(int64_t offset, int64_t dim1, int64_t dim2) const {
  return accel::diag_embed(*this, offset, dim1, dim2);
}
Tensor Tensor::diag(int64_t diagonal) const { return accel::diag(*this, diagonal); }
Tensor Tensor::trace() const { return accel::trace(*this); }

}  // namespace accel
