// The margin, ranking and embedding losses against PyTorch fixtures
// (tests/reference/cases_nn_margin_losses.py), their modules, and errors.
#include "accel/nn/functional/margin_losses.h"

#include "accel/nn/modules/loss.h"
#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;
using F::Reduction;

// 0/1 draws as the 1/-1 targets these losses take, in the dtype of `like`.
Tensor signs(const Tensor& y, const Tensor& like) { return (y * 2 - 1).to(like.dtype()); }

const std::vector<OpCase> kMarginLossCases = {
    {"margin_ranking",
     [](const V& x) {
       return F::margin_ranking_loss(x[0], x[1], signs(x[2], x[0]),
                                     F::MarginRankingLossFuncOptions().margin(0.3));
     }},
    {"margin_ranking_none",
     [](const V& x) {
       return F::margin_ranking_loss(x[0], x[1], signs(x[2], x[0]),
                                     F::MarginRankingLossFuncOptions().reduction(Reduction::None));
     }},
    {"hinge_embedding",
     [](const V& x) { return F::hinge_embedding_loss(x[0] * 2.0, signs(x[1], x[0])); }},
    {"hinge_embedding_margin_sum",
     [](const V& x) {
       return F::hinge_embedding_loss(
           x[0], signs(x[1], x[0]),
           F::HingeEmbeddingLossFuncOptions().margin(0.5).reduction(Reduction::Sum));
     }},
    {"soft_margin", [](const V& x) { return F::soft_margin_loss(x[0] * 3.0, signs(x[1], x[0])); }},
    {"soft_margin_none",
     [](const V& x) {
       return F::soft_margin_loss(x[0], signs(x[1], x[0]),
                                  F::SoftMarginLossFuncOptions().reduction(Reduction::None));
     }},
    {"multilabel_soft_margin",
     [](const V& x) { return F::multilabel_soft_margin_loss(x[0], x[1].to(x[0].dtype())); }},
    {"multilabel_soft_margin_weight_none",
     [](const V& x) {
       return F::multilabel_soft_margin_loss(
           x[0], x[1].to(x[0].dtype()),
           F::MultilabelSoftMarginLossFuncOptions().weight(x[2]).reduction(Reduction::None));
     }},
    {"multi_margin", [](const V& x) { return F::multi_margin_loss(x[0], x[1]); }},
    {"multi_margin_p2_margin_weight",
     [](const V& x) {
       return F::multi_margin_loss(x[0], x[1],
                                   F::MultiMarginLossFuncOptions().p(2).margin(0.7).weight(x[2]));
     }},
    {"multi_margin_unbatched_none",
     [](const V& x) {
       return F::multi_margin_loss(x[0], x[1],
                                   F::MultiMarginLossFuncOptions().reduction(Reduction::None));
     }},
    {"cosine_embedding",
     [](const V& x) {
       return F::cosine_embedding_loss(x[0], x[1], signs(x[2], x[0]),
                                       F::CosineEmbeddingLossFuncOptions().margin(0.2));
     }},
    {"cosine_embedding_unbatched_none",
     [](const V& x) {
       return F::cosine_embedding_loss(
           x[0], x[1], signs(x[2], x[0]),
           F::CosineEmbeddingLossFuncOptions().reduction(Reduction::None));
     }},
    {"triplet_margin", [](const V& x) { return F::triplet_margin_loss(x[0], x[1], x[2]); }},
    {"triplet_margin_swap_p1_none",
     [](const V& x) {
       return F::triplet_margin_loss(
           x[0], x[1], x[2],
           F::TripletMarginLossFuncOptions().margin(0.5).p(1).swap(true).reduction(
               Reduction::None));
     }},
    {"multilabel_margin",
     [](const V& x) {
       return nn::MultiLabelMarginLoss()->forward(
           x[0], tensor({3, 0, -1, 1, 1, 2, 3, -1, -1, 0, 0, 0}).view({3, 4}));
     }},
    {"multilabel_margin_unbatched_none",
     [](const V& x) {
       return F::multilabel_margin_loss(
           x[0], tensor({2, -1, 0, 0}),
           F::MultilabelMarginLossFuncOptions().reduction(Reduction::None));
     }},
    {"triplet_with_distance",
     [](const V& x) { return nn::TripletMarginWithDistanceLoss()->forward(x[0], x[1], x[2]); }},
    {"triplet_with_cosine_distance_swap",
     [](const V& x) {
       return F::triplet_margin_with_distance_loss(
           x[0], x[1], x[2],
           F::TripletMarginWithDistanceLossFuncOptions()
               .distance_function(
                   [](const Tensor& a, const Tensor& b) { return 1 - F::cosine_similarity(a, b); })
               .margin(0.5)
               .swap(true));
     }},
};

