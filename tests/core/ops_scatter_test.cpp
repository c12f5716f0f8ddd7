// scatter, scatter_reduce and the in-place indexing ops: forwards and gradients against PyTorch
// fixtures (tests/reference/cases_scatter.py) through the op harness, the last-wins rule for
// repeated positions, the in-place forms' values and recorded history, and the errors.
#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;

// The fixed tensors of cases_scatter.py.
Tensor scatter_index() { return tensor({2, 0, 3, 1, 3, 0, 3, 2, 1}).view({3, 3}); }
Tensor prod_index() { return tensor({0, 0, 1, 1, 2, 3, 3, 3, 2, 2}).view({2, 5}); }
Tensor prod_self_mask() { return tensor({1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0}).view({2, 4}); }
Tensor prod_src_mask() {
  return tensor({1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0}).view({2, 5});
}

const std::vector<OpCase> kScatterCases = {
    {"scatter_src", [](const V& x) { return x[0].scatter(1, scatter_index(), x[1]); }},
    {"scatter_value",
     [](const V& x) {
       return scatter(x[0], 0, tensor({1, 0, 2}).view({1, 3}), 0.5);
     }},
    {"scatter_reduce_sum", [](const V& x) { return x[0].scatter_reduce(1, x[1], x[2], "sum"); }},
    {"scatter_reduce_sum_exclude",
     [](const V& x) { return scatter_reduce(x[0], 1, x[1], x[2], "sum", false); }},
    {"scatter_reduce_mean", [](const V& x) { return x[0].scatter_reduce(0, x[1], x[2], "mean"); }},
    {"scatter_reduce_mean_exclude",
     [](const V& x) { return scatter_reduce(x[0], 0, x[1], x[2], "mean", false); }},
    {"scatter_reduce_prod", [](const V& x) { return x[0].scatter_reduce(1, x[1], x[2], "prod"); }},
    {"scatter_reduce_prod_exclude_partial",
     [](const V& x) { return scatter_reduce(x[0], 1, x[1], x[2], "prod", false); }},
    {"scatter_reduce_prod_zeros",
     [](const V& x) {
       return (x[0] * prod_self_mask().to(x[0].dtype()))
           .scatter_reduce(1, prod_index(), x[1] * prod_src_mask().to(x[1].dtype()), "prod");
     }},
    {"scatter_reduce_amax", [](const V& x) { return x[0].scatter_reduce(1, x[1], x[2], "amax"); }},
    {"scatter_reduce_amin_exclude",
     [](const V& x) { return scatter_reduce(x[0], 0, x[1], x[2], "amin", false); }},
    {"scatter_reduce_mean_int64",
     [](const V& x) { return x[0].scatter_reduce(0, x[1], x[2], "mean"); },
     {}},
};

ACCEL_OP_TEST_SUITE(ScatterOps, "ops_scatter.json", kScatterCases);

TEST(Scatter, RepeatedPositionsTakeTheLastElementInRowMajorOrder) {
  const Tensor index = tensor({1, 1, 0, 1, 0, 0}).view({2, 3});
  const Tensor src = tensor({1.0, 2.0, 3.0, 4.0, 5.0, 6.0}).view({2, 3});
  EXPECT_TRUE(zeros({2, 2}, kFloat64)
                  .scatter(1, index, src)
                  .equal(tensor({3.0, 2.0, 6.0, 4.0}).view({2, 2})));
  // Along dim 0: destination (index[i][j], j) gets row i's element, the last row winning.
  const Tensor rows = tensor({0, 0, 0, 0}).view({2, 2});
  EXPECT_TRUE(zeros({1, 2}, kFloat64)
                  .scatter(0, rows, src.narrow(1, 0, 2))
                  .equal(tensor({4.0, 5.0}).view({1, 2})));
  // index_copy with a repeated index takes the last slice too.
  EXPECT_TRUE(zeros({2}, kFloat64)
                  .index_copy(0, tensor({1, 1}), tensor({7.0, 8.0}))
                  .equal(tensor({0.0, 8.0})));
}

TEST(ScatterReduce, ExcludingSelfLeavesUntouchedElementsAlone) {
  const Tensor self = tensor({10.0, 20.0, 30.0});
  const Tensor index = tensor({0, 0, 2});
  const Tensor src = tensor({1.0, 5.0, 2.0});
  EXPECT_TRUE(self.scatter_reduce(0, index, src, "amax", false).equal(tensor({5.0, 20.0, 2.0})));
  EXPECT_TRUE(self.scatter_reduce(0, index, src, "amin").equal(tensor({1.0, 20.0, 2.0})));
  EXPECT_TRUE(self.scatter_reduce(0, index, src, "mean", false).equal(tensor({3.0, 20.0, 2.0})));
  EXPECT_TRUE(self.scatter_reduce(0, index, src, "mean").equal(tensor({16.0 / 3, 20.0, 16.0})));
  EXPECT_TRUE(self.scatter_reduce(0, index, src, "prod", false).equal(tensor({5.0, 20.0, 2.0})));
  // Integer means round down, as floor division.
  EXPECT_TRUE(tensor({0, 0})
                  .scatter_reduce(0, tensor({0, 0}), tensor({-3, 0}), "mean", false)
                  .equal(tensor({-2, 0})));
}

