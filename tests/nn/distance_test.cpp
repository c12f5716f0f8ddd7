// normalize, cosine_similarity and pairwise_distance against PyTorch fixtures
// (tests/reference/cases_nn_distance.py), zero vectors, the modules and errors.
#include "accel/nn/functional/distance.h"

#include "accel/nn/modules/distance.h"
#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;

const std::vector<OpCase> kDistanceCases = {
    {"normalize", [](const V& x) { return F::normalize(x[0]); }},
    {"normalize_p1_dim0",
     [](const V& x) { return F::normalize(x[0], F::NormalizeFuncOptions().p(1).dim(0)); }},
    {"cosine_similarity", [](const V& x) { return F::cosine_similarity(x[0], x[1]); }},
    {"cosine_similarity_broadcast_last_dim",
     [](const V& x) {
       return F::cosine_similarity(x[0], x[1], F::CosineSimilarityFuncOptions().dim(-1));
     }},
    {"pairwise_distance", [](const V& x) { return F::pairwise_distance(x[0], x[1]); }},
    {"pairwise_distance_p1_keepdim",
     [](const V& x) {
       return F::pairwise_distance(x[0], x[1], F::PairwiseDistanceFuncOptions().p(1).keepdim(true));
     }},
    {"pairwise_distance_p3_vectors",
     [](const V& x) {
       return F::pairwise_distance(x[0], x[1], F::PairwiseDistanceFuncOptions().p(3));
     }},
};

ACCEL_OP_TEST_SUITE(DistanceOps, "ops_nn_distance.json", kDistanceCases);

TEST(Distance, ZeroVectorsGiveZeroNotNaN) {
  const Tensor zero = zeros({2, 3}, kFloat64).requires_grad_();
  const Tensor other = ones({2, 3}, kFloat64);
  const Tensor normalized = F::normalize(zero);
  EXPECT_TRUE(normalized.equal(zeros({2, 3}, kFloat64)));
  const Tensor cosine = F::cosine_similarity(zero, other);
  EXPECT_TRUE(cosine.equal(zeros({2}, kFloat64)));
  cosine.sum().backward();
  // PyTorch's gradient at a zero vector: the other vector over the clamped norms.
  EXPECT_TRUE(zero.grad().allclose(full({2, 3}, 1 / (1e-8 * std::sqrt(3.0)), kFloat64)));
}

TEST(Distance, ModulesMatchFunctions) {
  const Tensor a = randn({4, 5});
  const Tensor b = randn({4, 5});
  nn::CosineSimilarity cosine(nn::CosineSimilarityOptions().dim(0));
  EXPECT_TRUE(cosine->forward(a, b).equal(
      F::cosine_similarity(a, b, F::CosineSimilarityFuncOptions().dim(0))));
  nn::PairwiseDistance distance(nn::PairwiseDistanceOptions().p(1));
  EXPECT_TRUE(distance->forward(a, b).equal(
      F::pairwise_distance(a, b, F::PairwiseDistanceFuncOptions().p(1))));
  EXPECT_EQ(cosine->extra_repr(), "dim=0, eps=1e-08");
  EXPECT_EQ(distance->extra_repr(), "p=1, eps=1e-06, keepdim=false");
}

TEST(Distance, Errors) {
  expect_error_containing(
      [] {
        F::normalize(tensor({1, 2}));
      },
      "normalize: expected a floating point input, got int64");
  expect_error_containing(
      [] {
        F::normalize(randn({2, 3}), F::NormalizeFuncOptions().dim(2));
      },
      "normalize");
  expect_error_containing(
      [] {
        F::cosine_similarity(randn({2, 3}), randn({2, 4}));
      },
      "cosine_similarity");
  expect_error_containing([] { F::pairwise_distance(randn({}), randn({})); },
                          "pairwise_distance: expected inputs with at least one dim");
}

}  // namespace
}  // namespace accel