ACCEL_OP_TEST_SUITE(MarginLossOps, "ops_nn_margin_losses.json", kMarginLossCases);

TEST(MarginLosses, ModulesMatchFunctions) {
  const Tensor a = randn({4, 3});
  const Tensor b = randn({4, 3});
  const Tensor c = randn({4, 3});
  const Tensor y = tensor({1.0f, -1.0f, 1.0f, -1.0f});
  EXPECT_TRUE(nn::TripletMarginLoss()->forward(a, b, c).equal(F::triplet_margin_loss(a, b, c)));
  EXPECT_TRUE(nn::CosineEmbeddingLoss()->forward(a, b, y).equal(F::cosine_embedding_loss(a, b, y)));
  EXPECT_TRUE(nn::MarginRankingLoss()
                  ->forward(a.select(1, 0), b.select(1, 0), y)
                  .equal(F::margin_ranking_loss(a.select(1, 0), b.select(1, 0), y)));
  const Tensor classes = tensor({0, 2, 1, 2});
  const Tensor weight = tensor({1.0f, 2.0f, 3.0f});
  nn::MultiMarginLoss multi_margin(nn::MultiMarginLossOptions().weight(weight));
  EXPECT_TRUE(
      multi_margin->forward(a, classes)
          .equal(F::multi_margin_loss(a, classes, F::MultiMarginLossFuncOptions().weight(weight))));
  EXPECT_EQ(multi_margin->buffers().size(), 1u);
  EXPECT_EQ(nn::MultiLabelSoftMarginLoss()->name(), "MultiLabelSoftMarginLoss");
  EXPECT_TRUE(
      nn::HingeEmbeddingLoss()->forward(a, a.sign()).equal(F::hinge_embedding_loss(a, a.sign())));
  EXPECT_TRUE(nn::SoftMarginLoss()->forward(a, a.sign()).equal(F::soft_margin_loss(a, a.sign())));
}

TEST(MarginLosses, SoftMarginIsFiniteForLargeMargins) {
  const Tensor x = tensor({-1000.0, 1000.0}).requires_grad_();
  const Tensor loss = F::soft_margin_loss(x, ones({2}, kFloat64));
  EXPECT_DOUBLE_EQ(loss.item<double>(), 500.0);
  loss.backward();
  EXPECT_TRUE(x.grad().equal(tensor({-0.5, 0.0})));
}

TEST(MarginLosses, Errors) {
  const Tensor x = randn({3, 4});
  expect_error_containing(
      [&] {
        F::multi_margin_loss(x, tensor({0, 1}));
      },
      "multi_margin_loss: expected int64 class indices of shape [3] for "
      "input [3, 4], got int64 of shape [2]");
  expect_error_containing(
      [&] {
        F::multi_margin_loss(x, tensor({0, 1, 2}), F::MultiMarginLossFuncOptions().p(3));
      },
      "multi_margin_loss: p must be 1 or 2, got 3");
  expect_error_containing([&] { F::multi_margin_loss(x, tensor({0, 1, 4})); }, "out of bounds");
  expect_error_containing([&] { F::cosine_embedding_loss(x, x, ones({4})); },
                          "cosine_embedding_loss: expected inputs [N, D] with target [N]");
  expect_error_containing([&] { F::triplet_margin_loss(x, x, randn({4})); },
                          "triplet_margin_loss: expected anchor, positive and negative of the "
                          "same number of dims");
  expect_error_containing(
      [&] { F::triplet_margin_loss(x, x, x, F::TripletMarginLossFuncOptions().margin(0)); },
      "triplet_margin_loss: margin must be positive, got 0");
  expect_error_containing(
      [&] {
        F::multilabel_soft_margin_loss(x, ones({3, 5}));
      },
      "multilabel_soft_margin_loss: target size [3, 5] must be the same as "
      "input size [3, 4]");
  expect_error_containing([&] { F::margin_ranking_loss(x, x, ones({3})); },
                          "margin_ranking_loss: expected input1, input2 and target of the same "
                          "number of dims");
  expect_error_containing([&] { F::hinge_embedding_loss(x, ones({5})); }, "hinge_embedding_loss");
}

}  // namespace
}  // namespace accel
