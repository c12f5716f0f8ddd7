// Writing along one dim by index: scatter (a source or a value), scatter_add and scatter_reduce
// with PyTorch's gradients, and the in-place forms of these and of index_add / index_copy /
// index_fill. Each runs the backend's scatter kernel on a copy of self; elements landing on one
// destination combine in row-major order on every device, so a repeated index gives the same
// result on every run (the last source element wins a scatter).
#include <string_view>

#include "accel/core/ops/binary.h"
#include "accel/core/ops/index_support.h"
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;
using math::ScatterReduce;

namespace {

// The checks scatter, scatter_add and scatter_reduce share (`src` null for a value scatter);
// returns dim, wrapped. A 0-dim self takes a 0-dim index (and src).
int64_t check_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                      const char* op) {
  check_index(self, index, op);
  if (src != nullptr) {
    ACCEL_CHECK(src->defined(), op, "the src tensor is undefined");
    check_same_device(self, *src, op);
    ACCEL_CHECK(self.dtype() == src->dtype(), op,
                "expected self.dtype to be equal to src.dtype, got {} and {}", self.dtype(),
                src->dtype());
    ACCEL_CHECK(src->dim() == self.dim(), op,
                "src must have the same number of dimensions as self: src {}, self {}",
                src->sizes(), self.sizes());
  }
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1), op);
  check_index_shape(self, d, index, src, op);
  return d;
}

// The 1-D tensor of a 0-dim one's element: a 0-dim scatter runs as a 1-D one.
Tensor one_dim(const Tensor& t) { return t.reshape({1}); }

// The leading block of src the index reads (src may be larger).
Tensor read_part(const Tensor& src, const Tensor& index) {
  Tensor part = src;
  for (int64_t d = 0; d < src.dim(); ++d) part = part.narrow(d, 0, index.size(d));
  return part;
}

}  // namespace

Tensor scatter_add(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = check_scatter(a, dim, index, &src, "scatter_add");
  if (a.dim() == 0) return scatter_add(one_dim(a), 0, one_dim(index), one_dim(src)).reshape({});
  return scatter_recorded("scatter_add", ScatterReduce::Sum, a, d, index, src, src);
}

Tensor scatter(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = check_scatter(a, dim, index, &src, "scatter");
  if (a.dim() == 0) return scatter(one_dim(a), 0, one_dim(index), one_dim(src)).reshape({});
  return scatter_recorded("scatter", ScatterReduce::Assign, a, d, index, src, src);
}

Tensor scatter(const Tensor& a, int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = check_scatter(a, dim, index, nullptr, "scatter");
  if (a.dim() == 0) return scatter(one_dim(a), 0, one_dim(index), value).reshape({});
  return scatter_recorded("scatter", ScatterReduce::Assign, a, d, index,
                          full({}, value, a.options()).expand(index.sizes()), Tensor());
}

