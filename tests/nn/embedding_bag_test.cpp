// EmbeddingBag tests: F::embedding_bag and nn::EmbeddingBag against PyTorch fixtures
// (tests/reference/cases_nn_embedding_bag.py) through the op harness, empty bags, the layer's
// initialization, and the errors for bad offsets and options.
#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;
using F::EmbeddingBagFuncOptions;
using F::EmbeddingBagMode;

// The layer's table replaced by the case's, so the harness sees its gradient.
Tensor layer_forward(nn::EmbeddingBagOptions options, const Tensor& weight, const Tensor& input,
                     const Tensor& offsets = {}) {
  nn::EmbeddingBag bag(options);
  bag->weight = weight;
  return offsets.defined() ? bag->forward(input, offsets) : bag->forward(input);
}

const std::vector<OpCase> kEmbeddingBagCases = {
    {"embedding_bag_2d_mean",
     [](const V& x) {
       return layer_forward({6, 3}, x[1], x[0]);
     }},
    {"embedding_bag_offsets_sum",
     [](const V& x) {
       return F::embedding_bag(
           x[0], x[1],
           EmbeddingBagFuncOptions().offsets(tensor({0, 2, 2, 5})).mode(EmbeddingBagMode::Sum));
     }},
    {"embedding_bag_offsets_max",
     [](const V& x) {
       return layer_forward(nn::EmbeddingBagOptions(8, 4).mode(EmbeddingBagMode::Max), x[1], x[0],
                            tensor({0, 3}));
     }},
    {"embedding_bag_2d_max",
     [](const V& x) {
       return F::embedding_bag(x[0], x[1], EmbeddingBagFuncOptions().mode(EmbeddingBagMode::Max));
     }},
    {"embedding_bag_per_sample_weights",
     [](const V& x) {
       return F::embedding_bag(x[0], x[1],
                               EmbeddingBagFuncOptions()
                                   .offsets(tensor({0, 4}))
                                   .mode(EmbeddingBagMode::Sum)
                                   .per_sample_weights(x[2]));
     }},
    {"embedding_bag_padding_last_offset",
     [](const V& x) {
       return layer_forward(nn::EmbeddingBagOptions(4, 3).include_last_offset(true).padding_idx(1),
                            x[0], tensor({1, 0, 3, 1, 1, 2}), tensor({0, 3, 5, 6}));
     }},
};

ACCEL_OP_TEST_SUITE(NnEmbeddingBag, "ops_nn_embedding_bag.json", kEmbeddingBagCases);

TEST(EmbeddingBag, EmptyBagsAreZeroInEveryMode) {
  // Rows 2 and 0 are [5, 6] and [1, 2]; bags 0 and 2 are empty.
  const Tensor weight = arange(6.0, kFloat64).view({3, 2}) + 1;
  const std::vector<std::pair<EmbeddingBagMode, Tensor>> modes = {
      {EmbeddingBagMode::Sum, tensor({6.0, 8.0})},
      {EmbeddingBagMode::Mean, tensor({3.0, 4.0})},
      {EmbeddingBagMode::Max, tensor({5.0, 6.0})}};
  for (const auto& [mode, middle] : modes) {
    const Tensor out = F::embedding_bag(
        tensor({2, 0}), weight, EmbeddingBagFuncOptions().offsets(tensor({0, 0, 2})).mode(mode));
    EXPECT_EQ(out.sizes(), IntArrayRef({3, 2}));
    EXPECT_TRUE(out[0].equal(zeros({2}, kFloat64)));
    EXPECT_TRUE(out[1].equal(middle));
    EXPECT_TRUE(out[2].equal(zeros({2}, kFloat64)));
  }
  EXPECT_TRUE(
      F::embedding_bag(tensor({2, 0}), weight, EmbeddingBagFuncOptions().offsets(tensor({0})))
          .equal(tensor({3.0, 4.0}).view({1, 2})));
}

TEST(EmbeddingBag, LayerStartsLikeEmbeddingAndPrints) {
  manual_seed(9);
  nn::EmbeddingBag bag(nn::EmbeddingBagOptions(5, 4).padding_idx(-1).mode(EmbeddingBagMode::Sum));
  EXPECT_EQ(bag->options.padding_idx(), 4);
  EXPECT_TRUE(bag->weight[4].equal(zeros({4})));
  EXPECT_EQ(bag->extra_repr(), "5, 4, mode='sum', padding_idx=4");
  EXPECT_EQ(bag->forward(tensor({0, 1, 2, 3}).view({2, 2})).sizes(), IntArrayRef({2, 4}));
}

TEST(EmbeddingBag, ErrorsNameTheOpAndTheProblem) {
  const Tensor weight = zeros({4, 2});
  expect_error_containing(
      [&] {
        F::embedding_bag(tensor({0, 1}), weight);
      },
      "embedding_bag: a 1-D input needs 1-D offsets saying where each bag starts");
  expect_error_containing(
      [&] {
        F::embedding_bag(tensor({0, 1, 2, 3}).view({2, 2}), weight,
                         EmbeddingBagFuncOptions().offsets(tensor({0})));
      },
      "embedding_bag: a 2-D input [B, N] holds B bags of N indices and takes no offsets");
  expect_error_containing(
      [&] {
        F::embedding_bag(tensor({0, 1}), weight, EmbeddingBagFuncOptions().offsets(tensor({1})));
      },
      "embedding_bag: offsets[0] must be 0");
  expect_error_containing(
      [&] {
        F::embedding_bag(tensor({0, 1}), weight,
                         EmbeddingBagFuncOptions().offsets(tensor({0, 2, 1})));
      },
      "embedding_bag: offsets must be non-decreasing and at most the input's length 2");
  expect_error_containing(
      [&] {
        F::embedding_bag(
            tensor({0, 1}), weight,
            EmbeddingBagFuncOptions().offsets(tensor({0})).per_sample_weights(ones({2})));
      },
      "embedding_bag: per_sample_weights are only supported for mode sum");
  expect_error_containing(
      [&] {
        F::embedding_bag(tensor({0, 7}), weight, EmbeddingBagFuncOptions().offsets(tensor({0})));
      },
      "index 7 is out of bounds");
}

}  // namespace
}  // namespace accel
