// Statistics over pairs: cdist (the p-norm distance of every row of x1 to every row of x2) and
// cov / corrcoef (of every pair of variables over the observations). Composed of broadcasting
// differences, norm, matmul and reductions, whose gradients and devices they inherit; the
// Euclidean distance by products records its zero-distance gradient (zero) as PyTorch does.
#include "accel/base/warning.h"
#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

// |a - b| = sqrt(|a|^2 - 2 a.b + |b|^2) for every pair of rows, as one (batched) product of
// the operands padded with their squared norms and ones (PyTorch's formula, and its rounding).
Tensor euclidean_by_products(const Tensor& x1, const Tensor& x2) {
  const Tensor norms1 = x1.pow(2).sum({-1}, true);
  const Tensor norms2 = x2.pow(2).sum({-1}, true);
  const Tensor left = cat({mul(x1, -2), norms1, ones_like(norms1)}, -1);
  const Tensor right = cat({x2, ones_like(norms2), norms2}, -1);
  const Tensor squared = matmul(left, right.transpose(-2, -1)).clamp_min(0);
  // sqrt's gradient is infinite at 0: the square root is taken of 1 there, then replaced.
  const Tensor zero = eq(squared, 0);
  return where(zero, 0, sqrt(where(zero, 1, squared)));
}

}  // namespace

Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  ACCEL_CHECK(x1.dim() >= 2 && x2.dim() >= 2, "cdist",
              "expected x1 and x2 of at least 2 dims, got shapes {} and {}", x1.sizes(),
              x2.sizes());
  ACCEL_CHECK(x1.size(-1) == x2.size(-1), "cdist",
              "expected x1 and x2 with as many columns, got shapes {} and {}", x1.sizes(),
              x2.sizes());
  ACCEL_CHECK(x1.is_floating_point() && x2.is_floating_point(), "cdist",
              "expected floating-point tensors, got {} and {}", to_string(x1.dtype()),
              to_string(x2.dtype()));
  ACCEL_CHECK(p >= 0, "cdist", "p must be non-negative, got {}", p);
  const int64_t mode = compute_mode.value_or(0);
  ACCEL_CHECK(mode >= 0 && mode <= 2, "cdist",
              "compute_mode must be 0 or unset (products for more than 25 rows), 1 (products) "
              "or 2 (differences), got {}",
              mode);
  const bool by_products =
      p == 2 && (mode == 1 || (mode == 0 && (x1.size(-2) > 25 || x2.size(-2) > 25)));
  if (by_products) return euclidean_by_products(x1, x2);
  return norm(sub(x1.unsqueeze(-2), x2.unsqueeze(-3)), p, {-1});
}

Tensor cov(const Tensor& a, int64_t correction, const Tensor& fweights, const Tensor& aweights) {
  ACCEL_CHECK(a.dim() <= 2, "cov", "expected an input of at most 2 dims, got shape {}", a.sizes());
  ACCEL_CHECK(a.dtype() != kBool, "cov", "bool inputs are not supported");
  const Tensor in = a.dim() < 2 ? a.reshape({1, -1}) : a;
  const int64_t observations = in.size(1);
  const auto check_weights = [&](const Tensor& w, const char* name) {
    ACCEL_CHECK(w.dim() <= 1 && w.numel() == observations, "cov",
                "expected {} of one dim with the {} observations, got shape {}", name, observations,
                w.sizes());
    ACCEL_CHECK(w.numel() == 0 || w.min().item<double>() >= 0, "cov", "{} must be non-negative",
                name);
  };
  Tensor weights;
  if (fweights.defined()) {
    ACCEL_CHECK(!fweights.is_floating_point() && fweights.dtype() != kBool, "cov",
                "fweights must be integers, got {}", to_string(fweights.dtype()));
    check_weights(fweights, "fweights");
    weights = fweights;
  }
  if (aweights.defined()) {
    ACCEL_CHECK(aweights.is_floating_point(), "cov", "aweights must be floating-point, got {}",
                to_string(aweights.dtype()));
    check_weights(aweights, "aweights");
    weights = weights.defined() ? mul(weights, aweights) : aweights;
  }
  const Tensor total = weights.defined()
                           ? weights.sum()
                           : scalar_tensor(observations, TensorOptions(kInt64).device(a.device()));
  ACCEL_CHECK(!weights.defined() || total.item<double>() != 0, "cov",
              "the weights sum to zero: the covariance cannot be normalized");
  const Tensor mean = div((weights.defined() ? mul(in, weights) : in).sum({1}), total);
  Tensor divisor = weights.defined() && correction != 0 && aweights.defined()
                       ? sub(total, mul(div(mul(weights, aweights).sum(), total), correction))
                       : sub(total, correction);
  if (divisor.item<double>() <= 0) {
    warn("cov",
         "degrees of freedom <= 0: the correction should be below the number of "
         "observations");
    divisor = zeros_like(divisor);
  }
  const Tensor centered = sub(in, mean.unsqueeze(1));
  const Tensor weighted = weights.defined() ? mul(centered, weights) : centered;
  return div(mm(centered, weighted.t()), divisor).squeeze();
}

Tensor corrcoef(const Tensor& a) {
  const Tensor c = cov(a);
  if (c.dim() == 0) return div(c, c);
  const Tensor stddev = sqrt(c.diagonal());
  return div(div(c, stddev.unsqueeze(1)), stddev.unsqueeze(0)).clamp(-1, 1);
}

Tensor Tensor::cov(int64_t correction, const Tensor& fweights, const Tensor& aweights) const {
  return accel::cov(*this, correction, fweights, aweights);
}
Tensor Tensor::corrcoef() const { return accel::corrcoef(*this); }

}  // namespace accel
