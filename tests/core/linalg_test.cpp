// Linear algebra (accel/core/linalg.h): the op table against PyTorch fixtures
// (tests/reference/cases_linalg.py), in float64 and float32 with finite-difference gradients,
// then what fixtures cannot show: gradients at a singular matrix, factors that reproduce their
// input, batches of empty matrices, and every error.
#include <gtest/gtest.h>

#include <limits>

#include "accel/accel.h"
#include "accel/core/autograd/node.h"
#include "support/expect_error.h"
#include "support/gradient.h"
#include "support/op_harness.h"
#include "support/tensor_compare.h"
#include "support/thread_count.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::grad_of;
using testing::OpCase;
using V = std::vector<Tensor>;

// The compositions of cases_linalg.py.
Tensor mT(const Tensor& a) { return a.transpose(-2, -1); }
Tensor identity_like(const Tensor& a) { return eye(a.size(-1), a.options()); }
Tensor well(const Tensor& a) { return a + 3 * identity_like(a); }
Tensor spd(const Tensor& a) {
  return matmul(a, mT(a)) + static_cast<double>(a.size(-1)) * identity_like(a);
}
Tensor sym(const Tensor& a) { return a + mT(a); }
Tensor column_signs(const Tensor& v) { return sign(v.narrow(-2, 0, 1)); }
Tensor fixed_columns(const Tensor& v) { return v * column_signs(v); }
std::tuple<Tensor, Tensor, Tensor> fixed_svd(const Tensor& a, bool full_matrices = false) {
  auto [u, s, vh] = linalg::svd(a, full_matrices);
  const int64_t k = s.size(-1);
  u = u.narrow(-1, 0, k);
  vh = vh.narrow(-2, 0, k);
  const Tensor signs = column_signs(u);
  return {u * signs, s, vh * mT(signs)};
}
Tensor flat(const std::tuple<Tensor, Tensor>& qr) {
  return cat({std::get<0>(qr).reshape({-1}), std::get<1>(qr).reshape({-1})});
}
DimVector linalg_sizes(const Tensor& a, int64_t rows, int64_t cols) {
  DimVector sizes(a.sizes().begin(), a.sizes().end() - 2);
  sizes.push_back(rows);
  sizes.push_back(cols);
  return sizes;
}
Tensor lu_solve_with(const Tensor& a, const Tensor& b, bool left = true, bool adjoint = false) {
  const auto [lu, pivots] = linalg::lu_factor(a);
  return linalg::lu_solve(lu, pivots, b, left, adjoint);
}
Tensor junk_lower(const Tensor& like) { return full({4, 4}, 7.0, like.options()).tril(-1); }
Tensor zero_column(const Tensor& like) { return tensor({{1.0, 1.0, 0.0, 1.0}}).to(like.dtype()); }

// PyTorch's linalg takes float32 and float64 only.
const std::vector<ScalarType> kFloat32Only = {kFloat32};
constexpr double kInf = std::numeric_limits<double>::infinity();