namespace {

constexpr const char* kReduceOp = "scatter_reduce";

enum class Reduction { Sum, Prod, Mean, Amax, Amin };

Reduction parse_reduction(std::string_view reduce) {
  if (reduce == "sum") return Reduction::Sum;
  if (reduce == "prod") return Reduction::Prod;
  if (reduce == "mean") return Reduction::Mean;
  if (reduce == "amax") return Reduction::Amax;
  ACCEL_CHECK(reduce == "amin", "scatter_reduce",
              "reduce argument must be either sum, prod, mean, amax or amin, got {}", reduce);
  return Reduction::Amin;
}

ScatterReduce kernel_op(Reduction r) {
  switch (r) {
    case Reduction::Sum:
    case Reduction::Mean:
      return ScatterReduce::Sum;
    case Reduction::Prod:
      return ScatterReduce::Prod;
    case Reduction::Amax:
      return ScatterReduce::Amax;
    case Reduction::Amin:
      break;
  }
  return ScatterReduce::Amin;
}

// The reduction's forward: the reduced tensor and, for the mean, each element's count of terms.
struct Reduced {
  Tensor out, counts;
};

Reduced reduce_forward(const Tensor& a, int64_t d, const Tensor& index, const Tensor& src,
                       Reduction r, bool include_self) {
  // Without self's own element, the destinations start from the reduction's identity, or
  // (max and min) from one of the elements reduced into them.
  Tensor base = a;
  if (!include_self) {
    if (r == Reduction::Amax || r == Reduction::Amin) {
      base = scattered(kReduceOp, ScatterReduce::Assign, a, d, index, src);
    } else {
      const Tensor identity = full({}, r == Reduction::Prod ? 1 : 0, a.options());
      base =
          scattered(kReduceOp, ScatterReduce::Assign, a, d, index, identity.expand(index.sizes()));
    }
  }
  Reduced result{scattered(kReduceOp, kernel_op(r), base, d, index, src), Tensor()};
  if (r == Reduction::Mean) {
    const Tensor own = include_self ? ones_like(a) : scatter(ones_like(a), d, index, 0);
    result.counts = scatter_add(own, d, index, ones_like(src));
    result.out = a.is_floating_point() ? div(result.out, result.counts)
                                       : floor_divide(result.out, result.counts);
  }
  return result;
}

// The gradients of scatter_reduce (PyTorch's): self's over self's shape, src's over the index's.
std::pair<Tensor, Tensor> reduce_backward(const Tensor& grad, const Tensor& self, int64_t d,
                                          const Tensor& index, const Tensor& src,
                                          const Reduced& forward, Reduction r, bool include_self) {
  const Tensor& result = forward.out;
  Tensor grad_self, grad_src;
  switch (r) {
    case Reduction::Sum:
      grad_self = grad;
      grad_src = gather_values(kReduceOp, grad, d, index);
      break;
    case Reduction::Mean:
      grad_self = grad / forward.counts;
      grad_src = gather_values(kReduceOp, grad_self, d, index);
      break;
    case Reduction::Prod: {
      // Products without a zero factor divide out the one factor; a zero factor gets the
      // product of the others, computed again with that zero replaced by one (only a single
      // zero in its group: with two, every gradient there is zero).
      const Tensor masked_self = masked_fill(self, eq(self, 0), 1);
      grad_self =
          grad * reduce_forward(masked_self, d, index, src, r, include_self).out / masked_self;
      const Tensor src_zero = eq(src, 0);
      const Tensor zeros_per_group = gather_values(
          kReduceOp, scatter_add(zeros_like(self), d, index, src_zero.to(self.dtype())), d, index);
      const Tensor single_zero = logical_and(src_zero, eq(zeros_per_group, 1));
      const Tensor without_zero =
          reduce_forward(self, d, index, masked_fill(src, single_zero, 1), r, include_self).out;
      grad_src =
          where(single_zero, gather_values(kReduceOp, grad * without_zero, d, index),
                gather_values(kReduceOp, grad * result, d, index) / masked_fill(src, src_zero, 1));
      break;
    }
    case Reduction::Amax:
    case Reduction::Amin: {
      // Shared evenly by every element equal to the result (self's own only when included).
      Tensor self_is_result = eq(self, result);
      if (!include_self) {
        self_is_result = logical_and(
            self_is_result,
            logical_not(scatter(zeros_like(self, self.options().dtype(kBool)), d, index, true)));
      }
      const Tensor src_is_result = eq(src, gather_values(kReduceOp, result, d, index));
      const Tensor shares =
          scatter_add(self_is_result.to(grad.dtype()), d, index, src_is_result.to(grad.dtype()));
      const Tensor share = grad / shares;
      grad_self = where(self_is_result, share, 0);
      grad_src = where(src_is_result, gather_values(kReduceOp, share, d, index), 0);
      break;
    }
  }
  if (!include_self) grad_self = scatter(grad_self, d, index, 0);
  return {grad_self, grad_src};
}

}  // namespace