TEST(ScatterReduce, TiedMaximaShareTheGradient) {
  const Tensor self = tensor({2.0, 0.0}).requires_grad_();
  const Tensor src = tensor({2.0, 1.0, 2.0}).requires_grad_();
  self.scatter_reduce(0, tensor({0, 0, 0}), src, "amax").sum().backward();
  EXPECT_TRUE(self.grad().allclose(tensor({1.0 / 3, 1.0})));
  EXPECT_TRUE(src.grad().allclose(tensor({1.0 / 3, 0.0, 1.0 / 3})));
}

TEST(ScatterInPlace, WritesSelfAndRecordsTheOutOfPlaceHistory) {
  const Tensor leaf = ones({2, 3}, kFloat64).requires_grad_();
  const Tensor src = tensor({5.0, 6.0}).view({2, 1}).requires_grad_();
  const Tensor index = tensor({2, 0}).view({2, 1});
  Tensor x = leaf * 2;
  const Tensor& same = x.scatter_(1, index, src);
  EXPECT_TRUE(same.is_same(x));
  EXPECT_TRUE(x.equal(tensor({2.0, 2.0, 5.0, 6.0, 2.0, 2.0}).view({2, 3})));
  (x * x).sum().backward();
  EXPECT_TRUE(leaf.grad().equal(tensor({8.0, 8.0, 0.0, 0.0, 8.0, 8.0}).view({2, 3})));
  EXPECT_TRUE(src.grad().equal(tensor({10.0, 12.0}).view({2, 1})));
  expect_error_containing([&] { leaf.scatter_(1, index, 0.0); }, "scatter_");
}

TEST(ScatterInPlace, EveryFormMatchesItsOutOfPlaceTwin) {
  manual_seed(8);
  const Tensor base = randn({4, 3}, kFloat64);
  const Tensor rows = tensor({3, 0});
  const Tensor source = randn({2, 3}, kFloat64);
  const Tensor index = randint(0, 4, {3, 3});
  const Tensor src = randn({3, 3}, kFloat64);
  const std::vector<std::pair<Tensor, Tensor>> pairs = {
      {base.clone().scatter_(0, index, src), base.scatter(0, index, src)},
      {base.clone().scatter_(0, index, 2.5), base.scatter(0, index, 2.5)},
      {base.clone().scatter_add_(0, index, src), base.scatter_add(0, index, src)},
      {base.clone().scatter_reduce_(0, index, src, "amin", false),
       base.scatter_reduce(0, index, src, "amin", false)},
      {base.clone().index_add_(0, rows, source, 2), base.index_add(0, rows, source, 2)},
      {base.clone().index_copy_(0, rows, source), base.index_copy(0, rows, source)},
      {base.clone().index_fill_(1, tensor({1}), -1.0), base.index_fill(1, tensor({1}), -1.0)},
  };
  for (size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_TRUE(pairs[i].first.equal(pairs[i].second)) << "form " << i;
  }
}

TEST(Scatter, ErrorsNameTheOpAndTheProblem) {
  const Tensor self = zeros({2, 3});
  expect_error_containing(
      [&] {
        self.scatter(1, tensor({3}).view({1, 1}), 1.0);
      },
      "scatter: index 3 is out of bounds for dimension 1 with size 3");
  // Every form of scatter_reduce names itself, whichever scatter it runs first.
  for (const char* reduce : {"sum", "prod", "mean", "amax", "amin"}) {
    for (const bool include_self : {true, false}) {
      expect_error_containing(
          [&] {
            self.scatter_reduce(1, tensor({3}).view({1, 1}), ones({1, 1}), reduce, include_self);
          },
          "scatter_reduce: index 3 is out of bounds for dimension 1 with size 3");
    }
  }
  expect_error_containing(
      [&] {
        self.scatter(1, zeros({2, 2}, kInt64), zeros({2, 2}, kInt32));
      },
      "scatter: expected self.dtype to be equal to src.dtype");
  expect_error_containing(
      [&] {
        self.scatter_reduce(1, zeros({2, 2}, kInt64), ones({2, 2}), "max");
      },
      "scatter_reduce: reduce argument must be either sum, prod, mean, amax or "
      "amin, got max");
  expect_error_containing(
      [&] { zeros({2}, kBool).scatter_reduce(0, tensor({0}), ones({1}, kBool), "sum"); },
      "scatter_reduce: not implemented for dtype bool");
  expect_error_containing(
      [&] {
        self.scatter(1, zeros({3, 1}, kInt64), 1.0);
      },
      "scatter: size does not match at dimension 0");
}

}  // namespace
}  // namespace accel