const std::vector<OpCase> kLinalgCases = {
    // inverses and solves
    {"inv", [](const V& x) { return linalg::inv(well(x[0])); }, kFloat32Only},
    {"inv_batch", [](const V& x) { return linalg::inv(well(x[0])); }, kFloat32Only},
    {"inverse", [](const V& x) { return inverse(well(x[0])); }, kFloat32Only},
    {"solve", [](const V& x) { return linalg::solve(well(x[0]), x[1]); }, kFloat32Only},
    {"solve_vector", [](const V& x) { return linalg::solve(well(x[0]), x[1]); }, kFloat32Only},
    {"solve_batch_of_vectors", [](const V& x) { return linalg::solve(well(x[0]), x[1]); },
     kFloat32Only},
    {"solve_broadcast", [](const V& x) { return linalg::solve(well(x[0]), x[1]); }, kFloat32Only},
    {"solve_right", [](const V& x) { return linalg::solve(well(x[0]), x[1], false); },
     kFloat32Only},
    // determinants
    {"det", [](const V& x) { return linalg::det(x[0]); }, kFloat32Only},
    {"det_batch", [](const V& x) { return det(x[0]); }, kFloat32Only},
    {"det_singular", [](const V& x) { return linalg::det(x[0] * zero_column(x[0])); },
     kFloat32Only},
    {"slogdet_logabsdet", [](const V& x) { return std::get<1>(linalg::slogdet(x[0])); },
     kFloat32Only},
    {"slogdet_sign", [](const V& x) { return std::get<0>(slogdet(x[0])); }, kFloat32Only},
    {"logdet", [](const V& x) { return logdet(spd(x[0])); }, kFloat32Only},
    {"logdet_negative", [](const V& x) { return logdet(-spd(x[0])); }, kFloat32Only},
    // triangular solves and Cholesky
    {"solve_triangular_upper",
     [](const V& x) { return linalg::solve_triangular(well(x[0]), x[1], true); }, kFloat32Only},
    {"solve_triangular_lower_unit",
     [](const V& x) { return linalg::solve_triangular(x[0], x[1], false, true, true); },
     kFloat32Only},
    {"solve_triangular_right",
     [](const V& x) { return linalg::solve_triangular(well(x[0]), x[1], false, false); },
     kFloat32Only},
    {"solve_triangular_broadcast",
     [](const V& x) { return linalg::solve_triangular(well(x[0]), x[1], true); }, kFloat32Only},
    {"cholesky", [](const V& x) { return linalg::cholesky(spd(x[0])); }, kFloat32Only},
    {"cholesky_upper", [](const V& x) { return linalg::cholesky(spd(x[0]), true); }, kFloat32Only},
    {"cholesky_batch", [](const V& x) { return linalg::cholesky(spd(x[0])); }, kFloat32Only},
    {"cholesky_solve", [](const V& x) { return cholesky_solve(x[1], linalg::cholesky(spd(x[0]))); },
     kFloat32Only},
    {"cholesky_solve_upper",
     [](const V& x) { return cholesky_solve(x[1], linalg::cholesky(spd(x[0]), true), true); },
     kFloat32Only},
    {"cholesky_inverse", [](const V& x) { return cholesky_inverse(linalg::cholesky(spd(x[0]))); },
     kFloat32Only},
    // QR
    {"qr_tall", [](const V& x) { return flat(linalg::qr(x[0])); }, kFloat32Only},
    {"qr_wide", [](const V& x) { return flat(linalg::qr(x[0])); }, kFloat32Only},
    {"qr_square_batch", [](const V& x) { return flat(linalg::qr(x[0])); }, kFloat32Only},
    {"qr_complete", [](const V& x) { return flat(linalg::qr(x[0], "complete")); }, kFloat32Only},
    {"qr_r", [](const V& x) { return std::get<1>(linalg::qr(x[0], "r")); }, kFloat32Only},
    {"qr_complete_tall_forward", [](const V& x) { return flat(linalg::qr(x[0], "complete")); },
     kFloat32Only},
    // symmetric eigen-decomposition
    {"eigh_values", [](const V& x) { return std::get<0>(linalg::eigh(sym(x[0]))); }, kFloat32Only},
    {"eigh_vectors", [](const V& x) { return fixed_columns(std::get<1>(linalg::eigh(sym(x[0])))); },
     kFloat32Only},
    {"eigh_upper",
     [](const V& x) { return std::get<0>(linalg::eigh(sym(x[0]) + junk_lower(x[0]), "U")); },
     kFloat32Only},
    {"eigh_upper_vectors",
     [](const V& x) {
       return fixed_columns(std::get<1>(linalg::eigh(sym(x[0]) + junk_lower(x[0]), "U")));
     },
     kFloat32Only},
    {"eigvalsh", [](const V& x) { return linalg::eigvalsh(sym(x[0])); }, kFloat32Only},
    // SVD
    {"svd_values", [](const V& x) { return std::get<1>(linalg::svd(x[0])); }, kFloat32Only},
    {"svd_u_tall", [](const V& x) { return std::get<0>(fixed_svd(x[0])); }, kFloat32Only},
    {"svd_vh_tall", [](const V& x) { return std::get<2>(fixed_svd(x[0])); }, kFloat32Only},
    {"svd_u_wide", [](const V& x) { return std::get<0>(fixed_svd(x[0])); }, kFloat32Only},
    {"svd_vh_wide", [](const V& x) { return std::get<2>(fixed_svd(x[0])); }, kFloat32Only},
    {"svd_full_u_leading", [](const V& x) { return std::get<0>(fixed_svd(x[0], true)); },
     kFloat32Only},
    {"svd_full_u_shape",
     [](const V& x) { return std::get<0>(linalg::svd(x[0])).square().sum({-1}); }, kFloat32Only},
    {"svdvals", [](const V& x) { return linalg::svdvals(x[0]); }, kFloat32Only},
    // from the spectrum
    {"pinv_tall", [](const V& x) { return linalg::pinv(x[0]); }, kFloat32Only},
    {"pinv_wide", [](const V& x) { return linalg::pinv(x[0]); }, kFloat32Only},
    {"pinv_hermitian",
     [](const V& x) { return linalg::pinv(sym(x[0]), std::nullopt, std::nullopt, true); },
     kFloat32Only},
    {"pinv_rank_deficient", [](const V& x) { return linalg::pinv(matmul(x[0], x[1])); },
     kFloat32Only},
    {"pinverse", [](const V& x) { return pinverse(x[0]); }, kFloat32Only},
    {"matrix_rank", [](const V& x) { return linalg::matrix_rank(matmul(x[0], x[1])); },
     kFloat32Only},
    {"matrix_rank_atol", [](const V& x) { return linalg::matrix_rank(x[0], 1.0); }, kFloat32Only},
    {"matrix_rank_hermitian",
     [](const V& x) {
       return linalg::matrix_rank(matmul(x[0], mT(x[0])), std::nullopt, std::nullopt, true);
     },
     kFloat32Only},
    {"cond", [](const V& x) { return linalg::cond(well(x[0])); }, kFloat32Only},
    {"cond_batch_neg2", [](const V& x) { return linalg::cond(x[0], -2); }, kFloat32Only},
    {"cond_fro", [](const V& x) { return linalg::cond(well(x[0]), "fro"); }, kFloat32Only},
    {"cond_1", [](const V& x) { return linalg::cond(well(x[0]), 1); }, kFloat32Only},
    // norms
    {"vector_norm", [](const V& x) { return linalg::vector_norm(x[0], 3, {0}); }, kFloat32Only},
    {"matrix_norm_fro", [](const V& x) { return linalg::matrix_norm(x[0]); }, kFloat32Only},
    {"matrix_norm_nuc", [](const V& x) { return linalg::matrix_norm(x[0], "nuc"); }, kFloat32Only},
    {"matrix_norm_2", [](const V& x) { return linalg::matrix_norm(x[0], 2); }, kFloat32Only},
    {"matrix_norm_neg2", [](const V& x) { return linalg::matrix_norm(x[0], -2); }, kFloat32Only},
    {"matrix_norm_1", [](const V& x) { return linalg::matrix_norm(x[0], 1); }, kFloat32Only},
    {"matrix_norm_neg1", [](const V& x) { return linalg::matrix_norm(x[0], -1); }, kFloat32Only},
    {"matrix_norm_inf_dims_keepdim",
     [](const V& x) {
       return linalg::matrix_norm(x[0], kInf, {2, 0}, true);
     },
     kFloat32Only},
    {"matrix_norm_neg_inf", [](const V& x) { return linalg::matrix_norm(x[0], -kInf); },
     kFloat32Only},
    {"matrix_norm_2_dims_keepdim",
     [](const V& x) {
       return linalg::matrix_norm(x[0], 2, {0, 2}, true);
     },
     kFloat32Only},
    // products
    {"matrix_power_3", [](const V& x) { return linalg::matrix_power(x[0], 3); }},
    {"matrix_power_6_batch", [](const V& x) { return matrix_power(x[0] * 0.5, 6); }},
    {"matrix_power_neg2", [](const V& x) { return linalg::matrix_power(well(x[0]), -2); },
     kFloat32Only},
    {"matrix_power_0", [](const V& x) { return linalg::matrix_power(x[0], 0); }},
    {"multi_dot",
     [](const V& x) {
       return linalg::multi_dot({x[0], x[1], x[2]});
     }},
    {"multi_dot_vectors",
     [](const V& x) {
       return linalg::multi_dot({x[0], x[1], x[2], x[3]});
     }},
    {"vecdot", [](const V& x) { return linalg::vecdot(x[0], x[1]); }},
    // the matrix exponential
    {"matrix_exp", [](const V& x) { return linalg::matrix_exp(x[0]); }, kFloat32Only},
    {"matrix_exp_batch_scaled", [](const V& x) { return matrix_exp(x[0] * 3); }, kFloat32Only},
    // least squares
    {"lstsq_tall", [](const V& x) { return std::get<0>(linalg::lstsq(x[0], x[1])); }, kFloat32Only},
    {"lstsq_wide", [](const V& x) { return std::get<0>(linalg::lstsq(x[0], x[1])); }, kFloat32Only},
    {"lstsq_gelsd_residuals",
     [](const V& x) { return std::get<1>(linalg::lstsq(x[0], x[1], std::nullopt, "gelsd")); },
     kFloat32Only},
    {"lstsq_gelss_singular_values",
     [](const V& x) { return std::get<3>(linalg::lstsq(x[0], x[1], std::nullopt, "gelss")); },
     kFloat32Only},
    {"lstsq_rank_deficient",
     [](const V& x) { return std::get<2>(linalg::lstsq(matmul(x[0], x[1]), x[2])); }, kFloat32Only},
    {"lstsq_rank_deficient_solution",
     [](const V& x) {
       return std::get<0>(linalg::lstsq(matmul(x[0], x[1]), x[2], std::nullopt, "gelsd"));
     },
     kFloat32Only},
    // singular and empty matrices
    {"cond_singular_fro", [](const V& x) { return linalg::cond(x[0] * zero_column(x[0]), "fro"); },
     kFloat32Only},
    {"matrix_norm_2_empty", [](const V& x) { return linalg::matrix_norm(x[0], 2); }, kFloat32Only},
    // LU factors
    {"lu_factor", [](const V& x) { return std::get<0>(linalg::lu_factor(x[0])); }, kFloat32Only},
    {"lu_factor_pivots", [](const V& x) { return std::get<1>(linalg::lu_factor(x[0])); },
     kFloat32Only},
    {"lu_p", [](const V& x) { return std::get<0>(linalg::lu(x[0])); }, kFloat32Only},
    {"lu_l", [](const V& x) { return std::get<1>(linalg::lu(x[0])); }, kFloat32Only},
    {"lu_u", [](const V& x) { return std::get<2>(linalg::lu(x[0])); }, kFloat32Only},
    {"lu_solve", [](const V& x) { return lu_solve_with(well(x[0]), x[1]); }, kFloat32Only},
    {"lu_solve_adjoint", [](const V& x) { return lu_solve_with(well(x[0]), x[1], true, true); },
     kFloat32Only},
    {"lu_solve_right", [](const V& x) { return lu_solve_with(well(x[0]), x[1], false); },
     kFloat32Only},
    {"lu_solve_broadcast", [](const V& x) { return lu_solve_with(well(x[0]), x[1]); },
     kFloat32Only},
    // the non-throwing variants
    {"inv_ex", [](const V& x) { return std::get<0>(linalg::inv_ex(well(x[0]))); }, kFloat32Only},
    {"inv_ex_info",
     [](const V& x) { return std::get<1>(linalg::inv_ex(x[0] * zero_column(x[0]))); },
     kFloat32Only},
    {"cholesky_ex", [](const V& x) { return std::get<0>(linalg::cholesky_ex(spd(x[0]))); },
     kFloat32Only},
    {"cholesky_ex_info",
     [](const V& x) {
       return std::get<1>(linalg::cholesky_ex(sym(x[0]) - 4 * identity_like(x[0])));
     },
     kFloat32Only},
    // linalg.norm
    {"norm_default", [](const V& x) { return linalg::norm(x[0]); }, kFloat32Only},
    {"norm_vector_ord", [](const V& x) { return linalg::norm(x[0], 3); }, kFloat32Only},
    {"norm_matrix_ord", [](const V& x) { return linalg::norm(x[0], kInf); }, kFloat32Only},
    {"norm_dim_vector", [](const V& x) { return linalg::norm(x[0], 1, {1}, true); }, kFloat32Only},
    {"norm_dim_matrix",
     [](const V& x) {
       return linalg::norm(x[0], -2, {0, 2});
     },
     kFloat32Only},
    {"norm_nuc", [](const V& x) { return linalg::norm(x[0], "nuc"); }, kFloat32Only},
    {"norm_fro_dims",
     [](const V& x) {
       return linalg::norm(x[0], "fro", {1, 2});
     },
     kFloat32Only},
    {"norm_zero", [](const V& x) { return linalg::norm(x[0], 0); }, kFloat32Only},
};

