// nn layer tests: forwards and gradients against PyTorch fixtures (tests/reference/
// cases_nn_layers.py) through the op harness, default-initialization distributions, nn::init,
// dropout statistics, Embedding's padding_idx, and input-shape errors.
#include <cmath>

#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

using testing::OpCase;
using V = std::vector<Tensor>;

// The layer's parameters are replaced by the case's inputs, so the harness sees their grads.
Tensor linear_with(const V& x, bool bias) {
  nn::Linear linear(nn::LinearOptions(x[1].size(1), x[1].size(0)).bias(bias));
  linear->weight = x[1];
  if (bias) linear->bias = x[2];
  return linear->forward(x[0]);
}

const std::vector<OpCase> kLayerCases = {
    {"linear", [](const V& x) { return linear_with(x, true); }},
    {"linear_no_bias", [](const V& x) { return linear_with(x, false); }},
    {"linear_batched", [](const V& x) { return linear_with(x, true); }},
    {"leaky_relu", [](const V& x) { return nn::LeakyReLU(0.2)->forward(x[0]); }},
    {"gelu_tanh", [](const V& x) { return nn::GELU("tanh")->forward(x[0]); }},
    {"softmax", [](const V& x) { return nn::Softmax(1)->forward(x[0]); }},
    {"log_softmax", [](const V& x) { return nn::LogSoftmax(0)->forward(x[0]); }},
    {"flatten", [](const V& x) { return nn::Flatten()->forward(x[0]); }},
    {"embedding",
     [](const V& x) {
       nn::Embedding embedding(x[1].size(0), x[1].size(1));
       embedding->weight = x[1];
       return embedding->forward(x[0]);
     }},
    {"sequential_mlp",
     [](const V& x) {
       nn::Linear first(4, 5), second(5, 2);
       first->weight = x[1];
       first->bias = x[2];
       second->weight = x[3];
       second->bias = x[4];
       return nn::Sequential(first, nn::ReLU(), second)->forward(x[0]);
     }},
};

ACCEL_OP_TEST_SUITE(NnLayers, "ops_nn_layers.json", kLayerCases);

using testing::expect_error_containing;

TEST(Linear, WrongInputShapeNamesLayerAndShapes) {
  nn::Linear linear(784, 128);
  expect_error_containing(
      [&] {
        linear->forward(zeros({32, 100}));
      },
      "Linear: expected input of shape [*, 784] (in_features = 784), got "
      "[32, 100]");
}

// Mean and standard deviation of a tensor's values, in double.
std::pair<double, double> moments(const Tensor& t) {
  Tensor d = t.detach().to(kFloat64);
  return {d.mean().item<double>(), d.std().item<double>()};
}

TEST(Linear, DefaultInitMatchesPyTorchBounds) {
  manual_seed(0);
  nn::Linear linear(400, 300);
  // kaiming_uniform_(a = sqrt(5)) gives bound sqrt(6 / ((1 + 5) * fan_in)) = 1/sqrt(fan_in).
  double bound = 1.0 / std::sqrt(400.0);
  for (const Tensor& t : {linear->weight, linear->bias}) {
    EXPECT_LE(t.abs().max().item<double>(), bound);
    EXPECT_GT(t.abs().max().item<double>(), 0.95 * bound);
  }
  auto [mean, std] = moments(linear->weight);
  EXPECT_NEAR(mean, 0, 0.01 * bound);
  EXPECT_NEAR(std, bound / std::sqrt(3.0), 0.01 * bound);
  EXPECT_EQ(linear->weight.dtype(), kFloat32);
}

TEST(Init, CalculateGain) {
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("linear"), 1.0);
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("sigmoid"), 1.0);
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("tanh"), 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("relu"), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("leaky_relu"), std::sqrt(2.0 / (1 + 1e-4)));
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain("leaky_relu", 0.2), std::sqrt(2.0 / 1.04));
  EXPECT_THROW(nn::init::calculate_gain("swish"), Error);
}

TEST(Init, FansIncludeReceptiveField) {
  auto [fan_in, fan_out] = nn::init::calculate_fan_in_and_fan_out(empty({8, 3, 5, 5}));
  EXPECT_EQ(fan_in, 75);
  EXPECT_EQ(fan_out, 200);
  EXPECT_THROW(nn::init::calculate_fan_in_and_fan_out(empty({4})), Error);
}

