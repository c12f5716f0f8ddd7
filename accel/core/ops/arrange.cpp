// flip, repeat, tril and triu: new arrangements of existing elements, composed from
// index_select, expand/reshape and masked_fill, whose gradients and devices they inherit.
#include <vector>

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
Tensor Tensor::tril(int64_t diagonal) const { return accel::tril(*this, diagonal); }
Tensor Tensor::triu(int64_t diagonal) const { return accel::triu(*this, diagonal); }

}  // namespace accel
