// Recurrent layers and cells beyond the PyTorch fixtures (tests/reference/cases_nn_layers.py,
// run in layers_test.cpp): parameter names and initialization, states and dropout between
// layers, one autograd node per layer and direction, empty batches, cells against layers, and
// the errors of bad inputs and states.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "accel/accel.h"
#include "accel/core/autograd/node.h"
#include "support/expect_error.h"

namespace accel {
namespace {

TEST(Recurrent, ParameterNamesInitializationAndPrinting) {
  manual_seed(9);
  nn::LSTM lstm(nn::LSTMOptions(3, 16).num_layers(2).bidirectional(true));
  std::vector<std::string> names;
  for (const auto& item : lstm->named_parameters()) names.push_back(item.key());
  EXPECT_EQ(names.size(), 16u);
  EXPECT_EQ(names[0], "weight_ih_l0");
  EXPECT_EQ(names[4], "weight_ih_l0_reverse");
  EXPECT_EQ(names[15], "bias_hh_l1_reverse");
  EXPECT_EQ(lstm->all_weights[2].weight_ih.sizes(), IntArrayRef({64, 32}));  // 4 gates, 2 dirs
  for (const Tensor& p : lstm->parameters()) EXPECT_LE(p.abs().max().item<double>(), 0.25);
  EXPECT_EQ(lstm->extra_repr(), "3, 16, num_layers=2, bidirectional=true");
  EXPECT_EQ(nn::GRU(nn::GRUOptions(2, 5).bias(false))->parameters().size(), 2u);
}

TEST(Recurrent, ShapesStatesAndDropoutBetweenLayers) {
  manual_seed(10);
  nn::GRU gru(nn::GRUOptions(3, 4).num_layers(3).dropout(0.5).batch_first(true));
  const Tensor x = randn({2, 6, 3});
  gru->eval();
  const auto [out, h] = gru->forward(x);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 6, 4}));
  EXPECT_EQ(h.sizes(), IntArrayRef({3, 2, 4}));
  // The last layer's final state is the output's last step.
  EXPECT_TRUE(h[2].equal(out.select(1, 5)));
  EXPECT_TRUE(std::get<0>(gru->forward(x)).equal(out));
  gru->train();
  EXPECT_FALSE(std::get<0>(gru->forward(x)).equal(out));
  // Carrying the state on gives the same as one run over the whole sequence.
  gru->eval();
  const auto [first, h_mid] = gru->forward(x.narrow(1, 0, 4));
  const auto [second, h_end] = gru->forward(x.narrow(1, 4, 2), h_mid);
  EXPECT_TRUE(second.allclose(out.narrow(1, 4, 2), 1e-5, 1e-6));
  EXPECT_TRUE(h_end.allclose(h, 1e-5, 1e-6));
}

// The nodes named `name` that gradients from `node` reach.
std::set<const autograd::Node*> reached(const autograd::Node* node, const char* name) {
  std::set<const autograd::Node*> found;
  if (std::string_view(node->name()) == name) found.insert(node);
  for (const autograd::Edge& edge : node->next_edges) {
    if (edge.is_valid()) found.merge(reached(edge.node.get(), name));
  }
  return found;
}

TEST(Recurrent, EachDirectionIsOneNode) {
  manual_seed(11);
  nn::LSTM lstm(nn::LSTMOptions(3, 4).bidirectional(true));
  const auto [out, state] = lstm->forward(randn({5, 2, 3}));
  const auto& [h, c] = state;
  // The forward and reverse runs are one node each, which h_n and c_n come from too.
  const std::set<const autograd::Node*> runs = reached(out.grad_fn().get(), "recurrent_sequence");
  EXPECT_EQ(runs.size(), 2U);
  EXPECT_EQ(reached(h.grad_fn().get(), "recurrent_sequence"), runs);
  EXPECT_EQ(reached(c.grad_fn().get(), "recurrent_sequence"), runs);
}

TEST(Recurrent, EmptyBatch) {
  for (const bool lstm_cell : {true, false}) {
    SCOPED_TRACE(lstm_cell ? "LSTM" : "GRU");
    nn::LSTM lstm(3, 4);
    nn::GRU gru(3, 4);
    const Tensor x = zeros({3, 0, 3}).requires_grad_();
    const Tensor out = lstm_cell ? std::get<0>(lstm->forward(x)) : std::get<0>(gru->forward(x));
    EXPECT_EQ(out.sizes(), IntArrayRef({3, 0, 4}));
    out.sum().backward();
    const Tensor& weight_hh =
        lstm_cell ? lstm->all_weights[0].weight_hh : gru->all_weights[0].weight_hh;
    ASSERT_TRUE(weight_hh.grad().defined());
    EXPECT_TRUE(weight_hh.grad().equal(zeros_like(weight_hh)));
    EXPECT_EQ(x.grad().sizes(), IntArrayRef({3, 0, 3}));
  }
}

