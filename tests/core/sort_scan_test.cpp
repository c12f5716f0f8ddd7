// cumsum, sort, argsort and topk beyond the PyTorch fixtures: where NaN and equal values go,
// every dtype, gradients, long rows and columns against a reference written here, empty and
// 0-dim inputs, and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "accel/accel.h"
#include "support/expect_error.h"
#include "support/thread_count.h"

namespace accel {
namespace {

using testing::expect_error_containing;

std::vector<double> doubles(const Tensor& t) {
  const Tensor c = t.to(kFloat64).contiguous();
  return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}

std::vector<int64_t> ints(const Tensor& t) {
  const Tensor c = t.to(kInt64).contiguous();
  return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

using Ints = std::vector<int64_t>;

TEST(Sort, NanOrdersAboveEveryNumber) {
  const Tensor x = tensor({3.f, NAN, -INFINITY, 1.f, NAN, INFINITY});
  const auto [up, up_indices] = x.sort();
  EXPECT_EQ(up_indices.dtype(), kInt64);
  EXPECT_EQ(ints(up_indices), (Ints{2, 3, 0, 5, 1, 4}));
  EXPECT_TRUE(std::isnan(doubles(up)[4]) && std::isnan(doubles(up)[5]));
  EXPECT_EQ(ints(x.argsort(0, /*descending=*/true)), (Ints{1, 4, 5, 0, 3, 2}));
  EXPECT_EQ(ints(std::get<1>(x.topk(3))), (Ints{1, 4, 5}));
  EXPECT_EQ(ints(std::get<1>(x.topk(3, 0, /*largest=*/false))), (Ints{2, 3, 0}));
}

TEST(Sort, EqualValuesKeepTheirOrder) {
  const Tensor x = tensor({1.f, 0.f, 1.f, -0.f, 1.f});
  EXPECT_EQ(ints(x.argsort()), (Ints{1, 3, 0, 2, 4}));  // 0 and -0 are equal
  EXPECT_EQ(ints(x.argsort(0, true)), (Ints{0, 2, 4, 1, 3}));
  EXPECT_EQ(ints(std::get<1>(x.topk(2))), (Ints{0, 2}));
  EXPECT_EQ(ints(std::get<1>(x.topk(2, 0, false))), (Ints{1, 3}));
}

TEST(Sort, EveryDtype) {
  const std::vector<double> values = {5, 0, 7, 3, 1, 3};
  for (ScalarType dtype : {kFloat32, kFloat64, kFloat16, kBFloat16, kInt64, kInt32, kUInt8}) {
    const Tensor x = tensor(values).to(dtype);
    const auto [sorted, indices] = x.sort(0, true);
    EXPECT_EQ(sorted.dtype(), dtype);
    EXPECT_EQ(doubles(sorted), (std::vector<double>{7, 5, 3, 3, 1, 0})) << dtype;
    EXPECT_EQ(ints(indices), (Ints{2, 0, 3, 5, 4, 1})) << dtype;
    EXPECT_EQ(doubles(std::get<0>(x.topk(2, 0, false))), (std::vector<double>{0, 1})) << dtype;
  }
  const Tensor flags = tensor({true, false, true, false});
  EXPECT_EQ(ints(flags.argsort()), (Ints{1, 3, 0, 2}));
  EXPECT_EQ(std::get<0>(flags.sort()).dtype(), kBool);
}

// Rows and columns long enough to split across threads and tiles, against std::stable_sort.
TEST(Sort, LongRowsAndColumnsMatchAStableSort) {
  Generator generator(7);
  const Tensor x = randint(0, 50, {3, 4000}, kInt64, &generator).to(kFloat32);
  for (const bool descending : {false, true}) {
    const Tensor indices = x.argsort(1, descending);
    const Tensor by_columns = x.t().contiguous().argsort(0, descending).t();
    EXPECT_TRUE(indices.equal(by_columns));
    for (const int64_t k : {1, 5, 16, 25}) {  // one pass up to 16, a partial sort above
      const Tensor top = std::get<1>(x.topk(k, 1, descending));
      EXPECT_TRUE(top.equal(indices.narrow(1, 0, k))) << "k " << k;
    }
    for (int64_t row = 0; row < 3; ++row) {
      const std::vector<double> v = doubles(x[row]);
      Ints expected(v.size());
      std::iota(expected.begin(), expected.end(), 0);
      std::stable_sort(expected.begin(), expected.end(), [&](int64_t a, int64_t b) {
        return descending ? v[a] > v[b] : v[a] < v[b];
      });
      EXPECT_EQ(ints(indices[row]), expected) << "row " << row;
    }
  }
}

// Columns sorted whole from 256 elements on take the radix sort; sorting all but one takes the
// comparison sort: both must give the same order for every dtype, with ties, both zeros,
// infinities and NaN, in rows and in strided columns.
TEST(Sort, RadixSortOrdersAsTheComparisonSort) {
  Generator generator(11);
  const int64_t n = 1000;
  const Tensor grid = randint(-12, 12, {n}, kInt64, &generator).to(kFloat64) * 0.5;
  Tensor specials = where(eq(grid, 1.0), -0.0, grid);
  specials = where(eq(specials, 2.0), std::nan(""), specials);
  specials = where(eq(specials, 3.0), INFINITY, where(eq(specials, -3.0), -INFINITY, specials));
  const std::vector<std::pair<ScalarType, Tensor>> inputs = {
      {kFloat32, specials.to(kFloat32)},
      {kFloat64, specials},
      {kFloat16, specials.to(kFloat16)},
      {kBFloat16, specials.to(kBFloat16)},
      {kInt64, randint(-3'000'000'000, 3'000'000'000, {n}, kInt64, &generator)},
      {kInt32, randint(-70000, 70000, {n}, kInt64, &generator).to(kInt32)},
      {kUInt8, randint(0, 256, {n}, kInt64, &generator).to(kUInt8)},
      {kBool, randint(0, 2, {n}, kInt64, &generator).to(kBool)},
  };
  for (const auto& [dtype, x] : inputs) {
    for (const bool descending : {false, true}) {
      const Tensor whole = x.argsort(0, descending);
      const Tensor all_but_one = std::get<1>(x.topk(n - 1, 0, descending));
      EXPECT_TRUE(whole.narrow(0, 0, n - 1).equal(all_but_one)) << dtype << " " << descending;
      // Strided columns: the same values down dim 0 of [n, 2].
      const Tensor columns = stack({x, x}, 1).argsort(0, descending);
      EXPECT_TRUE(columns.select(1, 1).equal(whole)) << dtype << " " << descending;
    }
  }
}

// A column of several radix pieces (2^16 elements each) sorts the same on one thread and on
// several, with an uneven piece count, and as the comparison sort.
TEST(Sort, RadixSortOfALongColumnIsTheSameOnAnyThreadCount) {
  Generator generator(5);
  const int64_t n = 300'000;
  Tensor x = randint(-1000, 1000, {n}, kInt64, &generator).to(kFloat32) * 0.5;
  x = where(eq(x, 7.0), std::nan(""), x);
  for (const bool descending : {false, true}) {
    Tensor by_threads[2];
    for (const int threads : {1, 3}) {
      const testing::ThreadCount count(threads);
      by_threads[threads == 1 ? 0 : 1] = x.argsort(0, descending);
    }
    EXPECT_TRUE(by_threads[0].equal(by_threads[1])) << descending;
    const Tensor all_but_one = std::get<1>(x.topk(n - 1, 0, descending));
    EXPECT_TRUE(by_threads[1].narrow(0, 0, n - 1).equal(all_but_one)) << descending;
  }
}

TEST(Sort, GradientsGoWhereTheValuesCameFrom) {
  Tensor x = tensor({3.0, 1.0, 2.0}).requires_grad_();
  std::get<0>(x.sort()).backward(tensor({10.0, 20.0, 30.0}));
  EXPECT_EQ(doubles(x.grad()), (std::vector<double>{30, 10, 20}));
  Tensor y = tensor({{3.0, 1.0, 2.0}, {0.0, 5.0, 4.0}}).requires_grad_();
  std::get<0>(y.topk(1)).sum().backward();
  EXPECT_EQ(doubles(y.grad()), (std::vector<double>{1, 0, 0, 0, 1, 0}));
  EXPECT_FALSE(y.argsort().requires_grad());
}

TEST(Sort, StridedEmptyAndZeroDimInputs) {
  const Tensor x = tensor({{4.f, 1.f, 3.f}, {0.f, 2.f, 6.f}});
  EXPECT_TRUE(x.t().argsort(0).equal(x.argsort(1).t()));
  const Tensor empty_rows = zeros({0, 3});
  EXPECT_EQ(std::get<0>(empty_rows.sort(0)).sizes(), IntArrayRef({0, 3}));
  EXPECT_EQ(std::get<1>(x.topk(0)).sizes(), IntArrayRef({2, 0}));
  const Tensor scalar = scalar_tensor(2.5, kFloat32);
  const auto [value, index] = scalar.sort();
  EXPECT_EQ(value.dim(), 0);
  EXPECT_EQ(value.item<float>(), 2.5f);
  EXPECT_EQ(index.item<int64_t>(), 0);
  EXPECT_EQ(std::get<1>(scalar.topk(1)).item<int64_t>(), 0);
}

TEST(Sort, Errors) {
  const Tensor x = ones({2, 3});
  expect_error_containing([&] { (void)x.topk(4); },
                          "topk: k (4) is out of range for dimension 1 of size 3");
  expect_error_containing([&] { (void)x.topk(-1, 0); },
                          "k (-1) is out of range for dimension 0 of size 2");
  expect_error_containing([&] { x.sort(2); }, "sort: dimension out of range");
  expect_error_containing([&] { x.argsort(-3); }, "argsort: dimension out of range");
  expect_error_containing([] { Tensor().sort(); }, "sort: the tensor is undefined");
}

TEST(Cumsum, DtypesFollowPyTorch) {
  EXPECT_EQ(tensor({1, 2}, kInt32).cumsum(0).dtype(), kInt64);
  EXPECT_EQ(ints(tensor({true, false, true}).cumsum(0)), (Ints{1, 1, 2}));
  EXPECT_EQ(tensor({1.f}).cumsum(0, kFloat64).dtype(), kFloat64);
  // A dtype argument converts first; integer sums wrap in that dtype: 200 + 100 = 44 mod 256.
  EXPECT_EQ(ints(tensor({200, 100}).cumsum(0, kUInt8)), (Ints{200, 44}));
  EXPECT_EQ(tensor({1.5f}).to(kBFloat16).cumsum(0).dtype(), kBFloat16);
  expect_error_containing([] { tensor({1, 2}).cumsum(0, kBool); }, "cumsum");
  expect_error_containing([] { ones({2}).cumsum(1); }, "cumsum: dimension out of range");
}

// float32 sums run in double, as PyTorch's CPU cumsum does: 1e8 + 1 rounds to 1e8 when stored,
// but the running sum keeps the 1.
TEST(Cumsum, Float32AccumulatesInDouble) {
  const Tensor x = tensor({1e8f, 1.f, -1e8f, 1.f});
  EXPECT_EQ(doubles(x.cumsum(0)), (std::vector<double>{1e8, 1e8, 1, 2}));
}

TEST(Cumsum, GradientIsTheReversedRunningSum) {
  Tensor x = tensor({1.f, 2.f, 3.f}).requires_grad_();
  x.cumsum(0).backward(tensor({1.f, 10.f, 100.f}));
  EXPECT_EQ(doubles(x.grad()), (std::vector<double>{111, 110, 100}));
  Tensor y = tensor({1.f, 2.f}).requires_grad_();
  y.cumsum(0, kFloat64).sum().backward();
  EXPECT_EQ(y.grad().dtype(), kFloat32);
  EXPECT_EQ(doubles(y.grad()), (std::vector<double>{2, 1}));
}

TEST(Cumsum, LongRowsAndColumnsAndStridedInputs) {
  Generator generator(3);
  const Tensor x = randint(-9, 10, {5, 20000}, kInt64, &generator);
  const Tensor rows = x.cumsum(1);
  const Tensor columns = x.t().cumsum(0);  // a strided input, columns wider than a tile
  EXPECT_TRUE(columns.t().equal(rows));
  for (int64_t row = 0; row < 5; ++row) {
    Ints expected = ints(x[row]);
    std::partial_sum(expected.begin(), expected.end(), expected.begin());
    EXPECT_EQ(ints(rows[row]), expected) << "row " << row;
  }
  EXPECT_TRUE(x.to(kFloat64).cumsum(1).equal(rows.to(kFloat64)));
  EXPECT_EQ(zeros({0, 4}).cumsum(0).sizes(), IntArrayRef({0, 4}));
  EXPECT_EQ(scalar_tensor(3.0, kFloat32).cumsum(0).item<float>(), 3.f);
}

TEST(Cumprod, DtypesFollowPyTorch) {
  EXPECT_EQ(ints(tensor({1, 2, 3}, kInt32).cumprod(0)), (Ints{1, 2, 6}));
  EXPECT_EQ(tensor({1, 2}, kInt32).cumprod(0).dtype(), kInt64);
  EXPECT_EQ(ints(tensor({true, true, false}).cumprod(0)), (Ints{1, 1, 0}));
  // Integer products wrap in the result's dtype: 20 * 20 = 144 mod 256.
  EXPECT_EQ(ints(tensor({20, 20}).cumprod(0, kUInt8)), (Ints{20, 144}));
  // int64 products wrap too (2^62 * 4 = 0 mod 2^64).
  EXPECT_EQ(ints(tensor({int64_t{1} << 62, int64_t{4}}).cumprod(0)), (Ints{int64_t{1} << 62, 0}));
  EXPECT_EQ(tensor({1.5f}).to(kFloat16).cumprod(0).dtype(), kFloat16);
  expect_error_containing([] { ones({2}).cumprod(-2); }, "cumprod: dimension out of range");
  expect_error_containing([] { Tensor().cumprod(0); }, "cumprod: the tensor is undefined");
}

// PyTorch's gradients where the input holds zeros (torch 2.15, float64): before the first zero,
// at it (the product of the other terms), and zero after it.
TEST(Cumprod, GradientsAroundZerosMatchPyTorch) {
  const auto grad_of = [](std::vector<double> values) {
    Tensor x = tensor(values).requires_grad_();
    x.cumprod(0).backward(tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}));
    return doubles(x.grad());
  };
  EXPECT_EQ(grad_of({2, 3, 0, 4, 0, 5}), (std::vector<double>{7, 4, 114, 0, 0, 0}));
  EXPECT_EQ(grad_of({0, 3, 2, 4, 1, 5}), (std::vector<double>{961, 0, 0, 0, 0, 0}));
  EXPECT_EQ(grad_of({2, 3, 2, 4, 1, 0}), (std::vector<double>{241, 160, 234, 108, 240, 288}));
  Tensor s = scalar_tensor(3.0, kFloat64).requires_grad_();
  s.cumprod(0).backward(scalar_tensor(2.0, kFloat64));
  EXPECT_EQ(s.grad().item<double>(), 2.0);
}

// float32 products run in double, as PyTorch's CPU cumprod does: 1e20 * 1e20 overflows when
// stored, but the running product keeps it, so the later factors bring it back.
TEST(Cumprod, Float32AccumulatesInDouble) {
  const std::vector<double> p = doubles(tensor({1e20f, 1e20f, 1e-20f, 1e-20f}).cumprod(0));
  EXPECT_TRUE(std::isinf(p[1]));
  EXPECT_EQ(p[2], double(float(double(1e20f) * double(1e20f) * double(1e-20f))));
  EXPECT_EQ(p[3], double(float(double(1e20f) * double(1e20f) * double(1e-20f) * double(1e-20f))));
}

}  // namespace
}  // namespace accel
