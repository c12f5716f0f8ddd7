// cumsum, cumprod, logcumsumexp, cummax and cummin: running sums, products, log-sum-exps,
// maxima and minima along one dim, in the types PyTorch uses (cumsum's and cumprod's integer and
// bool inputs run in int64 unless a dtype is given; the input is converted to the result's dtype
// first, so that conversion carries the gradient between dtypes).
// - The gradient of a running sum is the running sum of the gradient taken from the other end.
// - A running product's gradient at k is the sum over j >= k of grad[j] times the product of
//   out[j]'s other terms. Before the line's first zero that is the reversed running sum of
//   grad * out divided by x[k]; at the first zero, the reversed running sum of grad times the
//   running product with that zero replaced by 1; after it, zero (as PyTorch's, without
//   dividing by zero).
// - logcumsumexp's gradient at k is exp(x[k]) times the reversed running sum of grad * exp(-out),
//   taken in log space for positive and negative gradients apart (no overflow, as PyTorch's).
// - cummax and cummin pass each gradient to the element whose value the output took (the last of
//   equal ones, the first NaN), as scatter_add into zeros.
#include <limits>
#include <tuple>

#include "accel/core/ops/op_support.h"
#include "accel/core/ops/reduce_plan.h"

namespace accel {

using autograd::GradInputs;
using autograd::SavedTensor;

namespace {

// The scan's result, the input converted to the result's dtype, and the wrapped dim.
struct Scanned {
  Tensor out, src;
  int64_t dim;
};

Scanned scan(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype, math::ScanOp op,
             const char* name) {
  ACCEL_CHECK(a.defined(), name, "the tensor is undefined");
  const int64_t d = wrap_dim(dim, a.dim(), name);
  const ScalarType type = dtype.value_or(a.is_floating_point() ? a.dtype() : kInt64);
  const Tensor src = a.to(type);
  const ReducePlan plan = plan_reduction(src, {d}, true, name);
  Tensor out = empty(src.sizes(), src.options());
  backend(src.device())
      .scan(type, op, plan.input.data_ptr(), out.data_ptr(), plan.shape,
            current_stream(src.device()));
  return {out, src, d};
}

// The running sum of t along dim from its last element back to its first.
Tensor reversed_cumsum(const Tensor& t, int64_t dim) {
  return t.flip({dim}).cumsum(dim).flip({dim});
}

// Records the node of a scan whose gradient needs its input and output: backward(x, out, grad)
// gives the input's gradient. A 0-dim scan is the identity, its gradient the output's.
template <typename Backward>
void record_scan(const char* name, const Tensor& src, const Tensor& out, Backward backward) {
  if (!autograd::should_record(src)) return;
  autograd::record(name, {src}, out,
                   [backward, sx = SavedTensor(src), sout = SavedTensor(out)](const Tensor& grad,
                                                                              GradInputs& in) {
                     const Tensor& x = sx.get();
                     in[0] = x.dim() == 0 ? grad : backward(x, sout.get(), grad);
                   });
}

}  // namespace

Tensor cumsum(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype) {
  auto [out, src, d] = scan(a, dim, dtype, math::ScanOp::kSum, "cumsum");
  if (autograd::should_record(src)) {
    autograd::record("cumsum", {src}, out,
                     [d = d, scalar = src.dim() == 0](const Tensor& grad, GradInputs& in) {
                       in[0] = scalar ? grad : reversed_cumsum(grad, d);
                     });
  }
  return out;
}

Tensor cumprod(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype) {
  auto [out, src, d] = scan(a, dim, dtype, math::ScanOp::kProduct, "cumprod");
  record_scan("cumprod", src, out,
              [d = d](const Tensor& x, const Tensor& product, const Tensor& grad) {
                const Tensor is_zero = x == 0;
                const Tensor zeros_so_far = is_zero.cumsum(d);
                const Tensor before_zero = zeros_so_far == 0;
                const Tensor first_zero = is_zero & (zeros_so_far == 1);
                const Tensor before =
                    reversed_cumsum(grad * product, d) / where(before_zero, x, ones_like(x));
                const Tensor at_first_zero =
                    reversed_cumsum(grad * where(first_zero, ones_like(x), x).cumprod(d), d);
                return where(before_zero, before, where(first_zero, at_first_zero, zeros_like(x)));
              });
  return out;
}

Tensor logcumsumexp(const Tensor& a, int64_t dim) {
  ACCEL_CHECK(a.defined() && a.is_floating_point(), "logcumsumexp",
              "expected a floating point tensor, got {}", a.defined() ? a.dtype() : kBool);
  auto [out, src, d] = scan(a, dim, std::nullopt, math::ScanOp::kLogSumExp, "logcumsumexp");
  record_scan("logcumsumexp", src, out,
              [d = d](const Tensor& x, const Tensor& total, const Tensor& grad) {
                const auto reversed = [d](const Tensor& t) {
                  return logcumsumexp(t.flip({d}), d).flip({d});
                };
                const double lowest = -std::numeric_limits<double>::max();
                const Tensor log_abs_grad = grad.abs().log();
                const Tensor positive = where(gt(grad, 0), log_abs_grad, lowest) - total;
                const Tensor negative = where(lt(grad, 0), log_abs_grad, lowest) - total;
                return (reversed(positive) + x).exp() - (reversed(negative) + x).exp();
              });
  return out;
}

namespace {

// cummax and cummin: the running extreme and the position it came from, the latest position
// holding it (x[k] equal to the running value there) or, once a NaN has come, the first NaN.
std::tuple<Tensor, Tensor> running_extreme(const Tensor& a, int64_t dim, math::ScanOp op,
                                           const char* name) {
  ACCEL_CHECK(a.defined() && a.dtype() != kBool, name, "expected a numeric tensor, got {}",
              a.defined() ? a.dtype() : kBool);
  Tensor values, indices;
  int64_t d = 0;
  {
    NoGradGuard no_grad;
    const Scanned running = scan(a, dim, a.dtype(), op, name);
    values = running.out;
    d = running.dim;
    if (a.dim() == 0) {
      indices = zeros({}, TensorOptions(kInt64).device(a.device()));
    } else {
      DimVector shape(static_cast<size_t>(a.dim()), 1);
      shape[static_cast<size_t>(d)] = a.size(d);
      const Tensor position =
          arange(a.size(d), TensorOptions(kInt64).device(a.device())).view(shape).expand(a.sizes());
      Tensor takes_over = eq(a, values);
      if (a.is_floating_point()) {
        const Tensor is_nan = a.isnan();
        takes_over = logical_or(takes_over, logical_and(is_nan, eq(is_nan.cumsum(d), 1)));
      }
      indices = scan(where(takes_over, position, -1), d, kInt64, math::ScanOp::kMax, name).out;
    }
  }
  if (autograd::should_record(a)) {
    autograd::record(name, {a}, values,
                     [d, saved = SavedTensor(indices), sizes = DimVector(a.sizes())](
                         const Tensor& grad, GradInputs& in) {
                       in[0] = sizes.empty()
                                   ? grad
                                   : zeros(sizes, grad.options()).scatter_add(d, saved.get(), grad);
                     });
  }
  return {values, indices};
}

}  // namespace

std::tuple<Tensor, Tensor> cummax(const Tensor& a, int64_t dim) {
  return running_extreme(a, dim, math::ScanOp::kMax, "cummax");
}

std::tuple<Tensor, Tensor> cummin(const Tensor& a, int64_t dim) {
  return running_extreme(a, dim, math::ScanOp::kMin, "cummin");
}

Tensor Tensor::logcumsumexp(int64_t dim) const { return accel::logcumsumexp(*this, dim); }

Tensor Tensor::cumsum(int64_t dim, std::optional<ScalarType> dtype) const {
  return accel::cumsum(*this, dim, dtype);
}

Tensor Tensor::cumprod(int64_t dim, std::optional<ScalarType> dtype) const {
  return accel::cumprod(*this, dim, dtype);
}

}  // namespace accel