TEST(Init, DistributionsHaveTorchMomentsAndBounds) {
  manual_seed(1);
  const int64_t out = 200, in = 300;
  const double n = out * in;
  struct Expect {
    const char* name;
    std::function<Tensor(Tensor)> init;
    double std;
    double bound;  // 0: unbounded
  };
  const double xavier = std::sqrt(2.0 / (in + out));
  const std::vector<Expect> cases = {
      {"uniform", [](Tensor t) { return nn::init::uniform_(t, -2, 2); }, 2 / std::sqrt(3.0), 2},
      {"normal", [](Tensor t) { return nn::init::normal_(t, 0, 0.5); }, 0.5, 0},
      {"xavier_uniform", [](Tensor t) { return nn::init::xavier_uniform_(t); }, xavier,
       std::sqrt(3.0) * xavier},
      {"xavier_normal", [](Tensor t) { return nn::init::xavier_normal_(t, 2); }, 2 * xavier, 0},
      {"kaiming_uniform_relu",
       [](Tensor t) { return nn::init::kaiming_uniform_(t, 0, "fan_in", "relu"); },
       std::sqrt(2.0 / in), std::sqrt(6.0 / in)},
      {"kaiming_normal_fan_out",
       [](Tensor t) { return nn::init::kaiming_normal_(t, 0, "fan_out", "relu"); },
       std::sqrt(2.0 / out), 0},
      {"kaiming_normal_leaky", [](Tensor t) { return nn::init::kaiming_normal_(t, 0.1); },
       std::sqrt(2.0 / (1 + 0.01)) / std::sqrt(double(in)), 0},
  };
  for (const Expect& c : cases) {
    Tensor t = empty({out, in}).requires_grad_();
    Tensor result = c.init(t);
    EXPECT_TRUE(result.is_same(t)) << c.name;
    EXPECT_TRUE(t.is_leaf()) << c.name;  // filled without recording history
    auto [mean, std] = moments(t);
    // Sampling error of the mean is std/sqrt(n); allow 5 of those, and 2% on the std.
    EXPECT_NEAR(mean, 0, 5 * c.std / std::sqrt(n)) << c.name;
    EXPECT_NEAR(std, c.std, 0.02 * c.std) << c.name;
    if (c.bound > 0) {
      EXPECT_LE(t.abs().max().item<double>(), c.bound) << c.name;
    }
  }
  EXPECT_THROW(nn::init::kaiming_uniform_(empty({2, 2}), 0, "fan_sideways"), Error);
}

TEST(Init, Constants) {
  Tensor t = empty({3, 2}, kFloat64).requires_grad_();
  nn::init::constant_(t, 0.25);
  EXPECT_TRUE(t.equal(full({3, 2}, 0.25, kFloat64)));
  nn::init::ones_(t);
  EXPECT_TRUE(t.equal(ones({3, 2}, kFloat64)));
  nn::init::zeros_(t);
  EXPECT_TRUE(t.equal(zeros({3, 2}, kFloat64)));
  EXPECT_TRUE(t.is_leaf());
}

TEST(Dropout, TrainStatisticsAndScaling) {
  manual_seed(2);
  nn::Dropout dropout(0.3);
  Tensor x = ones({200, 500}, kFloat64).requires_grad_();
  Tensor y = dropout->forward(x);
  Tensor kept = (y != 0).to(kFloat64);
  double keep_rate = kept.mean().item<double>();
  EXPECT_NEAR(keep_rate, 0.7, 5 * std::sqrt(0.7 * 0.3 / 1e5));
  // Kept values are scaled by 1/(1-p); the gradient is the same mask times the scale.
  EXPECT_TRUE(y.allclose(kept / 0.7, 1e-12, 1e-12));
  y.sum().backward();
  EXPECT_TRUE(x.grad().allclose(kept / 0.7, 1e-12, 1e-12));
  EXPECT_NEAR(y.mean().item<double>(), 1.0, 0.02);
}

TEST(Dropout, EvalAndEdgeProbabilities) {
  nn::Dropout dropout(0.5);
  Tensor x = randn({4, 5});
  dropout->eval();
  EXPECT_TRUE(dropout->forward(x).is_same(x));
  dropout->train();
  EXPECT_TRUE(nn::Dropout(0.0)->forward(x).is_same(x));
  EXPECT_EQ(nn::Dropout(1.0)->forward(x).abs().sum().item<float>(), 0.f);
  expect_error_containing([] { nn::Dropout(1.5); }, "Dropout: p must be in [0, 1], got 1.5");
  expect_error_containing([] { nn::Dropout(-0.1); }, "Dropout");
}

