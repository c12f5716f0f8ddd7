// sort, argsort and topk. A kernel finds the order along the dim (the indices of the first k
// elements, by a stable sort with NaN above every number); the values are then gathered with
// those indices, so their gradient flows back through gather to where each value came from.
#include "accel/core/ops/op_support.h"
#include "accel/core/ops/reduce_plan.h"

namespace accel {

namespace {

// The indices, along dim, of a's first k elements in sorted order.
Tensor sorted_indices(const Tensor& a, int64_t dim, int64_t k, bool descending, const char* op) {
  const ReducePlan plan = plan_reduction(a, {dim}, true, op);
  DimVector sizes(a.sizes());
  if (a.dim() > 0) sizes[static_cast<size_t>(dim)] = k;
  Tensor indices = empty(sizes, a.options().dtype(kInt64));
  backend(a.device())
      .sort(a.dtype(), plan.input.data_ptr(), indices.data_ptr<int64_t>(), plan.shape, k,
            descending, current_stream(a.device()));
  return indices;
}

std::tuple<Tensor, Tensor> values_and_indices(const Tensor& a, int64_t dim, int64_t k,
                                              bool descending, const char* op) {
  Tensor indices = sorted_indices(a, dim, k, descending, op);
  Tensor values = a.dim() == 0 ? a.clone() : a.gather(dim, indices);
  return {values, indices};
}

// dim wrapped, after checking that a is defined; a 0-dim tensor counts as one element along 0.
int64_t checked_dim(const Tensor& a, int64_t dim, const char* op) {
  ACCEL_CHECK(a.defined(), op, "the tensor is undefined");
  return wrap_dim(dim, a.dim(), op);
}

int64_t size_along(const Tensor& a, int64_t dim) { return a.dim() == 0 ? 1 : a.size(dim); }

}  // namespace

std::tuple<Tensor, Tensor> sort(const Tensor& a, int64_t dim, bool descending) {
  const int64_t d = checked_dim(a, dim, "sort");
  return values_and_indices(a, d, size_along(a, d), descending, "sort");
}

std::tuple<Tensor, Tensor> sort(const Tensor& a, std::optional<bool> /*stable*/, int64_t dim,
                                bool descending) {
  return sort(a, dim, descending);
}

Tensor argsort(const Tensor& a, int64_t dim, bool descending) {
  const int64_t d = checked_dim(a, dim, "argsort");
  return sorted_indices(a, d, size_along(a, d), descending, "argsort");
}

std::tuple<Tensor, Tensor> topk(const Tensor& a, int64_t k, int64_t dim, bool largest,
                                bool /*sorted*/) {
  constexpr const char* op = "topk";
  const int64_t d = checked_dim(a, dim, op);
  const int64_t size = size_along(a, d);
  ACCEL_CHECK(k >= 0 && k <= size, op, "k ({}) is out of range for dimension {} of size {} ({})", k,
              d, size, a.sizes());
  return values_and_indices(a, d, k, largest, op);
}

std::tuple<Tensor, Tensor> Tensor::sort(int64_t dim, bool descending) const {
  return accel::sort(*this, dim, descending);
}
std::tuple<Tensor, Tensor> Tensor::sort(std::optional<bool> stable, int64_t dim,
                                        bool descending) const {
  return accel::sort(*this, stable, dim, descending);
}
Tensor Tensor::argsort(int64_t dim, bool descending) const {
  return accel::argsort(*this, dim, descending);
}
std::tuple<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim, bool largest, bool sorted) const {
  return accel::topk(*this, k, dim, largest, sorted);
}

}  // namespace accel
