// Logical ops, NaN/infinity tests, any/all and the bool operators (ops/logical.cpp), and the
// rearrangements' and norms' rules beyond the PyTorch fixtures: dtypes, edge cases, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using testing::expect_error_containing;

std::vector<int64_t> ints(const Tensor& t) {
  const Tensor c = t.to(kInt64).contiguous();
  return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

TEST(Logical, NonzeroIsTrueAndResultsAreBool) {
  const Tensor a = tensor({0, 1, 2, 0}), b = tensor({0.f, 0.f, 3.f, -1.f});
  EXPECT_EQ(logical_not(a).dtype(), kBool);
  EXPECT_EQ(ints(logical_not(a)), (std::vector<int64_t>{1, 0, 0, 1}));
  EXPECT_EQ(ints(logical_and(a, b)), (std::vector<int64_t>{0, 0, 1, 0}));
  EXPECT_EQ(ints(logical_or(a, b)), (std::vector<int64_t>{0, 1, 1, 1}));
  EXPECT_EQ(ints(logical_xor(a, b)), (std::vector<int64_t>{0, 1, 0, 1}));
  const Tensor m = a > 0, n = b > 0;
  EXPECT_EQ(ints(~m), (std::vector<int64_t>{1, 0, 0, 1}));
  EXPECT_EQ(ints(m & n), (std::vector<int64_t>{0, 0, 1, 0}));
  EXPECT_EQ(ints(m | n), (std::vector<int64_t>{0, 1, 1, 0}));
  EXPECT_EQ(ints(m ^ n), (std::vector<int64_t>{0, 1, 0, 0}));
  expect_error_containing([&] { (void)~a; }, "bitwise_not");
  expect_error_containing([&] { (void)(m & a); }, "bool tensors only");
}

TEST(Logical, NanAndInfinityTests) {
  const Tensor x = tensor({1.f, NAN, INFINITY, -INFINITY, 0.f});
  EXPECT_EQ(ints(isnan(x)), (std::vector<int64_t>{0, 1, 0, 0, 0}));
  EXPECT_EQ(ints(x.isinf()), (std::vector<int64_t>{0, 0, 1, 1, 0}));
  EXPECT_EQ(ints(x.isfinite()), (std::vector<int64_t>{1, 0, 0, 0, 1}));
  const Tensor i = tensor({1, 2});
  EXPECT_EQ(ints(isnan(i)), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(ints(isinf(i)), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(ints(isfinite(i)), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(isinf(i).dtype(), kBool);
}

TEST(Logical, AnyAndAllOverEverythingOrADim) {
  const Tensor a = tensor({0, 1, 0, 0, 2, 3}).view({2, 3});
  EXPECT_TRUE(a.any().item<bool>());
  EXPECT_FALSE(a.all().item<bool>());
  EXPECT_EQ(ints(a.any(1)), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(ints(a.all(0)), (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(ints(all(a, -1, true)), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(all(a, -1, true).sizes(), IntArrayRef({2, 1}));
  EXPECT_TRUE(zeros({0}).all().item<bool>());  // vacuous truth, as PyTorch
  EXPECT_FALSE(zeros({0}).any().item<bool>());
}

TEST(Arrange, EdgeCasesAndErrors) {
  EXPECT_EQ(ints(tensor({1, 2, 3}).flip({0})), (std::vector<int64_t>{3, 2, 1}));
  const Tensor s = scalar_tensor(int64_t{5});
  EXPECT_FALSE(s.flip({0}).is_same(s));
  expect_error_containing([] { (void)zeros({2, 2}).flip({0, -2}); }, "more than once");
  EXPECT_EQ(zeros({2}).repeat({3, 2}).sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(zeros({2}).repeat({0}).numel(), 0);
  expect_error_containing([] { (void)zeros({2, 2}).repeat({2}); }, "number of repeats");
  EXPECT_EQ(ints(ones({2, 2}, kBool).triu(1)), (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_EQ(ones({2, 2}, kBool).triu().dtype(), kBool);
  expect_error_containing([] { (void)zeros({3}).tril(); }, "at least 2 dims");
}

TEST(Norm, OrdersDtypesAndErrors) {
  const Tensor v = tensor({3.0, -4.0, 0.0});
  EXPECT_DOUBLE_EQ(v.norm().item<double>(), 5.0);
  EXPECT_DOUBLE_EQ(v.norm(0).item<double>(), 2.0);
  EXPECT_DOUBLE_EQ(v.norm(-INFINITY).item<double>(), 0.0);
  EXPECT_EQ(tensor({3.f, 4.f}).norm().dtype(), kFloat32);
  // An all-zero vector's gradient is zero, not NaN.
  const Tensor z = zeros({3}, kFloat64).requires_grad_();
  z.norm().backward();
  EXPECT_EQ(ints(z.grad()), (std::vector<int64_t>{0, 0, 0}));
  expect_error_containing([] { (void)tensor({1, 2}).norm(); }, "floating point");
  EXPECT_DOUBLE_EQ(dot(tensor({1.0, 2.0}), tensor({3.0, 4.0})).item<double>(), 11.0);
  expect_error_containing([] { (void)dot(zeros({2}), zeros({3})); }, "same number of elements");
  expect_error_containing([] { (void)dot(zeros({2}), zeros({2}, kFloat64)); }, "same dtype");
  expect_error_containing([] { (void)dot(zeros({2, 1}), zeros({2})); }, "1-D");
}

TEST(OneHot, RowsWithAOneAtTheClass) {
  namespace F = nn::functional;
  const Tensor classes = tensor({2, 0, 1});
  const Tensor rows = F::one_hot(classes);
  EXPECT_EQ(rows.dtype(), kInt64);
  EXPECT_EQ(rows.sizes(), IntArrayRef({3, 3}));
  EXPECT_EQ(ints(rows), (std::vector<int64_t>{0, 0, 1, 1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(F::one_hot(classes.view({3, 1}), 5).sizes(), IntArrayRef({3, 1, 5}));
  expect_error_containing([&] { (void)F::one_hot(classes, 2); }, "smaller than num_classes 2");
  expect_error_containing([] { (void)F::one_hot(tensor({-1})); }, "non-negative");
  expect_error_containing([] { (void)F::one_hot(tensor({1.f})); }, "int64");
  expect_error_containing([] { (void)F::one_hot(zeros({0}, kInt64)); }, "give num_classes");
  EXPECT_EQ(F::one_hot(zeros({0}, kInt64), 4).sizes(), IntArrayRef({0, 4}));
}

}  // namespace
}  // namespace accel