ACCEL_OP_TEST_SUITE(LinalgOps, "ops_linalg.json", kLinalgCases);

void expect_close(const Tensor& actual, const Tensor& expected, double tol = 1e-10) {
  testing::expect_tensors_close(actual, expected, {tol, tol}, "result");
}

// ---- what the factors are ----

TEST(LinalgFactors, ReproduceTheirInputInBothDtypes) {
  manual_seed(7);
  for (const ScalarType dtype : {kFloat64, kFloat32}) {
    SCOPED_TRACE(fmt::format("{}", dtype));
    const double tol = dtype == kFloat64 ? 1e-12 : 1e-5;
    for (const auto& shape : {std::vector<int64_t>{2, 5, 3}, std::vector<int64_t>{3, 6}}) {
      const Tensor a = randn(shape, TensorOptions(dtype));
      const int64_t m = a.size(-2), n = a.size(-1);
      const auto [q, r] = linalg::qr(a);
      expect_close(matmul(q, r), a, tol);
      const int64_t k = std::min(m, n);
      expect_close(matmul(mT(q), q), eye(k, TensorOptions(dtype)).expand(linalg_sizes(a, k, k)),
                   tol);
      expect_close(r, r.triu(), 0);
      const auto [full_q, full_r] = linalg::qr(a, "complete");
      EXPECT_EQ(full_q.sizes(), IntArrayRef(linalg_sizes(a, m, m)));
      expect_close(matmul(full_q, full_r), a, tol);
      const auto [u, s, vh] = linalg::svd(a);
      EXPECT_EQ(u.sizes(), IntArrayRef(linalg_sizes(a, m, m)));
      EXPECT_EQ(vh.sizes(), IntArrayRef(linalg_sizes(a, n, n)));
      expect_close(matmul(u.narrow(-1, 0, k) * s.unsqueeze(-2), vh.narrow(-2, 0, k)), a, tol);
      expect_close(matmul(mT(vh), vh), eye(n, TensorOptions(dtype)).expand(linalg_sizes(a, n, n)),
                   tol);
      EXPECT_TRUE(all(ge(s.narrow(-1, 0, k - 1), s.narrow(-1, 1, k - 1))).item<bool>());
      const Tensor symmetric = sym(randn({3, 4, 4}, TensorOptions(dtype)));
      const auto [lambda, v] = linalg::eigh(symmetric);
      expect_close(matmul(v * lambda.unsqueeze(-2), mT(v)), symmetric, tol);
      const Tensor positive = spd(randn({4, 4}, TensorOptions(dtype)));
      const Tensor l = linalg::cholesky(positive);
      expect_close(matmul(l, mT(l)), positive, tol * 10);
      expect_close(l, l.tril(), 0);
      expect_close(matmul(positive, linalg::inv(positive)), eye(4, TensorOptions(dtype)), tol * 10);
    }
  }
}