TEST(RecurrentCell, NamesPrintingAndErrors) {
  manual_seed(2);
  nn::LSTMCell lstm(3, 4);
  std::vector<std::string> names;
  for (const auto& [name, p] : lstm->named_parameters()) {
    names.push_back(name);
    EXPECT_LE(p.abs().max().item<double>(), 0.5) << name;  // 1 / sqrt(hidden_size)
  }
  EXPECT_EQ(names, (std::vector<std::string>{"weight_ih", "weight_hh", "bias_ih", "bias_hh"}));
  EXPECT_EQ(lstm->weight_ih.sizes(), IntArrayRef({16, 3}));
  std::ostringstream printed;
  printed << nn::RNNCell(
      nn::RNNCellOptions(3, 4).bias(false).nonlinearity(nn::RNNNonlinearity::ReLU));
  EXPECT_EQ(printed.str(), "RNNCell(3, 4, bias=false, nonlinearity=relu)");
  // A cell's step is the layer's first step.
  nn::GRU layer(3, 4);
  nn::GRUCell cell(3, 4);
  cell->weight_ih = layer->all_weights[0].weight_ih;
  cell->weight_hh = layer->all_weights[0].weight_hh;
  cell->bias_ih = layer->all_weights[0].bias_ih;
  cell->bias_hh = layer->all_weights[0].bias_hh;
  const Tensor x = randn({2, 5, 3});
  EXPECT_TRUE(cell->forward(x[0]).equal(std::get<0>(layer->forward(x))[0]));
  testing::expect_error_containing(
      [&] {
        (void)lstm->forward(zeros({2, 5}));
      },
      "LSTMCell: input has inconsistent input_size: got 5 expected 3");
  testing::expect_error_containing(
      [&] {
        (void)lstm->forward(zeros({2, 3}), std::tuple{zeros({3, 4}), zeros({2, 4})});
      },
      "LSTMCell: expected hx of shape [2, 4] and dtype float32, got [3, 4] and float32");
  testing::expect_error_containing(
      [&] {
        (void)cell->forward(zeros({1, 2, 3}));
      },
      "GRUCell: expected a 1-D (unbatched) or 2-D input, got [1, 2, 3]");
  testing::expect_error_containing([] { nn::GRUCell(3, 0); },
                                   "GRUCell: input_size and hidden_size must be positive");
}

TEST(Recurrent, Errors) {
  nn::LSTM lstm(3, 4);
  testing::expect_error_containing(
      [&] {
        (void)lstm->forward(zeros({5, 2, 6}));
      },
      "LSTM: input.size(-1) must be equal to input_size: expected 3, got 6");
  testing::expect_error_containing([&] { (void)lstm->forward(zeros({5})); },
                                   "LSTM: expected a 2-D (unbatched) or 3-D input, got [5]");
  testing::expect_error_containing(
      [&] {
        (void)lstm->forward(zeros({5, 2, 3}), std::tuple{zeros({1, 3, 4}), zeros({1, 2, 4})});
      },
      "expected hx of shape [1, 2, 4] and dtype float32, got [1, 3, 4] and float32");
  testing::expect_error_containing(
      [&] {
        (void)lstm->forward(zeros({0, 2, 3}));
      },
      "expected a sequence of at least one step");
  testing::expect_error_containing(
      [&] {
        (void)lstm->forward(zeros({5, 2, 3}, kFloat64));
      },
      "LSTM: expected an input of the parameters' dtype float32 on cpu, got float64 on cpu");
  testing::expect_error_containing([] { nn::RNN(0, 4); },
                                   "RNN: input_size, hidden_size and num_layers must be positive");
}

TEST(Recurrent, LstmProjectionsNamesShapesAndErrors) {
  manual_seed(11);
  nn::LSTM lstm(nn::LSTMOptions(3, 5).num_layers(2).bidirectional(true).proj_size(2));
  std::vector<std::string> names;
  for (const auto& item : lstm->named_parameters()) names.push_back(item.key());
  ASSERT_EQ(names.size(), 20u);
  EXPECT_EQ(names[4], "weight_hr_l0");
  EXPECT_EQ(names[19], "weight_hr_l1_reverse");
  EXPECT_EQ(lstm->all_weights[0].weight_hh.sizes(), IntArrayRef({20, 2}));
  EXPECT_EQ(lstm->all_weights[0].weight_hr.sizes(), IntArrayRef({2, 5}));
  EXPECT_EQ(lstm->all_weights[2].weight_ih.sizes(), IntArrayRef({20, 4}));  // 2 directions x 2
  EXPECT_EQ(lstm->extra_repr(), "3, 5, num_layers=2, bidirectional=true, proj_size=2");
  const auto [out, state] = lstm->forward(randn({6, 3, 3}));
  EXPECT_EQ(out.sizes(), IntArrayRef({6, 3, 4}));
  EXPECT_EQ(std::get<0>(state).sizes(), IntArrayRef({4, 3, 2}));
  EXPECT_EQ(std::get<1>(state).sizes(), IntArrayRef({4, 3, 5}));
  // The last layer's forward direction ends at the output's last step.
  EXPECT_TRUE(std::get<0>(state)[2].equal(out[5].narrow(1, 0, 2)));
  testing::expect_error_containing(
      [&] {
        (void)lstm->forward(randn({6, 3, 3}), std::tuple{zeros({4, 3, 5}), zeros({4, 3, 5})});
      },
      "LSTM: expected hx of shape [4, 3, 2] and dtype float32, got [4, 3, 5] and float32");
  testing::expect_error_containing([] { nn::LSTM(nn::LSTMOptions(3, 4).proj_size(4)); },
                                   "LSTM: proj_size (4) must be smaller than hidden_size (4)");
  testing::expect_error_containing(
      [] { nn::LSTM(nn::LSTMOptions(3, 4).proj_size(-1)); },
      "LSTM: proj_size must be positive, or zero for no projections, got -1");
}

}  // namespace
}  // namespace accel
