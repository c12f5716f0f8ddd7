// Joining by shape, turns, differences, take_along_dim, kron and the triangle-index factories
// beyond the PyTorch fixtures (cases_view.py): list forms, dtypes, empty and edge sizes, and
// the errors.
#include <gtest/gtest.h>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using Ints = std::vector<int64_t>;

Ints ints(const Tensor& t) {
  const Tensor c = t.to(kInt64).contiguous();
  return Ints(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

TEST(ShapeOps, AtLeastAddsDimsOfSizeOne) {
  const std::vector<Tensor> out = atleast_2d({scalar_tensor(1.0), zeros({3}), zeros({2, 2})});
  EXPECT_EQ(out[0].sizes(), IntArrayRef({1, 1}));
  EXPECT_EQ(out[1].sizes(), IntArrayRef({1, 3}));
  EXPECT_EQ(out[2].sizes(), IntArrayRef({2, 2}));
  EXPECT_EQ(atleast_1d(scalar_tensor(1.0)).sizes(), IntArrayRef({1}));
  EXPECT_EQ(atleast_2d(zeros({0})).sizes(), IntArrayRef({1, 0}));
  EXPECT_EQ(atleast_3d(zeros({2, 3})).sizes(), IntArrayRef({2, 3, 1}));
  EXPECT_EQ(atleast_3d(zeros({2, 3, 4, 5})).sizes(), IntArrayRef({2, 3, 4, 5}));
  // Views: writing through them writes the original.
  const Tensor v = zeros({3});
  atleast_2d(v)[0][1] = 5;
  EXPECT_EQ(v[1].item<float>(), 5.0f);
}

TEST(ShapeOps, StacksFollowTheirDims) {
  EXPECT_EQ(hstack({arange(2), arange(3)}).sizes(), IntArrayRef({5}));
  EXPECT_EQ(vstack({arange(3), arange(3)}).sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(dstack({arange(3), arange(3)}).sizes(), IntArrayRef({1, 3, 2}));
  EXPECT_EQ(column_stack({scalar_tensor(1), ones({1}, kInt64)}).sizes(), IntArrayRef({1, 2}));
  EXPECT_EQ(ints(column_stack({tensor({1, 2}), tensor({{3, 4}, {5, 6}})})),
            (Ints{1, 3, 4, 2, 5, 6}));
  expect_error_containing([] { hstack(std::vector<Tensor>{}); },
                          "atleast_1d: expected at least one");
  expect_error_containing([] { vstack({zeros({2}), zeros({3})}); }, "cat");
}

TEST(ShapeOps, BlockDiagPromotesAndPads) {
  const Tensor out = block_diag({tensor({{1, 2}}), tensor({0.5f})});
  EXPECT_EQ(out.dtype(), kFloat32);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 3}));
  EXPECT_TRUE(equal(out, tensor({{1.f, 2.f, 0.f}, {0.f, 0.f, 0.5f}})));
  EXPECT_EQ(block_diag({}).sizes(), IntArrayRef({1, 0}));
  EXPECT_EQ(block_diag({zeros({0, 2}), ones({1, 1})}).sizes(), IntArrayRef({1, 3}));
  // Joining empty pieces whose copy looks like a transpose (a column of width 1).
  EXPECT_EQ(cat({zeros({0, 1}), zeros({0, 2})}, 1).sizes(), IntArrayRef({0, 3}));
  expect_error_containing(
      [] {
        block_diag({zeros({2, 2, 2})});
      },
      "block_diag: expected tensors of at most 2 dims, got tensor 0 of shape "
      "[2, 2, 2]");
}

TEST(ShapeOps, CartesianProductOfOneTensorIsItself) {
  EXPECT_EQ(ints(cartesian_prod({tensor({1, 2})})), (Ints{1, 2}));
  EXPECT_EQ(ints(cartesian_prod({tensor({1, 2}), tensor({3, 4})})), (Ints{1, 3, 1, 4, 2, 3, 2, 4}));
  expect_error_containing(
      [] {
        cartesian_prod({zeros({2, 2})});
      },
      "cartesian_prod: expected 1-D tensors, got one of shape [2, 2]");
}