TEST(LinalgFactors, BatchesGiveTheSameBitsOnAnyThreadCount) {
  manual_seed(3);
  // Enough 6 x 6 matrices that every op splits the batch among the threads.
  const Tensor a = randn({1024, 6, 6}, kFloat64);
  auto results = [&] {
    return std::vector<Tensor>{linalg::inv(a),
                               linalg::det(a),
                               std::get<1>(linalg::svd(a)),
                               std::get<1>(linalg::eigh(sym(a))),
                               linalg::cholesky(spd(a)),
                               std::get<1>(linalg::qr(a))};
  };
  std::vector<Tensor> one_thread;
  {
    testing::ThreadCount single(1);
    one_thread = results();
  }
  testing::ThreadCount several(3);
  const std::vector<Tensor> three_threads = results();
  for (size_t i = 0; i < one_thread.size(); ++i) {
    testing::expect_same_bits(three_threads[i], one_thread[i], fmt::format("result {}", i));
  }
}

TEST(LinalgFactors, BatchesOfNoMatricesAndEmptyMatrices) {
  const Tensor none = zeros({0, 3, 3}, kFloat64);
  EXPECT_EQ(linalg::inv(none).sizes(), IntArrayRef({0, 3, 3}));
  EXPECT_EQ(linalg::det(none).sizes(), IntArrayRef({0}));
  EXPECT_EQ(std::get<0>(linalg::eigh(none)).sizes(), IntArrayRef({0, 3}));
  EXPECT_EQ(linalg::svdvals(zeros({2, 0, 4}, kFloat64)).sizes(), IntArrayRef({2, 0}));
  // The determinant of a 0 x 0 matrix is 1.
  expect_close(linalg::det(zeros({2, 0, 0}, kFloat64)), ones({2}, kFloat64));
}

