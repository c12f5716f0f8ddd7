// linalg.lstsq: the minimum-norm least-squares solution pinv(A) B, so its gradient is the
// pseudo-inverse's; rank, singular values and residuals reported as PyTorch's CPU drivers do.
#include "accel/core/linalg.h"
#include "accel/core/linalg/linalg_support.h"

namespace accel::linalg {

using namespace linalg_support;

std::tuple<Tensor, Tensor, Tensor, Tensor> lstsq(const Tensor& a, const Tensor& b,
                                                 std::optional<double> rcond,
                                                 std::optional<std::string_view> driver) {
  constexpr const char* op = "linalg.lstsq";
  check_matrices(a, op, false);
  check_same_dtype_and_device(a, b, op);
  ACCEL_CHECK(b.dim() >= 2 && b.size(-2) == a.size(-2), op,
              "expected B [..., {}, k] for A of shape {}, got shape {}", a.size(-2), a.sizes(),
              b.sizes());
  const std::string_view name = driver.value_or("gelsy");
  ACCEL_CHECK(name == "gels" || name == "gelsy" || name == "gelsd" || name == "gelss", op,
              "driver must be \"gels\", \"gelsy\", \"gelsd\" or \"gelss\", got \"{}\"", name);
  const Tensor solution = matmul(pinv(a, std::nullopt, rcond), b);
  const Tensor none = empty({0}, a.options());
  const Tensor rank =
      name == "gels" ? empty({0}, a.options().dtype(kInt64)) : matrix_rank(a, std::nullopt, rcond);
  Tensor singular_values = none;
  if (name == "gelsd" || name == "gelss") {
    NoGradGuard values_only;
    singular_values = svdvals(a);
  }
  const int64_t m = a.size(-2), n = a.size(-1);
  const bool full_rank = name == "gels" || all(eq(rank, n)).item<bool>();
  Tensor residuals = none;
  if (name != "gelsy" && m > n && full_rank) {
    residuals = (matmul(a, solution) - b).square().sum({-2});
  }
  return {solution, residuals, rank, singular_values};
}

}  // namespace accel::linalg
