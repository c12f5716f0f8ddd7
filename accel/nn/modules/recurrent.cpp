// Recurrent layers step by step: each layer and direction runs its cell over the steps
// (backwards for the reverse direction) on weight_ih's product of the step's input plus
// weight_hh's product of the previous hidden state. The cells are PyTorch's:
//   RNN   h' = tanh or relu(x_proj + h_proj)
//   LSTM  i, f, g, o = sigmoid, sigmoid, tanh, sigmoid of (x_proj + h_proj) in four chunks;
//         c' = f c + i g, h' = o tanh(c')
//   GRU   r, z = sigmoid of the first two chunks of x_proj + h_proj,
//         n = tanh(x_proj_n + r h_proj_n), h' = (1 - z) n + z h
// Everything is built from ops, so gradients (through time) and CUDA come with them.
#include "accel/nn/modules/recurrent.h"

#include <cmath>
#include <utility>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/activations.h"
#include "accel/nn/init.h"

namespace accel::nn {

namespace {

int64_t gates_of(RecurrentCell cell) {
  switch (cell) {
    case RecurrentCell::LSTM:
      return 4;
    case RecurrentCell::GRU:
      return 3;
    case RecurrentCell::Tanh:
    case RecurrentCell::ReLU:
      break;
  }
  return 1;
}

}  // namespace

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

  // One step of the cell: (h', c') from the step's input projection and the previous state.
  auto step = [&](const Tensor& x_proj, const Tensor& h, const Tensor& c, const LayerWeights& w) {
    const Tensor h_proj = functional::linear(h, w.weight_hh, w.bias_hh);
    switch (cell_) {
      case RecurrentCell::Tanh:
        return std::pair{tanh(x_proj + h_proj), Tensor()};
      case RecurrentCell::ReLU:
        return std::pair{relu(x_proj + h_proj), Tensor()};
      case RecurrentCell::LSTM: {
        const std::vector<Tensor> g = (x_proj + h_proj).chunk(4, 1);
        const Tensor next_c = sigmoid(g[1]) * c + sigmoid(g[0]) * tanh(g[2]);
        return std::pair{sigmoid(g[3]) * tanh(next_c), next_c};
      }
      case RecurrentCell::GRU: {
        const std::vector<Tensor> xi = x_proj.chunk(3, 1), hh = h_proj.chunk(3, 1);
        const Tensor r = sigmoid(xi[0] + hh[0]);
        const Tensor z = sigmoid(xi[1] + hh[1]);
        const Tensor n = tanh(xi[2] + r * hh[2]);
        return std::pair{(1 - z) * n + z * h, Tensor()};
      }
    }
    return std::pair{Tensor(), Tensor()};
  };

  // Each layer projects its whole input [T, N, features] in one product; unbind then hands
  // each step its [N, gates] row as a view, one node for all steps, whose gradient is the
  // steps' gradients stacked (one pass, not a full-size tensor per step).
  Tensor layer_input = x;
  std::vector<Tensor> h_final, c_final;
  for (int64_t layer = 0; layer < layout_.num_layers; ++layer) {
    std::vector<std::vector<Tensor>> states(static_cast<size_t>(directions),
                                            std::vector<Tensor>(static_cast<size_t>(steps)));
    for (int64_t direction = 0; direction < directions; ++direction) {
      const int64_t k = layer * directions + direction;
      const LayerWeights& w = all_weights[static_cast<size_t>(k)];
      const std::vector<Tensor> x_proj =
          functional::linear(layer_input, w.weight_ih, w.bias_ih).unbind(0);
      Tensor h = h_initial[k], c = lstm ? c_initial[k] : Tensor();
      for (int64_t s = 0; s < steps; ++s) {
        const auto t = static_cast<size_t>(direction == 0 ? s : steps - 1 - s);
        std::tie(h, c) = step(x_proj[t], h, c, w);
        states[static_cast<size_t>(direction)][t] = h;
      }
      h_final.push_back(h);
      if (lstm) c_final.push_back(c);
    }
    const Tensor out =
        directions == 1 ? stack(states[0]) : cat({stack(states[0]), stack(states[1])}, 2);
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