// A row permutation of the identity: row i holds a one in column (i + 1) % n (n - 1 swaps).
Tensor cyclic_shift(int64_t n) { return eye(n, kFloat64).roll({1}, {1}); }

TEST(LinalgFactors, LargeMatricesTakeTheBlockedFactorization) {
  // The fixtures' matrices are small (unblocked LU); these have more than 16 rows.
  manual_seed(11);
  const Tensor a = randn({40, 40}, kFloat64);
  expect_close(matmul(a, linalg::inv(a)), eye(40, kFloat64), 1e-9);
  const Tensor b = randn({40, 3}, kFloat64);
  expect_close(matmul(a, linalg::solve(a, b)), b, 1e-9);
  // The gradient solves with Aᵀ (the factors' transposed solve).
  const Tensor grad_b = grad_of([&](const Tensor& t) { return linalg::solve(a, t); }, b);
  expect_close(matmul(mT(a), grad_b), ones_like(b), 1e-9);
  // det(A)² = det(A Aᵀ), the product of its eigenvalues.
  const Tensor gram = matmul(a, mT(a));
  expect_close(linalg::det(a).square() / linalg::eigvalsh(gram).prod(), scalar_tensor(1.0), 1e-8);
  // The sign comes from the pivots: a cyclic shift of n rows is n - 1 swaps.
  for (const int64_t n : {5, 6, 20, 21}) {
    SCOPED_TRACE(n);
    const double sign = n % 2 == 1 ? 1.0 : -1.0;
    expect_close(linalg::det(cyclic_shift(n)), scalar_tensor(sign, kFloat64));
    expect_close(std::get<0>(linalg::slogdet(cyclic_shift(n))), scalar_tensor(sign, kFloat64));
    expect_close(linalg::inv(cyclic_shift(n)), mT(cyclic_shift(n)));
  }
  // Cholesky, eigh, svd and qr of the large size too.
  const Tensor positive = spd(a);
  const Tensor l = linalg::cholesky(positive);
  expect_close(matmul(l, mT(l)), positive, 1e-9);
  const auto [u, s, vh] = linalg::svd(a, false);
  expect_close(matmul(u * s.unsqueeze(-2), vh), a, 1e-9);
}

TEST(LinalgFactors, LuOfManyPanels) {
  // Past 16 rows LU goes a panel of 64 columns at a time: one panel, a whole number of them
  // and a last partial one, in both precisions. P A = L U with every multiplier at most 1 in
  // magnitude (partial pivoting); a zero column deep in the matrix is found in its panel; and
  // one large matrix gives the same bits on any thread count.
  manual_seed(14);
  for (const ScalarType dtype : {kFloat64, kFloat32}) {
    for (const int64_t n : {17, 64, 65, 130, 300}) {
      SCOPED_TRACE(fmt::format("{} {}", dtype, n));
      const Tensor a = randn({n, n}, kFloat64);
      const auto [p, l, u] = linalg::lu(a.to(dtype));
      expect_close(matmul(p, matmul(l, u)).to(kFloat64), a, dtype == kFloat64 ? 1e-11 : 1e-4);
      EXPECT_LE(l.abs().max().item<double>(), 1.0);
      EXPECT_TRUE(equal(u, u.triu()));
    }
  }
  Tensor singular = randn({150, 150}, kFloat64);
  singular.select(1, 100).zero_();
  EXPECT_EQ(std::get<1>(linalg::inv_ex(singular)).item<int64_t>(), 101);
  const Tensor a = randn({300, 300}, kFloat64);
  Tensor one_thread;
  {
    testing::ThreadCount single(1);
    one_thread = std::get<0>(linalg::lu_factor(a));
  }
  testing::ThreadCount several(3);
  testing::expect_same_bits(std::get<0>(linalg::lu_factor(a)), one_thread, "lu of 300 x 300");
}