Tensor scatter_reduce(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& src,
                      std::string_view reduce, bool include_self) {
  const Reduction r = parse_reduction(reduce);
  const int64_t d = check_scatter(a, dim, index, &src, kReduceOp);
  ACCEL_CHECK(a.dtype() != kBool, kReduceOp, "not implemented for dtype {}", a.dtype());
  if (a.dim() == 0) {
    return scatter_reduce(one_dim(a), 0, one_dim(index), one_dim(src), reduce, include_self)
        .reshape({});
  }
  Reduced forward;
  {
    NoGradGuard no_grad;
    forward = reduce_forward(a, d, index, src, r, include_self);
  }
  if (autograd::should_record(a, src)) {
    autograd::record(kReduceOp, {a, src}, forward.out,
                     [d, r, include_self, self = SavedTensor(a), saved_src = SavedTensor(src),
                      saved_index = SavedTensor(index), result = SavedTensor(forward.out),
                      counts = SavedTensor(forward.counts)](const Tensor& grad, GradInputs& g) {
                       const Tensor& index = saved_index.get();
                       const Tensor& src = saved_src.get();
                       auto [grad_self, grad_src] =
                           reduce_backward(grad, self.get(), d, index, read_part(src, index),
                                           {result.get(), counts.get()}, r, include_self);
                       if (g.needs(0)) g[0] = grad_self;
                       if (g.needs(1)) g[1] = pad_to(grad_src, src.sizes());
                     });
  }
  return forward.out;
}

Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src) const {
  return accel::scatter(*this, dim, index, src);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Scalar& value) const {
  return accel::scatter(*this, dim, index, value);
}
Tensor Tensor::scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const {
  return accel::scatter_add(*this, dim, index, src);
}
Tensor Tensor::scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src,
                              std::string_view reduce, bool include_self) const {
  return accel::scatter_reduce(*this, dim, index, src, reduce, include_self);
}

namespace {

// An in-place op done by its out-of-place form on self, the result copied back into self,
// whose history (when recorded) becomes the result's. When recording, the out-of-place op reads
// a copy of self, so nothing it saves for backward is the memory about to change.
template <typename Compute>
const Tensor& in_place(const Tensor& self, const Tensor& other, const char* op, Compute compute) {
  autograd::check_inplace(self, autograd::requires_grad(other), op);
  adopt_result(self, compute(autograd::should_record(self, other) ? self.clone() : self));
  return self;
}

}  // namespace

const Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Tensor& src) const {
  return in_place(*this, src, "scatter_",
                  [&](const Tensor& self) { return accel::scatter(self, dim, index, src); });
}
const Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Scalar& value) const {
  return in_place(*this, {}, "scatter_",
                  [&](const Tensor& self) { return accel::scatter(self, dim, index, value); });
}
const Tensor& Tensor::scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const {
  return in_place(*this, src, "scatter_add_",
                  [&](const Tensor& self) { return accel::scatter_add(self, dim, index, src); });
}
const Tensor& Tensor::scatter_reduce_(int64_t dim, const Tensor& index, const Tensor& src,
                                      std::string_view reduce, bool include_self) const {
  return in_place(*this, src, "scatter_reduce_", [&](const Tensor& self) {
    return accel::scatter_reduce(self, dim, index, src, reduce, include_self);
  });
}
const Tensor& Tensor::index_add_(int64_t dim, const Tensor& index, const Tensor& source,
                                 const Scalar& alpha) const {
  return in_place(*this, source, "index_add_", [&](const Tensor& self) {
    return accel::index_add(self, dim, index, source, alpha);
  });
}
const Tensor& Tensor::index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const {
  return in_place(*this, source, "index_copy_",
                  [&](const Tensor& self) { return accel::index_copy(self, dim, index, source); });
}
const Tensor& Tensor::index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const {
  return in_place(*this, {}, "index_fill_",
                  [&](const Tensor& self) { return accel::index_fill(self, dim, index, value); });
}

}  // namespace accel
