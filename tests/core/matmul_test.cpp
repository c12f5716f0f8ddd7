// matmul/mm/bmm behaviour beyond the fixture table: error messages, empty operands,
// 16-bit and integer dtypes, results independent of the thread count, gradients that only
// some inputs need, and autocast.
#include <gtest/gtest.h>

#include "accel/accel.h"
#include "support/thread_count.h"

namespace accel {
namespace {

using testing::ThreadCount;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// Restores the thread count a test changes.
Tensor counting(IntArrayRef sizes, ScalarType dtype = kFloat32) {
  return (arange(product(sizes), kFloat64).reshape(sizes) * 0.01 - 1).to(dtype);
}

TEST(Matmul, ShapeErrorsNameTheOpAndBothShapes) {
  EXPECT_EQ(error_of([] {
              mm(zeros({2, 3}), zeros({4, 5}));
            }),
            "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_EQ(error_of([] {
              matmul(zeros({2, 3}), zeros({4}));
            }),
            "matmul: mat1 and mat2 shapes cannot be multiplied (2x3 and 4)");
  EXPECT_EQ(error_of([] { matmul(zeros({3}), zeros({4})); }),
            "matmul: 1-D tensors must have the same number of elements, got 3 and 4");
  EXPECT_EQ(error_of([] { matmul(zeros({}), zeros({3})); }),
            "matmul: both arguments need to be at least 1-D, but they are 0-D and 1-D");
  EXPECT_EQ(error_of([] {
              bmm(zeros({2, 2, 3}), zeros({3, 3, 2}));
            }),
            "bmm: batch1 and batch2 must have the same batch size (2x2x3 and 3x3x2)");
  EXPECT_EQ(error_of([] {
              bmm(zeros({2, 2, 3}), zeros({2, 4, 2}));
            }),
            "bmm: mat1 and mat2 shapes cannot be multiplied (2x2x3 and 2x4x2)");
  EXPECT_EQ(error_of([] {
              mm(zeros({3}), zeros({3, 2}));
            }),
            "mm: expected 2-D tensors, got 1-D and 2-D (shapes [3] and [3, 2])");
  EXPECT_NE(error_of([] {
              matmul(zeros({2, 2, 3}), zeros({3, 3, 2}));
            }).find("matmul"),
            std::string::npos);
}

TEST(Matmul, DtypeErrors) {
  EXPECT_EQ(error_of([] {
              mm(zeros({2, 3}), zeros({3, 2}, kFloat64));
            }),
            "mm: expected both operands to have the same dtype, got float32 and float64");
  EXPECT_EQ(error_of([] {
              matmul(zeros({2, 2}, kBool), zeros({2, 2}, kBool));
            }),
            "matmul: not implemented for dtype bool");
}

TEST(Matmul, EmptyInnerDimensionGivesZeros) {
  const Tensor out = matmul(zeros({3, 0}), zeros({0, 2}));
  EXPECT_EQ(out.sizes(), IntArrayRef({3, 2}));
  EXPECT_TRUE(out.equal(zeros({3, 2})));
  EXPECT_EQ(matmul(zeros({0, 4}), zeros({4, 2})).sizes(), IntArrayRef({0, 2}));
  EXPECT_EQ(matmul(zeros({2, 0, 4}), zeros({4})).sizes(), IntArrayRef({2, 0}));
  EXPECT_EQ(bmm(zeros({0, 2, 3}), zeros({0, 3, 2})).sizes(), IntArrayRef({0, 2, 2}));
}

TEST(Matmul, HalfTypesComputeInFloatAndRoundOnce) {
  for (ScalarType dtype : {kBFloat16, kFloat16}) {
    const Tensor a = counting({5, 70}, dtype);
    const Tensor b = counting({70, 3}, dtype);
    const Tensor out = matmul(a, b);
    EXPECT_EQ(out.dtype(), dtype);
    EXPECT_TRUE(out.equal(matmul(a.to(kFloat32), b.to(kFloat32)).to(dtype))) << to_string(dtype);
  }
}

TEST(Matmul, IntegerTypes) {
  for (ScalarType dtype : {kInt64, kInt32, kUInt8}) {
    const Tensor a = arange(6, dtype).reshape({2, 3});
    const Tensor b = arange(6, dtype).reshape({3, 2});
    const Tensor out = matmul(a, b);
    EXPECT_EQ(out.dtype(), dtype);
    // [[0,1,2],[3,4,5]] x [[0,1],[2,3],[4,5]]
    EXPECT_TRUE(out.equal(tensor({10, 13, 28, 40}).reshape({2, 2}).to(dtype))) << to_string(dtype);
  }
}

TEST(Matmul, TransposedAndStridedOperandsMatchContiguousOnes) {
  const Tensor a = counting({40, 30}, kFloat64);
  const Tensor b = counting({30, 20}, kFloat64);
  const Tensor expected = mm(a, b);
  EXPECT_TRUE(mm(a.t().contiguous().t(), b).equal(expected));
  // A transposed right operand is multiplied by dot products of rows (with many rows against
  // the depth, transposed into panels), which sum in another order: equal within rounding.
  EXPECT_TRUE(allclose(mm(a, b.t().contiguous().t()), expected, 1e-13, 1e-13));
  // Every other column of a wider matrix: neither row- nor column-contiguous.
  const Tensor wide = zeros({40, 60}, kFloat64);
  wide.slice(1, 0, std::nullopt, 2).copy_(a);
  EXPECT_TRUE(allclose(mm(wide.slice(1, 0, std::nullopt, 2), b), expected, 1e-12, 1e-12));
  // A batch whose operands are transposed views of one buffer.
  const Tensor batch = counting({3, 30, 40}, kFloat64);
  const Tensor out = bmm(batch.transpose(1, 2), b.expand({3, 30, 20}));
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(allclose(out[i], mm(batch[i].t().contiguous(), b), 1e-12, 1e-12)) << i;
  }
}