TEST(ShapeOps, Rot90TurnsFromTheFirstDimTowardsTheSecond) {
  const Tensor m = arange(6).reshape({2, 3});
  EXPECT_EQ(ints(rot90(m)), (Ints{2, 5, 1, 4, 0, 3}));
  EXPECT_TRUE(equal(rot90(m, 4), m));
  EXPECT_TRUE(equal(rot90(m, -1), rot90(m, 3)));
  EXPECT_TRUE(equal(rot90(m, 1, {1, 0}), rot90(m, -1)));
  expect_error_containing([] { rot90(zeros({2, 2}), 1, {0}); }, "rot90: expected two dims");
  expect_error_containing([] { rot90(zeros({2, 2}), 1, {1, -1}); }, "two different dims");
  expect_error_containing([] { rot90(zeros({2}), 1); }, "at least 2 dims, got shape [2]");
  expect_error_containing([] { fliplr(zeros({2})); }, "fliplr: expected a tensor of at least 2");
  expect_error_containing([] { flipud(scalar_tensor(1.0)); }, "flipud: expected a tensor of at");
}

TEST(ShapeOps, DiffOfBoolsIsInequalityAndLongOrdersEmpty) {
  const Tensor flags = tensor({true, false, false, true});
  EXPECT_EQ(diff(flags).dtype(), kBool);
  EXPECT_EQ(ints(diff(flags)), (Ints{1, 0, 1}));
  EXPECT_EQ(diff(tensor({1.0, 2.0}), 5).sizes(), IntArrayRef({0}));
  EXPECT_TRUE(equal(diff(arange(4), 0), arange(4)));
  expect_error_containing([] { diff(scalar_tensor(1.0)); },
                          "diff: expected a tensor of at least 1");
  expect_error_containing([] { diff(zeros({3}), -1); }, "order must be non-negative, got -1");
  expect_error_containing(
      [] {
        diff(zeros({2, 3}), 1, -1, zeros({3}));
      },
      "prepend and append must have the input's 2 dims, got shape [3]");
}

TEST(ShapeOps, TakeAlongDimChecksItsIndices) {
  const Tensor m = arange(6.0).reshape({2, 3});
  EXPECT_TRUE(
      equal(take_along_dim(m, tensor({2, 0}).unsqueeze(1), 1), tensor({2.0, 3.0}).unsqueeze(1)));
  expect_error_containing(
      [] {
        take_along_dim(zeros({2, 3}), zeros({2, 1}, kInt32), 1);
      },
      "take_along_dim: expected int64 indices, got int32");
  expect_error_containing(
      [] {
        take_along_dim(zeros({2, 3}), tensor({1}), 1);
      },
      "expected input and indices with as many dims, got shapes [2, 3] and "
      "[1]");
  expect_error_containing(
      [] {
        take_along_dim(zeros({2, 3}), zeros({3, 1}, kInt64), 1);
      },
      "take_along_dim");
  expect_error_containing(
      [] {
        take_along_dim(zeros({2, 3}), tensor({3}).reshape({1, 1}), 1);
      },
      "gather");
}

TEST(ShapeOps, KronOfIntegersAndArgwhere) {
  EXPECT_EQ(ints(kron(tensor({{1, 2}, {3, 4}}), tensor({{0, 1}, {1, 0}}))),
            (Ints{0, 1, 0, 2, 1, 0, 2, 0, 0, 3, 0, 4, 3, 0, 4, 0}));
  EXPECT_EQ(kron(zeros({2, 3}), zeros({4})).sizes(), IntArrayRef({2, 12}));
  EXPECT_TRUE(equal(argwhere(tensor({{0, 1}, {2, 0}})), tensor({{0, 1}, {1, 0}})));
}

TEST(ShapeOps, TriangleIndicesAreRowMajor) {
  EXPECT_EQ(ints(tril_indices(3, 4, 1)),
            (Ints{0, 0, 1, 1, 1, 2, 2, 2, 2, 0, 1, 0, 1, 2, 0, 1, 2, 3}));
  EXPECT_EQ(ints(triu_indices(3, 3, -1)), (Ints{0, 0, 0, 1, 1, 1, 2, 2, 0, 1, 2, 0, 1, 2, 1, 2}));
  EXPECT_EQ(tril_indices(0, 3).sizes(), IntArrayRef({2, 0}));
  EXPECT_EQ(triu_indices(2, 2, 0, kInt32).dtype(), kInt32);
  expect_error_containing([] { tril_indices(-1, 2); },
                          "tril_indices: row and col must be non-negative, got -1 and 2");
  expect_error_containing([] { triu_indices(2, 2, 0, kFloat32); },
                          "triu_indices: expected dtype int64 or int32");
}

}  // namespace
}  // namespace accel
