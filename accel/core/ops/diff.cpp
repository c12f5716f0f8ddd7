// diff: the differences of neighbours along a dim, taken n times, after `prepend` and `append`
// are joined on; composed of narrow and sub (ne for bool, as PyTorch's), whose gradients and
// devices it inherits.
#include <vector>

#include "accel/core/ops.h"

namespace accel {

Tensor diff(const Tensor& a, int64_t n, int64_t dim, const Tensor& prepend, const Tensor& append) {
  ACCEL_CHECK(a.dim() >= 1, "diff", "expected a tensor of at least 1 dim, got a 0-dim tensor");
  ACCEL_CHECK(n >= 0, "diff", "order must be non-negative, got {}", n);
  const int64_t d = wrap_dim(dim, a.dim(), "diff");
  std::vector<Tensor> parts;
  for (const Tensor* part : {&prepend, &a, &append}) {
    if (!part->defined()) continue;
    ACCEL_CHECK(part->dim() == a.dim(), "diff",
                "prepend and append must have the input's {} dims, got shape {}", a.dim(),
                part->sizes());
    parts.push_back(*part);
  }
  Tensor out = parts.size() == 1 ? a : cat(parts, d);
  for (int64_t i = 0; i < n && out.size(d) > 0; ++i) {
    const Tensor next = out.narrow(d, 1, out.size(d) - 1);
    const Tensor previous = out.narrow(d, 0, out.size(d) - 1);
    out = out.dtype() == kBool ? ne(next, previous) : sub(next, previous);
  }
  return out;
}

Tensor Tensor::diff(int64_t n, int64_t dim, const Tensor& prepend, const Tensor& append) const {
  return accel::diff(*this, n, dim, prepend, append);
}

}  // namespace accel