TEST(Embedding, DefaultInitAndShapes) {
  manual_seed(3);
  nn::Embedding embedding(1000, 64);
  auto [mean, std] = moments(embedding->weight);
  EXPECT_NEAR(mean, 0, 0.02);
  EXPECT_NEAR(std, 1, 0.02);
  Tensor indices = tensor({1, 5, 7, 1, 0, 2}).view({2, 3});
  Tensor out = embedding->forward(indices);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 3, 64}));
  EXPECT_TRUE(out[1][0].equal(embedding->weight[1]));
  EXPECT_THROW(embedding->forward(tensor({1.f})), Error);
  EXPECT_THROW(embedding->forward(tensor({1000})), Error);
}

TEST(Embedding, PaddingRowIsZeroAndGetsNoGradient) {
  nn::Embedding embedding(6, 3, -1);
  ASSERT_EQ(embedding->padding_idx, 5);
  EXPECT_EQ(embedding->weight[5].abs().sum().item<float>(), 0.f);
  {
    NoGradGuard no_grad;
    embedding->weight[5].fill_(2.0);  // the lookup still reads the row's value
  }
  Tensor indices = tensor({5, 1, 5, 2});
  Tensor out = embedding->forward(indices);
  EXPECT_TRUE(out[0].equal(full({3}, 2.0)));
  (out * 3.0).sum().backward();
  Tensor grad = embedding->weight.grad();
  EXPECT_EQ(grad[5].abs().sum().item<float>(), 0.f);
  EXPECT_TRUE(grad[1].equal(full({3}, 3.0)));
  EXPECT_TRUE(grad[0].equal(zeros({3})));
  EXPECT_THROW(nn::Embedding(4, 2, 4), Error);
}

TEST(Embedding, FunctionalFormMatchesTheModule) {
  manual_seed(4);
  nn::Embedding embedding(6, 3, 2);
  Tensor indices = tensor({2, 1, 5, 2}).view({2, 2});
  EXPECT_TRUE(F::embedding(indices, embedding->weight, 2).equal(embedding->forward(indices)));
  EXPECT_TRUE(F::embedding(indices, embedding->weight, -4).equal(embedding->forward(indices)));
  expect_error_containing([&] { F::embedding(indices, embedding->weight.view({-1})); },
                          "embedding: expected weight of shape [num_embeddings, embedding_dim]");
  expect_error_containing([&] { F::embedding(indices, embedding->weight, 6); },
                          "padding_idx must be within [-6, 6), got 6");
}

TEST(Activations, FunctionalNamesAreTheCoreOps) {
  Tensor x = randn({3, 4});
  EXPECT_TRUE(F::relu(x).equal(relu(x)));
  EXPECT_TRUE(F::gelu(x, "tanh").equal(gelu(x, "tanh")));
  EXPECT_TRUE(F::silu(x).equal(silu(x)));
  EXPECT_TRUE(F::sigmoid(x).equal(sigmoid(x)));
  EXPECT_TRUE(F::tanh(x).equal(tanh(x)));
  EXPECT_TRUE(F::softmax(x, 1).equal(softmax(x, 1)));
  EXPECT_TRUE(F::log_softmax(x, -1).equal(log_softmax(x, -1)));
}

TEST(Activations, ModulesMatchOps) {
  Tensor x = randn({3, 4});
  EXPECT_TRUE(nn::ReLU()->forward(x).equal(relu(x)));
  EXPECT_TRUE(nn::GELU()->forward(x).equal(gelu(x)));
  EXPECT_TRUE(nn::SiLU()->forward(x).equal(silu(x)));
  EXPECT_TRUE(nn::Sigmoid()->forward(x).equal(sigmoid(x)));
  EXPECT_TRUE(nn::Tanh()->forward(x).equal(tanh(x)));
  EXPECT_TRUE(nn::Identity()->forward(x).is_same(x));
  EXPECT_EQ(nn::Flatten(0)->forward(x).sizes(), IntArrayRef({12}));
  EXPECT_THROW(nn::GELU("exact"), Error);
}

TEST(Activations, LeakyReluGradientAtZeroIsSlope) {
  Tensor x = tensor({-1.0, 0.0, 2.0}).requires_grad_();
  nn::LeakyReLU(0.1)->forward(x).sum().backward();
  EXPECT_TRUE(x.grad().allclose(tensor({0.1, 0.1, 1.0})));
}

}  // namespace
}  // namespace accel