// Large products are tiled by shape, never by thread count (see kernels/cpu/gemm.cpp).
TEST(Matmul, ResultsDoNotDependOnTheThreadCount) {
  ThreadCount restore(get_num_threads());
  const Tensor a = counting({300, 1024}).sin();
  const Tensor b = counting({1024, 520}).cos();
  const Tensor batch_a = counting({64, 8, 16}).sin();
  const Tensor batch_b = counting({16, 8}).cos();
  // x · Wᵀ: W packed once for one thread's 400 rows, once per row block on threads' shares.
  const Tensor x = counting({400, 256}).sin(), w = counting({520, 256}).cos();
  set_num_threads(1);
  const Tensor large = mm(a, b);
  const Tensor by_rows = mm(x, w.t());
  const Tensor batched = matmul(batch_a.transpose(1, 2), batch_a);
  const Tensor folded = matmul(batch_a, batch_b);
  set_num_threads(2);
  EXPECT_TRUE(mm(a, b).equal(large));
  EXPECT_TRUE(mm(x, w.t()).equal(by_rows));
  EXPECT_TRUE(matmul(batch_a.transpose(1, 2), batch_a).equal(batched));
  EXPECT_TRUE(matmul(batch_a, batch_b).equal(folded));
}

// A product large enough to be cut into tiles (one per core) matches single rows of it, which
// are too small to be cut, at the rows on either side of every possible tile edge.
TEST(Matmul, TiledProductsMatchTheirRowsComputedWhole) {
  const Tensor a = counting({300, 1024}).sin();
  const Tensor b = counting({1024, 520}).cos();
  const Tensor product = mm(a, b);
  for (int64_t row = 0; row < 300; ++row) {
    EXPECT_TRUE(
        allclose(product.slice(0, row, row + 1), mm(a.slice(0, row, row + 1), b), 1e-4, 1e-4))
        << "row " << row;
  }
}

// Every layout pair (row-major or transposed, each operand) reaches a different kernel: dot
// products of rows, the packed GEMM, or Eigen. Shapes around their tile and panel sizes (4, 8,
// 16, 32, the 8-row minimum of the packed path and the 64 rows from which a transposed right
// operand may be packed too), float32 and float64, against the product computed in float64 from
// the same values.
TEST(Matmul, EveryLayoutMatchesTheProductInDouble) {
  const int64_t sizes[] = {1, 3, 7, 8, 9, 16, 17, 33, 63, 64, 70};
  for (const ScalarType dtype : {kFloat32, kFloat64}) {
    for (const int64_t m : sizes) {
      for (const int64_t k : {1, 15, 16, 37, 130}) {
        for (const int64_t n : {1, 5, 16, 31, 33}) {
          const Tensor a = counting({m, k}).sin().to(dtype), b = counting({k, n}).cos().to(dtype);
          const Tensor expected = mm(a.to(kFloat64), b.to(kFloat64));
          const double tolerance = dtype == kFloat32 ? 1e-4 : 1e-12;
          for (const bool a_transposed : {false, true}) {
            for (const bool b_transposed : {false, true}) {
              const Tensor x = a_transposed ? a.t().contiguous().t() : a;
              const Tensor y = b_transposed ? b.t().contiguous().t() : b;
              EXPECT_TRUE(allclose(mm(x, y).to(kFloat64), expected, tolerance, tolerance))
                  << dtype << " " << m << "x" << k << "x" << n << " transposed " << a_transposed
                  << b_transposed;
            }
          }
        }
      }
    }
  }
}

TEST(Matmul, GradientOnlyForInputsThatNeedIt) {
  const Tensor a = counting({2, 3, 4}, kFloat64).requires_grad_();
  const Tensor b = counting({4, 5}, kFloat64);
  matmul(a, b).sum().backward();
  ASSERT_TRUE(a.grad().defined());
  EXPECT_FALSE(b.grad().defined());
  // d/da sum(a·b) = 1·bᵀ: every row of every batch is b's row sums.
  const Tensor row_sums = b.sum({1});
  EXPECT_TRUE(allclose(a.grad(), row_sums.expand({2, 3, 4}), 1e-12, 1e-12));
}

TEST(Matmul, BroadcastBatchGradientIsSummedBack) {
  const Tensor a = counting({3, 4}, kFloat64).requires_grad_();
  const Tensor b = counting({5, 4, 2}, kFloat64).requires_grad_();
  matmul(a, b).sum().backward();
  EXPECT_EQ(a.grad().sizes(), IntArrayRef({3, 4}));
  // Each of the 5 batch entries contributes ones(3,2)·b[i]ᵀ.
  Tensor expected = zeros({3, 4}, kFloat64);
  for (int64_t i = 0; i < 5; ++i) expected = expected + mm(ones({3, 2}, kFloat64), b[i].t());
  EXPECT_TRUE(allclose(a.grad(), expected, 1e-12, 1e-12));
  EXPECT_EQ(b.grad().sizes(), IntArrayRef({5, 4, 2}));
}

TEST(Matmul, AutocastRunsInTheLowerPrecision) {
  const Tensor a = counting({4, 8});
  const Tensor b = counting({8, 2});
  AutocastGuard autocast(kCPU, kBFloat16);
  EXPECT_EQ(matmul(a, b).dtype(), kBFloat16);
  EXPECT_EQ(mm(a, b).dtype(), kBFloat16);
  EXPECT_EQ(bmm(a.unsqueeze(0), b.unsqueeze(0)).dtype(), kBFloat16);
}

}  // namespace
}  // namespace accel