TEST(LinalgFactors, CholeskyOfManyColumnBlocks) {
  // Past 16 rows Cholesky goes a block of 64 columns at a time: one block, a whole number of
  // them, and a last partial one, in both precisions; zeros above the diagonal.
  manual_seed(12);
  for (const ScalarType dtype : {kFloat64, kFloat32}) {
    for (const int64_t n : {17, 64, 65, 129, 300}) {
      SCOPED_TRACE(fmt::format("{} {}", dtype, n));
      const Tensor a = randn({n, n}, kFloat64);
      const Tensor positive = matmul(a, mT(a)) / double(n) + eye(n, kFloat64);
      const Tensor l = linalg::cholesky(positive.to(dtype));
      expect_close(matmul(l, mT(l)).to(kFloat64), positive, dtype == kFloat64 ? 1e-12 : 1e-5);
      EXPECT_TRUE(equal(l, l.tril()));
    }
  }
  // One large matrix: the trailing updates' products split among the threads, same bits.
  const Tensor a = randn({300, 300}, kFloat64);
  const Tensor positive = matmul(a, mT(a)) + eye(300, kFloat64);
  Tensor one_thread;
  {
    testing::ThreadCount single(1);
    one_thread = linalg::cholesky(positive);
  }
  testing::ThreadCount several(3);
  testing::expect_same_bits(linalg::cholesky(positive), one_thread, "cholesky of 300 x 300");
  // A leading minor that fails deep in the matrix is named by its order.
  Tensor failing = positive.clone();
  failing.index_put_({149, 149}, -1.0);
  EXPECT_EQ(std::get<1>(linalg::cholesky_ex(failing)).item<int64_t>(), 150);
}

TEST(LinalgFactors, TriangularSolvesOfManyRowBlocksAndColumns) {
  // Past 64 rows the solves go a block of 64 rows at a time (by substitution, then a product
  // for the rows left), 128 right-hand sides to a thread: whole and partial blocks of rows, a
  // last part of columns neither a whole vector nor one, every triangle and transposition, the
  // solves from LU factors, and the same bits on any thread count.
  manual_seed(13);
  for (const ScalarType dtype : {kFloat64, kFloat32}) {
    const double tolerance = dtype == kFloat64 ? 1e-10 : 1e-3;
    for (const int64_t n : {65, 128, 150}) {
      const Tensor b = randn({n, 300}, kFloat64);
      const Tensor a = randn({n, n}, kFloat64) / double(n) + 2 * eye(n, kFloat64);
      for (const bool upper : {false, true}) {
        for (const bool left : {true, false}) {
          for (const bool unit : {false, true}) {
            SCOPED_TRACE(
                fmt::format("{} n {} upper {} left {} unit {}", dtype, n, upper, left, unit));
            const Tensor triangle = upper ? a.triu() : a.tril();
            const Tensor stored = unit ? triangle + 5 * eye(n, kFloat64) : triangle;  // unread
            const Tensor rhs = left ? b : mT(b);
            const Tensor x =
                linalg::solve_triangular(stored.to(dtype), rhs.to(dtype), upper, left, unit)
                    .to(kFloat64);
            const Tensor used =
                unit ? triangle - triangle.diag().diag() + eye(n, kFloat64) : triangle;
            expect_close(left ? matmul(used, x) : matmul(x, used), rhs, tolerance);
          }
        }
      }
      const auto [lu, pivots] = linalg::lu_factor(a.to(dtype));
      for (const bool adjoint : {false, true}) {
        const Tensor x = linalg::lu_solve(lu, pivots, b.to(dtype), true, adjoint).to(kFloat64);
        expect_close(matmul(adjoint ? mT(a) : a, x), b, tolerance);
      }
    }
  }
  const Tensor a = randn({200, 200}, kFloat64) + 20 * eye(200, kFloat64);
  const Tensor b = randn({200, 300}, kFloat64);
  Tensor one_thread;
  {
    testing::ThreadCount single(1);
    one_thread = linalg::solve(a, b);
  }
  testing::ThreadCount several(3);
  testing::expect_same_bits(linalg::solve(a, b), one_thread, "solve of 200 x 200, 300 columns");
}

TEST(LinalgFunctions, TorchNamesAndTensorMethodsAreTheLinalgFunctions) {
  manual_seed(5);
  const Tensor a = well(randn({2, 3, 3}, kFloat64));
  const Tensor b = randn({2, 3, 2}, kFloat64);
  const Tensor l = linalg::cholesky(spd(a));
  testing::expect_same_bits(a.inverse(), linalg::inv(a), "inverse");
  testing::expect_same_bits(a.det(), linalg::det(a), "det");
  testing::expect_same_bits(a.logdet(), logdet(a), "logdet");
  testing::expect_same_bits(std::get<1>(a.slogdet()), std::get<1>(linalg::slogdet(a)), "slogdet");
  testing::expect_same_bits(b.cholesky_solve(l), cholesky_solve(b, l), "cholesky_solve");
  testing::expect_same_bits(l.cholesky_inverse(), cholesky_inverse(l), "cholesky_inverse");
  testing::expect_same_bits(a.pinverse(), pinverse(a), "pinverse");
  testing::expect_same_bits(a.matrix_power(3), linalg::matrix_power(a, 3), "matrix_power");
  testing::expect_same_bits(a.matrix_exp(), linalg::matrix_exp(a), "matrix_exp");
  // cholesky_inverse is the inverse of L Lᵀ; logdet of a positive-definite matrix its log det.
  expect_close(l.cholesky_inverse(), linalg::inv(spd(a)), 1e-12);
  expect_close(logdet(spd(a)), log(linalg::det(spd(a))), 1e-12);
}

