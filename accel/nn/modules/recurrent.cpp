// Recurrent layers layer by layer: each layer multiplies its whole input by weight_ihᵀ in one
// product, then runs its cell over the steps of each direction (backwards for the reverse one)
// with recurrent_sequence, one autograd node per layer and direction, which adds the biases.
// Between layers, dropout in training.
#include "accel/nn/modules/recurrent.h"

#include <cmath>
#include <utility>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/activations.h"
#include "accel/nn/init.h"

namespace accel::nn {

RecurrentImplBase::RecurrentImplBase(RecurrentCell cell, const Layout& layout, const char* op)
    : cell_(cell), layout_(layout), op_(op) {
  ACCEL_CHECK(layout.input_size > 0 && layout.hidden_size > 0 && layout.num_layers > 0, op,
              "input_size, hidden_size and num_layers must be positive, got {}, {} and {}",
              layout.input_size, layout.hidden_size, layout.num_layers);
  ACCEL_CHECK(layout.dropout >= 0 && layout.dropout <= 1, op, "dropout must be in [0, 1], got {}",
              layout.dropout);
  const int64_t directions = layout.bidirectional ? 2 : 1;
  const int64_t rows = gates_of(cell) * layout.hidden_size;
  for (int64_t layer = 0; layer < layout.num_layers; ++layer) {
    const int64_t in = layer == 0 ? layout.input_size : layout.hidden_size * directions;
    for (int64_t direction = 0; direction < directions; ++direction) {
      const std::string suffix = "_l" + std::to_string(layer) + (direction == 1 ? "_reverse" : "");
      LayerWeights w;
      w.weight_ih = register_parameter("weight_ih" + suffix, empty({rows, in}));
      w.weight_hh = register_parameter("weight_hh" + suffix, empty({rows, layout.hidden_size}));
      if (layout.bias) {
        w.bias_ih = register_parameter("bias_ih" + suffix, empty({rows}));
        w.bias_hh = register_parameter("bias_hh" + suffix, empty({rows}));
      }
      all_weights.push_back(w);
    }
  }
  reset_parameters();
}

void RecurrentImplBase::reset_parameters() {
  const double bound = 1.0 / std::sqrt(static_cast<double>(layout_.hidden_size));
  for (Tensor& p : parameters()) init::uniform_(p, -bound, bound);
}

std::string RecurrentImplBase::extra_repr() const {
  std::string text = fmt::format("{}, {}", layout_.input_size, layout_.hidden_size);
  if (layout_.num_layers != 1) text += fmt::format(", num_layers={}", layout_.num_layers);
  if (!layout_.bias) text += ", bias=false";
  if (layout_.batch_first) text += ", batch_first=true";
  if (layout_.dropout != 0) text += fmt::format(", dropout={}", layout_.dropout);
  if (layout_.bidirectional) text += ", bidirectional=true";
  return text;
}

std::tuple<Tensor, Tensor, Tensor> RecurrentImplBase::run(const Tensor& input, const Tensor& h0,
                                                          const Tensor& c0) const {
  ACCEL_CHECK(input.defined() && (input.dim() == 2 || input.dim() == 3), op_,
              "expected a 2-D (unbatched) or 3-D input, got {}",
              input.defined() ? input.sizes() : IntArrayRef());
  ACCEL_CHECK(input.is_floating_point(), op_, "expected a floating point input, got {}",
              input.dtype());
  const Tensor& weight = all_weights[0].weight_ih;
  ACCEL_CHECK(input.dtype() == weight.dtype() && input.device() == weight.device(), op_,
              "expected an input of the parameters' dtype {} on {}, got {} on {}", weight.dtype(),
              weight.device(), input.dtype(), input.device());
  ACCEL_CHECK(input.size(-1) == layout_.input_size, op_,
              "input.size(-1) must be equal to input_size: expected {}, got {} (input {})",
              layout_.input_size, input.size(-1), input.sizes());
  const bool batched = input.dim() == 3;
  // Time first: [T, N, input_size].
  const Tensor x = !batched              ? input.unsqueeze(1)
                   : layout_.batch_first ? input.transpose(0, 1)
                                         : input;
  const int64_t steps = x.size(0), batch = x.size(1), hidden = layout_.hidden_size;
  ACCEL_CHECK(steps > 0, op_, "expected a sequence of at least one step, got input {}",
              input.sizes());
  const int64_t directions = layout_.bidirectional ? 2 : 1;
  const int64_t states = layout_.num_layers * directions;
  auto initial = [&](const Tensor& given, const char* name) {
    if (!given.defined()) return zeros({states, batch, hidden}, x.options());
    const DimVector expected =
        batched ? DimVector{states, batch, hidden} : DimVector{states, hidden};
    ACCEL_CHECK(given.sizes() == IntArrayRef(expected) && given.dtype() == x.dtype(), op_,
                "expected {} of shape {} and dtype {}, got {} and {}", name, expected, x.dtype(),
                given.sizes(), given.dtype());
    return batched ? given : given.unsqueeze(1);
  };
  const bool lstm = cell_ == RecurrentCell::LSTM;
  const Tensor h_initial = initial(h0, "hx"), c_initial = lstm ? initial(c0, "cx") : Tensor();

  // Each layer projects its whole input [T, N, features] in one product; recurrent_sequence
  // then runs the steps of each direction as one autograd node.
  Tensor layer_input = x;
  std::vector<Tensor> h_final, c_final;
  for (int64_t layer = 0; layer < layout_.num_layers; ++layer) {
    std::vector<Tensor> outputs;
    for (int64_t direction = 0; direction < directions; ++direction) {
      const int64_t k = layer * directions + direction;
      const LayerWeights& w = all_weights[static_cast<size_t>(k)];
      RecurrentSequence run = recurrent_sequence(cell_, matmul(layer_input, w.weight_ih.t()),
                                                 h_initial[k], lstm ? c_initial[k] : Tensor(),
                                                 w.weight_hh, w.bias_ih, w.bias_hh, direction == 1);
      outputs.push_back(std::move(run.output));
      h_final.push_back(std::move(run.h));
      if (lstm) c_final.push_back(std::move(run.c));
    }
    const Tensor out = directions == 1 ? outputs[0] : cat(outputs, 2);
    const bool drop = layout_.dropout > 0 && is_training() && layer + 1 < layout_.num_layers;
    layer_input = drop ? functional::dropout(out, layout_.dropout, true) : out;
  }
  const Tensor output = !batched              ? layer_input.squeeze(1)
                        : layout_.batch_first ? layer_input.transpose(0, 1)
                                              : layer_input;
  auto final_state = [&](const std::vector<Tensor>& parts) {
    if (parts.empty()) return Tensor();
    const Tensor state = stack(parts);
    return batched ? state : state.squeeze(1);
  };
  return {output, final_state(h_final), final_state(c_final)};
}

RNNImpl::RNNImpl(const RNNOptions& options_)
    : RecurrentImplBase(options_.nonlinearity_ == RNNNonlinearity::Tanh ? RecurrentCell::Tanh
                                                                        : RecurrentCell::ReLU,
                        options_, "RNN"),
      options(options_) {}

std::tuple<Tensor, Tensor> RNNImpl::forward(const Tensor& input, const Tensor& hx) {
  auto [output, h, c] = run(input, hx, {});
  return {output, h};
}

LSTMImpl::LSTMImpl(const LSTMOptions& options_)
    : RecurrentImplBase(RecurrentCell::LSTM, options_, "LSTM"), options(options_) {}

std::tuple<Tensor, std::tuple<Tensor, Tensor>> LSTMImpl::forward(
    const Tensor& input, const std::optional<std::tuple<Tensor, Tensor>>& hx) {
  auto [output, h, c] = hx ? run(input, std::get<0>(*hx), std::get<1>(*hx)) : run(input, {}, {});
  return {output, {h, c}};
}

GRUImpl::GRUImpl(const GRUOptions& options_)
    : RecurrentImplBase(RecurrentCell::GRU, options_, "GRU"), options(options_) {}

std::tuple<Tensor, Tensor> GRUImpl::forward(const Tensor& input, const Tensor& hx) {
  auto [output, h, c] = run(input, hx, {});
  return {output, h};
}

}  // namespace accel::nn
