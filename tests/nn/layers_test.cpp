// nn layer tests: forwards and gradients against PyTorch fixtures (tests/reference/
// cases_nn_layers.py) through the op harness, dropout statistics, Embedding's padding_idx, and
// input-shape errors (recurrent layers' own in recurrent_test.cpp).
#include <cmath>
#include <limits>

#include "support/expect_error.h"
#include "support/op_harness.h"

namespace accel {
namespace {

namespace rnn = nn::utils::rnn;

using testing::OpCase;
using V = std::vector<Tensor>;

// The layer's parameters are replaced by the case's inputs, so the harness sees their grads.
Tensor linear_with(const V& x, bool bias) {
  nn::Linear linear(nn::LinearOptions(x[1].size(1), x[1].size(0)).bias(bias));
  linear->weight = x[1];
  if (bias) linear->bias = x[2];
  return linear->forward(x[0]);
}

// nn::MultiheadAttention(4, 2) in evaluation, its packed parameters replaced by the case's
// inputs from x[first] on: in_proj_weight, in_proj_bias, out_proj's weight and bias.
nn::MultiheadAttention packed_attention(const V& x, size_t first) {
  nn::MultiheadAttention mha(4, 2);
  mha->eval();
  mha->in_proj_weight = x[first];
  mha->in_proj_bias = x[first + 1];
  mha->out_proj->weight = x[first + 2];
  mha->out_proj->bias = x[first + 3];
  return mha;
}

// cases_nn_layers.py's masks: padding keys per batch element, keys each query must not see.
Tensor mha_padding() {
  return tensor({{false, false, false, true, true}, {false, false, false, false, false}});
}
Tensor mha_mask() {
  return tensor({{false, true, false, false, false},
                 {false, false, true, true, false},
                 {true, false, false, false, false}});
}

// The case's layer options: d_model 4, 2 heads, dim_feedforward 6, no dropout.
nn::TransformerEncoderLayerOptions encoder_layer_options(bool gelu = false) {
  auto options = nn::TransformerEncoderLayerOptions(4, 2).dim_feedforward(6).dropout(0.0);
  if (gelu) options.activation([](const Tensor& t) { return F::gelu(t); });
  return options;
}

// Replaces an attention's 4 parameters, in PyTorch's order, by x[first], x[first + 1], ...
void set_attention(nn::MultiheadAttentionImpl& attention, const V& x, size_t first) {
  attention.in_proj_weight = x[first];
  attention.in_proj_bias = x[first + 1];
  attention.out_proj->weight = x[first + 2];
  attention.out_proj->bias = x[first + 3];
}

// Replaces a layer's 12 parameters, in PyTorch's order, by x[first], x[first + 1], ...
void set_encoder_layer(nn::TransformerEncoderLayerImpl& layer, const V& x, size_t first) {
  set_attention(*layer.self_attn, x, first);
  const std::vector<Tensor*> targets = {
      &layer.linear1->weight, &layer.linear1->bias, &layer.linear2->weight, &layer.linear2->bias,
      &layer.norm1->weight,   &layer.norm1->bias,   &layer.norm2->weight,   &layer.norm2->bias};
  for (size_t i = 0; i < targets.size(); ++i) *targets[i] = x[first + 4 + i];
}

nn::TransformerEncoderLayer encoder_layer_with(const V& x, bool gelu = false) {
  nn::TransformerEncoderLayer layer(encoder_layer_options(gelu));
  layer->eval();
  set_encoder_layer(*layer, x, 1);
  return layer;
}

// Replaces a decoder layer's 18 parameters, in PyTorch's order, by x[first], x[first + 1], ...
void set_decoder_layer(nn::TransformerDecoderLayerImpl& layer, const V& x, size_t first) {
  set_attention(*layer.self_attn, x, first);
  set_attention(*layer.multihead_attn, x, first + 4);
  const std::vector<Tensor*> targets = {
      &layer.linear1->weight, &layer.linear1->bias, &layer.linear2->weight, &layer.linear2->bias,
      &layer.norm1->weight,   &layer.norm1->bias,   &layer.norm2->weight,   &layer.norm2->bias,
      &layer.norm3->weight,   &layer.norm3->bias};
  for (size_t i = 0; i < targets.size(); ++i) *targets[i] = x[first + 8 + i];
}

nn::TransformerDecoderLayer decoder_layer_with(const V& x) {
  nn::TransformerDecoderLayer layer(encoder_layer_options());
  layer->eval();
  set_decoder_layer(*layer, x, 2);
  return layer;
}

// The cases' target mask: no position attends to a later one (true = ignore).
Tensor causal_mask(int64_t size) { return ones({size, size}, kBool).triu(1); }

// The transformer cases: one encoder and one decoder layer of the case's options (pre-norm and
// batch first, or neither) with the parameters x[2], x[3], ..., on src x[0] and tgt x[1], with
// the float causal mask and the source padding.
Tensor transformer_case(const V& x, bool norm_first_batch_first) {
  nn::Transformer model(nn::TransformerOptions(4, 2)
                            .num_encoder_layers(1)
                            .num_decoder_layers(1)
                            .dim_feedforward(6)
                            .dropout(0.0)
                            .norm_first(norm_first_batch_first)
                            .batch_first(norm_first_batch_first));
  model->eval();
  set_encoder_layer(*model->encoder->layers->at<nn::TransformerEncoderLayerImpl>(0), x, 2);
  model->encoder->norm->weight = x[14];
  model->encoder->norm->bias = x[15];
  set_decoder_layer(*model->decoder->layers->at<nn::TransformerDecoderLayerImpl>(0), x, 16);
  model->decoder->norm->weight = x[34];
  model->decoder->norm->bias = x[35];
  const Tensor tgt_mask = nn::TransformerImpl::generate_square_subsequent_mask(
      4, TensorOptions(x[0].dtype()).device(x[0].device()));
  return model->forward(x[0], x[1], {}, tgt_mask, {}, mha_padding());
}

// A recurrent layer whose weights are replaced by x[first], x[first + 1], ... in PyTorch's
// order (per layer and direction: weight_ih, weight_hh, the biases where it has them, weight_hr).
template <typename Holder>
Holder recurrent_with(Holder layer, const V& x, size_t first) {
  for (auto& w : layer->all_weights) {
    for (Tensor* t : {&w.weight_ih, &w.weight_hh, &w.bias_ih, &w.bias_hh, &w.weight_hr}) {
      if (t->defined()) *t = x[first++];
    }
  }
  return layer;
}

// A recurrent cell whose weights are replaced by x[first], x[first + 1], ... in PyTorch's order.
template <typename Holder>
Holder cell_with(Holder cell, const V& x, size_t first) {
  for (Tensor* t : {&cell->weight_ih, &cell->weight_hh, &cell->bias_ih, &cell->bias_hh}) {
    if (t->defined()) *t = x[first++];
  }
  return cell;
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
    {"mha_self",
     [](const V& x) { return std::get<0>(packed_attention(x, 1)->forward(x[0], x[0], x[0])); }},
    {"mha_weights",
     [](const V& x) { return std::get<1>(packed_attention(x, 3)->forward(x[0], x[1], x[2])); }},
    {"mha_weights_per_head",
     [](const V& x) {
       return std::get<1>(packed_attention(x, 3)->forward(x[0], x[1], x[2], {}, true, {}, false));
     }},
    {"mha_bool_masks",
     [](const V& x) {
       return std::get<0>(
           packed_attention(x, 3)->forward(x[0], x[1], x[2], mha_padding(), true, mha_mask()));
     }},
    {"mha_bool_masks_without_weights",
     [](const V& x) {
       const Tensor mask = tensor({{false, true, false, false, false},
                                   {true, true, true, false, false},
                                   {false, false, true, false, false}});
       return std::get<0>(
           packed_attention(x, 3)->forward(x[0], x[1], x[2], mha_padding(), false, mask));
     }},
    {"mha_unbatched_float_mask",
     [](const V& x) {
       return std::get<0>(packed_attention(x, 4)->forward(x[0], x[1], x[2], {}, true, x[3]));
     }},
    {"mha_bias_kv_zero_attn",
     [](const V& x) {
       nn::MultiheadAttention mha(
           nn::MultiheadAttentionOptions(4, 2).add_bias_kv(true).add_zero_attn(true));
       mha->eval();
       mha->in_proj_weight = x[3];
       mha->in_proj_bias = x[4];
       mha->bias_k = x[5];
       mha->bias_v = x[6];
       mha->out_proj->weight = x[7];
       mha->out_proj->bias = x[8];
       return std::get<0>(mha->forward(x[0], x[1], x[2], mha_padding()));
     }},
    {"mha_separate_projections",
     [](const V& x) {
       nn::MultiheadAttention mha(nn::MultiheadAttentionOptions(4, 2).kdim(3).vdim(6));
       mha->eval();
       mha->q_proj_weight = x[3];
       mha->k_proj_weight = x[4];
       mha->v_proj_weight = x[5];
       mha->in_proj_bias = x[6];
       mha->out_proj->weight = x[7];
       mha->out_proj->bias = x[8];
       return std::get<0>(mha->forward(x[0], x[1], x[2]));
     }},
    {"transformer_encoder_layer", [](const V& x) { return encoder_layer_with(x)->forward(x[0]); }},
    {"transformer_encoder_layer_masks",
     [](const V& x) {
       const Tensor mask = tensor({{false, true, false, false, true}}).expand({5, 5});
       return encoder_layer_with(x)->forward(x[0], mask, mha_padding());
     }},
    {"transformer_encoder_layer_gelu",
     [](const V& x) { return encoder_layer_with(x, true)->forward(x[0]); }},
    {"transformer_encoder",
     [](const V& x) {
       nn::TransformerEncoder encoder(nn::TransformerEncoderOptions(encoder_layer_options(), 2)
                                          .norm(nn::LayerNorm(nn::LayerNormOptions({4}))));
       encoder->eval();
       set_encoder_layer(*encoder->layers->at<nn::TransformerEncoderLayerImpl>(0), x, 1);
       set_encoder_layer(*encoder->layers->at<nn::TransformerEncoderLayerImpl>(1), x, 13);
       encoder->norm->weight = x[25];
       encoder->norm->bias = x[26];
       const Tensor mask = tensor({{false, true, false, false, true}}).expand({5, 5});
       return encoder->forward(x[0], mask, {});
     }},
    {"rnn_tanh",
     [](const V& x) {
       return std::get<0>(recurrent_with(nn::RNN(3, 4), x, 2)->forward(x[0], x[1]));
     }},
    {"rnn_relu_two_layers_h_n",
     [](const V& x) {
       const nn::RNN rnn(
           nn::RNNOptions(3, 4).num_layers(2).nonlinearity(nn::RNNNonlinearity::ReLU));
       return std::get<1>(recurrent_with(rnn, x, 1)->forward(x[0]));
     }},
    {"lstm",
     [](const V& x) { return std::get<0>(recurrent_with(nn::LSTM(3, 4), x, 1)->forward(x[0])); }},
    {"lstm_stacked_bidirectional_batch_first",
     [](const V& x) {
       const nn::LSTM lstm(
           nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true).batch_first(true));
       return std::get<0>(recurrent_with(lstm, x, 3)->forward(x[0], std::tuple{x[1], x[2]}));
     }},
    {"lstm_stacked_bidirectional_c_n",
     [](const V& x) {
       const nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
       auto [output, state] = recurrent_with(lstm, x, 3)->forward(x[0], std::tuple{x[1], x[2]});
       return std::get<1>(state);
     }},
    {"lstm_unbatched",
     [](const V& x) { return std::get<0>(recurrent_with(nn::LSTM(3, 4), x, 1)->forward(x[0])); }},
    {"gru",
     [](const V& x) { return std::get<0>(recurrent_with(nn::GRU(3, 4), x, 1)->forward(x[0])); }},
    {"gru_bidirectional_h_n",
     [](const V& x) {
       const nn::GRU gru(nn::GRUOptions(3, 4).bidirectional(true));
       return std::get<1>(recurrent_with(gru, x, 2)->forward(x[0], x[1]));
     }},
    {"gru_no_bias",
     [](const V& x) {
       const nn::GRU gru(nn::GRUOptions(3, 4).bias(false));
       return std::get<0>(recurrent_with(gru, x, 1)->forward(x[0]));
     }},
    {"lstm_one_step_bidirectional_no_bias",
     [](const V& x) {
       const nn::LSTM lstm(nn::LSTMOptions(3, 4).bidirectional(true).bias(false));
       return std::get<0>(recurrent_with(lstm, x, 1)->forward(x[0]));
     }},
    {"rnn_relu_bidirectional",
     [](const V& x) {
       const nn::RNN rnn(
           nn::RNNOptions(3, 4).bidirectional(true).nonlinearity(nn::RNNNonlinearity::ReLU));
       return std::get<0>(recurrent_with(rnn, x, 2)->forward(x[0], x[1]));
     }},
    {"gru_stacked_batch_first_both_outputs",
     [](const V& x) {
       const nn::GRU gru(nn::GRUOptions(3, 4).num_layers(2).batch_first(true));
       auto [output, h] = recurrent_with(gru, x, 1)->forward(x[0]);
       return output.sum() + h.sum();
     }},
    {"lstm_packed",
     [](const V& x) {
       const auto [output, state] =
           recurrent_with(nn::LSTM(3, 4), x, 1)
               ->forward_with_packed_input(rnn::pack_padded_sequence(x[0], tensor({5, 3, 2})));
       return std::get<0>(rnn::pad_packed_sequence(output));
     }},
    {"lstm_packed_unsorted_stacked_bidirectional_states",
     [](const V& x) {
       const nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
       const auto [output, state] =
           recurrent_with(lstm, x, 3)
               ->forward_with_packed_input(
                   rnn::pack_padded_sequence(x[0], tensor({2, 5, 3}), false, false),
                   std::tuple{x[1], x[2]});
       return cat({std::get<0>(state), std::get<1>(state)});
     }},
    {"gru_packed_unsorted_bidirectional_batch_first",
     [](const V& x) {
       const nn::GRU gru(nn::GRUOptions(3, 4).bidirectional(true).batch_first(true));
       const auto [output, h] = recurrent_with(gru, x, 2)->forward_with_packed_input(
           rnn::pack_padded_sequence(x[0], tensor({4, 1, 3}), true, false), x[1]);
       return cat({std::get<0>(rnn::pad_packed_sequence(output, true)).flatten(), h.flatten()});
     }},
    {"rnn_packed_data_bidirectional",
     [](const V& x) {
       const nn::RNN rnn(nn::RNNOptions(3, 4).bidirectional(true));
       return std::get<0>(recurrent_with(rnn, x, 1)->forward_with_packed_input(
                              rnn::pack_padded_sequence(x[0], tensor({4, 4, 2}))))
           .data();
     }},
    {"pack_sequence_unsorted",
     [](const V& x) {
       return rnn::pack_sequence({x[0], x[1], x[2]}, false).data();
     }},
    {"pad_sequence_left_batch_first",
     [](const V& x) {
       return rnn::pad_sequence({x[0], x[1]}, true, 0.5, "left");
     }},
    {"pad_packed_sequence_total_length",
     [](const V& x) {
       return std::get<0>(rnn::pad_packed_sequence(
           rnn::pack_padded_sequence(x[0], tensor({3, 1, 2}), false, false), false, -1.0, 5));
     }},
    {"mha_no_bias",
     [](const V& x) {
       nn::MultiheadAttention mha(nn::MultiheadAttentionOptions(4, 2).bias(false));
       mha->eval();
       mha->in_proj_weight = x[1];
       mha->out_proj->weight = x[2];
       return std::get<0>(mha->forward(x[0], x[0], x[0]));
     }},
    {"transformer_decoder_layer",
     [](const V& x) { return decoder_layer_with(x)->forward(x[0], x[1]); }},
    {"transformer_decoder_layer_masks",
     [](const V& x) {
       const Tensor memory_mask = tensor({{false, true, false, false, true}}).expand({4, 5});
       const Tensor tgt_padding =
           tensor({{false, true, false, false}, {false, false, false, false}});
       return decoder_layer_with(x)->forward(x[0], x[1], causal_mask(4), memory_mask, tgt_padding,
                                             mha_padding());
     }},
    {"transformer_decoder",
     [](const V& x) {
       nn::TransformerDecoder decoder(nn::TransformerDecoderOptions(encoder_layer_options(), 2)
                                          .norm(nn::LayerNorm(nn::LayerNormOptions({4}))));
       decoder->eval();
       set_decoder_layer(*decoder->layers->at<nn::TransformerDecoderLayerImpl>(0), x, 2);
       set_decoder_layer(*decoder->layers->at<nn::TransformerDecoderLayerImpl>(1), x, 20);
       decoder->norm->weight = x[38];
       decoder->norm->bias = x[39];
       return decoder->forward(x[0], x[1], causal_mask(4));
     }},
    {"transformer", [](const V& x) { return transformer_case(x, false); }},
    {"mha_batch_first",
     [](const V& x) {
       nn::MultiheadAttention mha(nn::MultiheadAttentionOptions(4, 2).batch_first(true));
       mha->eval();
       set_attention(*mha, x, 3);
       return std::get<0>(mha->forward(x[0], x[1], x[2], mha_padding()));
     }},
    {"transformer_encoder_layer_norm_first_batch_first",
     [](const V& x) {
       nn::TransformerEncoderLayer layer(
           encoder_layer_options().norm_first(true).batch_first(true));
       layer->eval();
       set_encoder_layer(*layer, x, 1);
       return layer->forward(x[0], {}, mha_padding());
     }},
    {"transformer_decoder_layer_norm_first",
     [](const V& x) {
       nn::TransformerDecoderLayer layer(encoder_layer_options().norm_first(true));
       layer->eval();
       set_decoder_layer(*layer, x, 2);
       return layer->forward(x[0], x[1], causal_mask(4));
     }},
    {"transformer_norm_first_batch_first", [](const V& x) { return transformer_case(x, true); }},
    {"lstm_cell",
     [](const V& x) {
       const auto [h, c] =
           cell_with(nn::LSTMCell(3, 4), x, 3)->forward(x[0], std::tuple{x[1], x[2]});
       return cat({h, c});
     }},
    {"lstm_cell_no_bias_unbatched",
     [](const V& x) {
       const auto [h, c] =
           cell_with(nn::LSTMCell(nn::LSTMCellOptions(3, 4).bias(false)), x, 1)->forward(x[0]);
       return cat({h, c});
     }},
    {"gru_cell",
     [](const V& x) { return cell_with(nn::GRUCell(3, 4), x, 2)->forward(x[0], x[1]); }},
    {"rnn_cell_relu_unbatched",
     [](const V& x) {
       const nn::RNNCell cell(nn::RNNCellOptions(3, 4).nonlinearity(nn::RNNNonlinearity::ReLU));
       return cell_with(cell, x, 2)->forward(x[0], x[1]);
     }},
    {"lstm_proj",
     [](const V& x) {
       const nn::LSTM lstm(nn::LSTMOptions(3, 4).proj_size(2));
       return std::get<0>(recurrent_with(lstm, x, 1)->forward(x[0]));
     }},
    {"lstm_proj_stacked_bidirectional_states",
     [](const V& x) {
       const nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true).proj_size(2));
       const auto [output, state] =
           recurrent_with(lstm, x, 3)->forward(x[0], std::tuple{x[1], x[2]});
       return cat({output.flatten(), std::get<0>(state).flatten(), std::get<1>(state).flatten()});
     }},
    {"lstm_proj_packed_unsorted",
     [](const V& x) {
       const nn::LSTM lstm(nn::LSTMOptions(3, 4).proj_size(3));
       const auto [output, state] = recurrent_with(lstm, x, 1)
                                        ->forward_with_packed_input(rnn::pack_padded_sequence(
                                            x[0], tensor({2, 5, 3}), false, false));
       return cat({std::get<0>(rnn::pad_packed_sequence(output)).flatten(),
                   std::get<0>(state).flatten(), std::get<1>(state).flatten()});
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
  const Tensor weight = embedding->weight.detach().to(kFloat64);
  EXPECT_NEAR(weight.mean().item<double>(), 0, 0.02);
  EXPECT_NEAR(weight.std().item<double>(), 1, 0.02);
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

TEST(MultiheadAttention, ParametersAndInitializationAsPyTorch) {
  manual_seed(4);
  nn::MultiheadAttention mha(64, 8);
  std::vector<std::string> names;
  for (const auto& item : mha->named_parameters()) names.push_back(item.key());
  EXPECT_EQ(names, (std::vector<std::string>{"in_proj_weight", "in_proj_bias", "out_proj.weight",
                                             "out_proj.bias"}));
  EXPECT_EQ(mha->in_proj_weight.sizes(), IntArrayRef({192, 64}));
  EXPECT_TRUE(mha->in_proj_bias.equal(zeros({192})));
  EXPECT_TRUE(mha->out_proj->bias.equal(zeros({64})));
  // xavier_uniform_ over [192, 64]: bound sqrt(6 / (64 + 192)).
  const double bound = std::sqrt(6.0 / 256.0);
  EXPECT_LE(mha->in_proj_weight.abs().max().item<double>(), bound);
  EXPECT_GT(mha->in_proj_weight.abs().max().item<double>(), 0.95 * bound);
  nn::MultiheadAttention separate(
      nn::MultiheadAttentionOptions(8, 2).kdim(3).vdim(5).add_bias_kv(true));
  names.clear();
  for (const auto& item : separate->named_parameters()) names.push_back(item.key());
  EXPECT_EQ(names, (std::vector<std::string>{"q_proj_weight", "k_proj_weight", "v_proj_weight",
                                             "in_proj_bias", "bias_k", "bias_v", "out_proj.weight",
                                             "out_proj.bias"}));
}

TEST(MultiheadAttention, WeightsOnRequestAndDropoutOnlyInTraining) {
  manual_seed(5);
  nn::MultiheadAttention mha(nn::MultiheadAttentionOptions(8, 2).dropout(0.5));
  const Tensor q = randn({3, 2, 8}), kv = randn({4, 2, 8});
  mha->eval();
  const auto [with_weights, weights] = mha->forward(q, kv, kv);
  const auto [without, none] = mha->forward(q, kv, kv, {}, false);
  EXPECT_FALSE(none.defined());
  EXPECT_EQ(weights.sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_TRUE(weights.sum({-1}).allclose(ones({2, 3})));
  EXPECT_TRUE(with_weights.allclose(without, 1e-5, 1e-6));
  EXPECT_TRUE(std::get<0>(mha->forward(q, kv, kv)).equal(with_weights));  // no dropout in eval
  mha->train();
  const Tensor dropped = std::get<1>(mha->forward(q, kv, kv, {}, true, {}, false));
  EXPECT_GT((dropped == 0).sum().item<int64_t>(), 0);
}

TEST(MultiheadAttention, Errors) {
  testing::expect_error_containing(
      [] { nn::MultiheadAttention(10, 3); },
      "MultiheadAttention: embed_dim 10 must be positive and divisible by num_heads 3");
  nn::MultiheadAttention mha(4, 2);
  const Tensor q = zeros({3, 2, 4}), kv = zeros({5, 2, 4});
  testing::expect_error_containing(
      [&] {
        (void)mha->forward(zeros({3, 4, 2, 4}), kv, kv);
      },
      "query should be unbatched 2-D or batched 3-D, got 4-D");
  testing::expect_error_containing(
      [&] {
        (void)mha->forward(q, zeros({5, 2, 3}), zeros({5, 2, 3}));
      },
      "with packed projections, key [5, 2, 3] and value [5, 2, 3] must have one shape with "
      "embed_dim (4) features");
  testing::expect_error_containing(
      [&] {
        (void)mha->forward(zeros({3, 2, 6}), kv, kv);
      },
      "the query has 6 features, expected embed_dim 4");
  testing::expect_error_containing(
      [&] {
        (void)mha->forward(q, kv, kv, zeros({2, 4}, kBool));
      },
      "key_padding_mask must be [2, 5] (batch, key length), got [2, 4]");
  testing::expect_error_containing(
      [&] {
        (void)mha->forward(q, kv, kv, {}, true, zeros({5, 3}, kBool));
      },
      "attn_mask must be [3, 5], got [5, 3]");
  testing::expect_error_containing(
      [&] {
        (void)mha->forward(q, kv, kv, {}, true, zeros({3, 5}, kInt64));
      },
      "attn_mask must be bool or of the query's dtype float32, got int64");
  testing::expect_error_containing(
      [&] {
        (void)mha->forward(q, zeros({5, 3, 4}), zeros({5, 3, 4}));
      },
      "must match each other's length and the query's batch 2");
}

TEST(TransformerEncoderLayer, ParametersStackingAndDropout) {
  manual_seed(6);
  nn::TransformerEncoderLayer layer(nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16));
  std::vector<std::string> names;
  for (const auto& item : layer->named_parameters()) names.push_back(item.key());
  EXPECT_EQ(names,
            (std::vector<std::string>{
                "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
                "self_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight",
                "linear2.bias", "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias"}));
  const Tensor src = randn({5, 3, 8});
  nn::Sequential stack(layer, nn::TransformerEncoderLayer(8, 2));
  stack->eval();
  const Tensor out = stack->forward(src);
  EXPECT_EQ(out.sizes(), src.sizes());
  EXPECT_TRUE(stack->forward(src).equal(out));  // evaluation: no dropout
  stack->train();
  EXPECT_FALSE(stack->forward(src).equal(out));  // dropout 0.1 by default
  // Every position is normalized by the last LayerNorm (weight 1, bias 0 at initialization).
  EXPECT_TRUE(out.mean({-1}).abs().max().item<float>() < 1e-5f);
}

TEST(TransformerDecoder, LayersStartEqualAndNumLayersIsChecked) {
  manual_seed(0);
  nn::TransformerDecoder decoder(nn::TransformerDecoderOptions(
      nn::TransformerDecoderLayerOptions(8, 2).dim_feedforward(16), 2));
  const auto first = decoder->layers->at<nn::TransformerDecoderLayerImpl>(0)->parameters();
  const auto second = decoder->layers->at<nn::TransformerDecoderLayerImpl>(1)->parameters();
  ASSERT_EQ(first.size(), 18u);
  for (size_t p = 0; p < first.size(); ++p) {
    EXPECT_TRUE(first[p].equal(second[p])) << p;
    EXPECT_FALSE(first[p].is_same(second[p])) << p;  // copies, not shared
  }
  EXPECT_EQ(decoder->forward(randn({3, 2, 8}), randn({5, 2, 8})).sizes(), IntArrayRef({3, 2, 8}));
  testing::expect_error_containing(
      [] {
        nn::TransformerDecoder(
            nn::TransformerDecoderOptions(nn::TransformerDecoderLayerOptions(8, 2), 0));
      },
      "TransformerDecoder: num_layers must be at least 1, got 0");
}

TEST(Transformer, XavierMatricesCausalMaskAndShapeErrors) {
  manual_seed(0);
  nn::Transformer model(nn::TransformerOptions(8, 2).num_encoder_layers(2).num_decoder_layers(1));
  EXPECT_EQ(model->encoder->layers->size(), 2u);
  EXPECT_EQ(model->decoder->layers->size(), 1u);
  for (const auto& [name, p] : model->named_parameters()) {
    if (p.dim() < 2) continue;
    const double bound = std::sqrt(6.0 / static_cast<double>(p.size(0) + p.size(1)));
    EXPECT_LE(p.abs().max().item<double>(), bound) << name;
    EXPECT_GT(p.abs().max().item<double>(), 0.9 * bound) << name;
  }
  const Tensor mask = nn::TransformerImpl::generate_square_subsequent_mask(3);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(equal(mask, tensor({{0.0, -inf, -inf}, {0.0, 0.0, -inf}, {0.0, 0.0, 0.0}},
                                 TensorOptions(kFloat32))));
  model->eval();
  const Tensor src = randn({5, 2, 8}), tgt = randn({3, 2, 8});
  EXPECT_EQ(model->forward(src, tgt, {}, mask).sizes(), IntArrayRef({3, 2, 8}));
  // Under the causal mask, target position 0 does not see position 2: changing position 2
  // leaves output 0 as it was; without the mask it does not.
  const Tensor later = tgt.clone();
  later[2] = randn({2, 8});
  EXPECT_TRUE(
      equal(model->forward(src, later, {}, mask)[0], model->forward(src, tgt, {}, mask)[0]));
  EXPECT_FALSE(equal(model->forward(src, later)[0], model->forward(src, tgt)[0]));
  testing::expect_error_containing(
      [&] {
        model->forward(src, randn({3, 4, 8}));
      },
      "Transformer: the batch number of src and tgt must be equal");
  testing::expect_error_containing(
      [&] {
        model->forward(randn({5, 2, 6}), randn({3, 2, 6}));
      },
      "must be equal to d_model 8");
}

TEST(Transformer, BatchFirstIsTheSequenceFirstModelTransposed) {
  manual_seed(4);
  nn::Transformer model(nn::TransformerOptions(8, 2)
                            .num_encoder_layers(1)
                            .num_decoder_layers(1)
                            .dim_feedforward(16)
                            .norm_first(true));
  nn::Transformer batch_first(nn::TransformerOptions(8, 2)
                                  .num_encoder_layers(1)
                                  .num_decoder_layers(1)
                                  .dim_feedforward(16)
                                  .norm_first(true)
                                  .batch_first(true));
  batch_first->load_state_dict(model->state_dict());
  model->eval();
  batch_first->eval();
  const Tensor src = randn({5, 2, 8}), tgt = randn({3, 2, 8});
  const Tensor mask = nn::TransformerImpl::generate_square_subsequent_mask(3);
  EXPECT_TRUE(batch_first->forward(src.transpose(0, 1), tgt.transpose(0, 1), {}, mask)
                  .allclose(model->forward(src, tgt, {}, mask).transpose(0, 1), 1e-6, 1e-6));
  testing::expect_error_containing(
      [&] {
        batch_first->forward(randn({2, 5, 8}), randn({3, 3, 8}));
      },
      "Transformer: the batch number of src and tgt must be equal, got [2, 5, 8] and [3, 3, 8]");
}

TEST(TransformerEncoder, LayersStartEqualAndTrainApart) {
  manual_seed(8);
  nn::TransformerEncoder encoder(nn::TransformerEncoderOptions(
      nn::TransformerEncoderLayerOptions(8, 2).dim_feedforward(16), 3));
  ASSERT_EQ(encoder->layers->size(), 3u);
  const auto first = encoder->layers->at<nn::TransformerEncoderLayerImpl>(0)->parameters();
  for (size_t i = 1; i < 3; ++i) {
    const auto other = encoder->layers->at<nn::TransformerEncoderLayerImpl>(i)->parameters();
    ASSERT_EQ(other.size(), first.size());
    for (size_t p = 0; p < first.size(); ++p) {
      EXPECT_TRUE(other[p].equal(first[p])) << "layer " << i << " parameter " << p;
      EXPECT_FALSE(other[p].is_same(first[p]));  // copies, not shared
    }
  }
  EXPECT_TRUE(encoder->norm.is_empty());
  EXPECT_EQ(encoder->named_parameters().size(), 36u);
  EXPECT_TRUE(encoder->named_parameters().contains("layers.2.self_attn.in_proj_weight"));
  testing::expect_error_containing(
      [] {
        nn::TransformerEncoder(
            nn::TransformerEncoderOptions(nn::TransformerEncoderLayerOptions(8, 2), 0));
      },
      "TransformerEncoder: num_layers must be at least 1, got 0");
}

}  // namespace
}  // namespace accel