// ---- gradients the fixtures cannot show ----

TEST(LinalgGradients, DetAtASingularMatrixIsTheMatrixOfCofactors) {
  const Tensor a = tensor({{1.0, 2.0, 0.0}, {3.0, 4.0, 0.0}, {5.0, 6.0, 0.0}});
  expect_close(linalg::det(a), scalar_tensor(0.0, kFloat64));
  expect_close(grad_of([](const Tensor& t) { return linalg::det(t); }, a),
               tensor({{0.0, 0.0, -2.0}, {0.0, 0.0, 4.0}, {0.0, 0.0, -2.0}}));
  // In a batch, only the singular matrix takes the cofactors.
  const Tensor batch = stack({a, eye(3, kFloat64) * 2});
  expect_close(
      grad_of([](const Tensor& t) { return linalg::det(t); }, batch),
      stack({tensor({{0.0, 0.0, -2.0}, {0.0, 0.0, 4.0}, {0.0, 0.0, -2.0}}), eye(3, kFloat64) * 4}));
}

TEST(LinalgGradients, LogdetOfASingularMatrixIsMinusInfinityAndItsGradientAnError) {
  const Tensor singular = tensor({{1.0, 2.0}, {2.0, 4.0}});
  const auto [sign, logabsdet] = linalg::slogdet(singular);
  expect_close(sign, scalar_tensor(0.0, kFloat64));
  expect_close(logabsdet, scalar_tensor(-kInf, kFloat64));
  expect_close(logdet(singular), scalar_tensor(-kInf, kFloat64));
  expect_error_containing(
      [&] { grad_of([](const Tensor& t) { return std::get<1>(linalg::slogdet(t)); }, singular); },
      "linalg.slogdet (backward): the diagonal element 2 of U is zero");
}

TEST(LinalgGradients, EachOpRecordsOneNodeAndSignsNone) {
  const Tensor a = well(randn({3, 3}, kFloat64)).requires_grad_();
  EXPECT_EQ(linalg::det(a).grad_fn()->name(), std::string("linalg.det"));
  EXPECT_EQ(linalg::inv(a).grad_fn()->name(), std::string("linalg.inv"));
  const auto [sign, logabsdet] = linalg::slogdet(a);
  EXPECT_FALSE(sign.requires_grad());
  EXPECT_EQ(logabsdet.grad_fn()->name(), std::string("linalg.slogdet"));
  const auto [lu, pivots] = linalg::lu_factor(a);
  EXPECT_FALSE(pivots.requires_grad());
  EXPECT_EQ(lu.grad_fn()->name(), std::string("linalg.lu_factor"));
}

TEST(LinalgGradients, QrModesThatAreNotDifferentiableSaySoInBackward) {
  const Tensor tall = randn({4, 2}, kFloat64);
  expect_error_containing(
      [&] { grad_of([](const Tensor& t) { return std::get<1>(linalg::qr(t, "r")); }, tall); },
      "linalg.qr (backward): the gradient depends on Q, which mode \"r\" does not compute");
  expect_error_containing(
      [&] {
        grad_of([](const Tensor& t) { return std::get<0>(linalg::qr(t, "complete")); }, tall);
      },
      "mode \"complete\" is not differentiable when the matrices have more rows than columns "
      "(4 > 2)");
}

// ---- errors ----

TEST(LinalgErrors, TheExVariantsReportInsteadOfThrowing) {
  const Tensor batch = stack({tensor({{1.0, 2.0}, {2.0, 4.0}}), tensor({{2.0, 1.0}, {1.0, 2.0}})});
  const auto [inverse, inverse_info] = linalg::inv_ex(batch);
  expect_close(inverse_info, tensor({2, 0}).to(kInt32));
  expect_close(inverse[1], linalg::inv(batch[1]));
  const auto [factor, factor_info] = linalg::cholesky_ex(batch);
  expect_close(factor_info, tensor({2, 0}).to(kInt32));
  expect_close(factor[1], linalg::cholesky(batch[1]));
}

TEST(LinalgErrors, SingularAndIndefiniteMatricesNameTheBatchElement) {
  const Tensor singular = tensor({{1.0, 2.0}, {2.0, 4.0}});
  expect_error_containing(
      [&] { linalg::inv(singular); },
      "linalg.inv: the diagonal element 2 of U is zero: the matrix is singular");
  expect_error_containing(
      [&] {
        linalg::solve(stack({eye(2, kFloat64), singular}), ones({2}, kFloat64));
      },
      "linalg.solve: (batch element 1) the diagonal element 2 of U is zero");
  expect_error_containing(
      [&] {
        linalg::cholesky(tensor({{1.0, 2.0}, {2.0, 1.0}}));
      },
      "linalg.cholesky: the input is not positive-definite (the leading "
      "minor of order 2 is not positive-definite)");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  expect_error_containing(
      [&] {
        linalg::cholesky(tensor({{nan, 0.0}, {0.0, 1.0}}));
      },
      "the leading minor of order 1");
  expect_error_containing(
      [&] {
        linalg::svd(tensor({{nan, 0.0}, {0.0, 1.0}}));
      },
      "linalg.svd: the SVD failed to converge (non-finite input?)");
  expect_error_containing(
      [&] {
        linalg::eigh(tensor({{nan, 0.0}, {0.0, 1.0}}));
      },
      "linalg.eigh: the eigenvalue iteration failed to converge");
}

TEST(LinalgErrors, ShapesDtypesAndOptions) {
  const Tensor square = eye(3, kFloat64);
  expect_error_containing(
      [] {
        linalg::inv(ones({2, 3}, kFloat64));
      },
      "linalg.inv: expected square matrices [..., n, n], got shape [2, 3]");
  expect_error_containing([] { linalg::det(ones({3}, kFloat64)); },
                          "linalg.det: expected a tensor of matrices [..., m, n] (2 or more "
                          "dims), got shape [3]");
  expect_error_containing(
      [] {
        linalg::inv(ones({2, 2}, kInt64));
      },
      "linalg.inv: expected a float32 or float64 tensor, got int64");
  expect_error_containing(
      [] {
        linalg::svd(ones({2, 2}, kBFloat16));
      },
      "linalg.svd: expected a float32 or float64 tensor, got bfloat16");
  expect_error_containing([] { linalg::inv(Tensor()); }, "linalg.inv: the tensor is undefined");
  expect_error_containing(
      [&] {
        linalg::solve(square, ones({2, 1}, kFloat64));
      },
      "linalg.solve: expected B [..., 3, k] or a vector of 3 for A of shape "
      "[3, 3], got shape [2, 1]");
  expect_error_containing(
      [&] {
        linalg::solve(square, ones({3, 1}, kFloat32));
      },
      "linalg.solve: expected both tensors of one dtype, got float64 and "
      "float32");
  expect_error_containing([&] { linalg::solve(square, ones({3}, kFloat64), false); },
                          "with left=false, B must be matrices");
  expect_error_containing(
      [&] {
        linalg::solve(ones({2, 3, 3}, kFloat64), ones({4, 3, 1}, kFloat64));
      },
      "linalg.solve");
  expect_error_containing([&] { linalg::solve_triangular(square, ones({3}, kFloat64), true); },
                          "linalg.solve_triangular: expected B to be matrices [..., m, k], got "
                          "shape [3]");
  expect_error_containing(
      [&] {
        cholesky_solve(ones({2, 1}, kFloat64), square);
      },
      "cholesky_solve: expected B [..., 3, k] for a factor of shape [3, 3], "
      "got shape [2, 1]");
  expect_error_containing([&] { linalg::qr(square, "thin"); },
                          "linalg.qr: mode must be \"reduced\", \"complete\" or \"r\", got "
                          "\"thin\"");
  expect_error_containing([&] { linalg::eigh(square, "X"); },
                          "linalg.eigh: UPLO must be \"L\" or \"U\", got \"X\"");
  expect_error_containing(
      [&] {
        linalg::eigvalsh(ones({2, 3}, kFloat64));
      },
      "linalg.eigvalsh: expected square matrices");
  expect_error_containing([&] { linalg::matrix_norm(square, 3); },
                          "linalg.matrix_norm: ord must be 1, -1, 2, -2, inf, -inf, \"fro\" or "
                          "\"nuc\", got 3");
  expect_error_containing([&] { linalg::matrix_norm(square, "max"); },
                          "linalg.matrix_norm: ord must be \"fro\", \"nuc\" or a number, got "
                          "\"max\"");
  expect_error_containing(
      [&] {
        linalg::matrix_norm(square, "fro", {1, -1});
      },
      "linalg.matrix_norm: dim must name two different dims, got [1, -1]");
  expect_error_containing(
      [&] {
        linalg::matrix_power(ones({2, 3}), 2);
      },
      "linalg.matrix_power: expected square matrices [..., n, n], got shape "
      "[2, 3]");
  expect_error_containing([&] { linalg::multi_dot({square}); },
                          "linalg.multi_dot: expected at least 2 tensors, got 1");
  expect_error_containing(
      [&] {
        linalg::multi_dot({square, ones({2, 2}, kFloat64)});
      },
      "linalg.multi_dot: tensors 0 and 1 cannot be multiplied (shapes [3, 3] "
      "and [2, 2])");
  expect_error_containing(
      [&] {
        linalg::multi_dot({square, ones({3}, kFloat64), square});
      },
      "linalg.multi_dot: tensor 1 must be 2-D, got shape [3]");
}

}  // namespace
}  // namespace accel
