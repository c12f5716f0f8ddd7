// Recurrent layers layer by layer: each layer multiplies its whole input by weight_ihᵀ in one
// product, then runs its cell over the steps of each direction (backwards for the reverse one)
// with recurrent_sequence, one autograd node per layer and direction, which adds the biases.
// Between layers, dropout in training.
#include "accel/nn/modules/recurrent.h"

#include <cmath>
#include <utility>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/functional/dropout.h"
#include "accel/nn/init.h"

namespace accel::nn {

RecurrentImplBase::RecurrentImplBase(RecurrentCell cell, const Layout& layout, const char* op)
    : cell_(cell), layout_(layout), op_(op) {
  ACCEL_CHECK(layout.input_size > 0 && layout.hidden_size > 0 && layout.num_layers > 0, op,
              "input_size, hidden_size and num_layers must be positive, got {}, {} and {}",
              layout.input_size, layout.hidden_size, layout.num_layers);
  ACCEL_CHECK(layout.dropout >= 0 && layout.dropout <= 1, op, "dropout must be in [0, 1], got {}",
              layout.dropout);
  ACCEL_CHECK(layout.proj_size >= 0, op,
              "proj_size must be positive, or zero for no projections, got {}", layout.proj_size);
  ACCEL_CHECK(layout.proj_size < layout.hidden_size, op,
              "proj_size ({}) must be smaller than hidden_size ({})", layout.proj_size,
              layout.hidden_size);
  const int64_t directions = layout.bidirectional ? 2 : 1;
  const int64_t rows = gates_of(cell) * layout.hidden_size;
  const int64_t state = layout.state_size();
  for (int64_t layer = 0; layer < layout.num_layers; ++layer) {
    const int64_t in = layer == 0 ? layout.input_size : state * directions;
    for (int64_t direction = 0; direction < directions; ++direction) {
      const std::string suffix = "_l" + std::to_string(layer) + (direction == 1 ? "_reverse" : "");
      LayerWeights w;
      w.weight_ih = register_parameter("weight_ih" + suffix, empty({rows, in}));
      w.weight_hh = register_parameter("weight_hh" + suffix, empty({rows, state}));
      if (layout.bias) {
        w.bias_ih = register_parameter("bias_ih" + suffix, empty({rows}));
        w.bias_hh = register_parameter("bias_hh" + suffix, empty({rows}));
      }
      if (layout.proj_size > 0) {
        w.weight_hr =
            register_parameter("weight_hr" + suffix, empty({layout.proj_size, layout.hidden_size}));
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
  if (layout_.proj_size != 0) text += fmt::format(", proj_size={}", layout_.proj_size);
  return text;
}

void RecurrentImplBase::check_input(const Tensor& input) const {
  ACCEL_CHECK(input.is_floating_point(), op_, "expected a floating point input, got {}",
              input.dtype());
  const Tensor& weight = all_weights[0].weight_ih;
  ACCEL_CHECK(input.dtype() == weight.dtype() && input.device() == weight.device(), op_,
              "expected an input of the parameters' dtype {} on {}, got {} on {}", weight.dtype(),
              weight.device(), input.dtype(), input.device());
  ACCEL_CHECK(input.size(-1) == layout_.input_size, op_,
              "input.size(-1) must be equal to input_size: expected {}, got {} (input {})",
              layout_.input_size, input.size(-1), input.sizes());
}

Tensor RecurrentImplBase::initial_state(const Tensor& given, const char* name, int64_t size,
                                        int64_t batch, bool batched,
                                        const TensorOptions& options) const {
  const int64_t states = layout_.num_layers * (layout_.bidirectional ? 2 : 1);
  if (!given.defined()) return zeros({states, batch, size}, options);
  const DimVector expected = batched ? DimVector{states, batch, size} : DimVector{states, size};
  ACCEL_CHECK(given.sizes() == IntArrayRef(expected) && given.dtype() == options.dtype(), op_,
              "expected {} of shape {} and dtype {}, got {} and {}", name, expected,
              options.dtype(), given.sizes(), given.dtype());
  return batched ? given : given.unsqueeze(1);
}

std::tuple<Tensor, Tensor, Tensor> RecurrentImplBase::run(const Tensor& input, const Tensor& h0,
                                                          const Tensor& c0) const {
  ACCEL_CHECK(input.defined() && (input.dim() == 2 || input.dim() == 3), op_,
              "expected a 2-D (unbatched) or 3-D input, got {}",
              input.defined() ? input.sizes() : IntArrayRef());
  const bool batched = input.dim() == 3;
  // Time first: [T, N, input_size].
  const Tensor x = !batched              ? input.unsqueeze(1)
                   : layout_.batch_first ? input.transpose(0, 1)
                                         : input;
  check_input(x);
  ACCEL_CHECK(x.size(0) > 0, op_, "expected a sequence of at least one step, got input {}",
              input.sizes());
  const bool lstm = cell_ == RecurrentCell::LSTM;
  const int64_t batch = x.size(1);
  auto [output, h, c] = run_layers(
      x, initial_state(h0, "hx", layout_.state_size(), batch, batched, x.options()),
      lstm ? initial_state(c0, "cx", layout_.hidden_size, batch, batched, x.options()) : Tensor(),
      {});
  auto unbatched = [batched](const Tensor& t) {
    return batched || !t.defined() ? t : t.squeeze(1);
  };
  return {!batched              ? output.squeeze(1)
          : layout_.batch_first ? output.transpose(0, 1)
                                : output,
          unbatched(h), unbatched(c)};
}

std::tuple<PackedSequence, Tensor, Tensor> RecurrentImplBase::run_packed(
    const PackedSequence& input, const Tensor& h0, const Tensor& c0) const {
  const Tensor& data = input.data();
  ACCEL_CHECK(data.defined() && data.dim() == 2, op_,
              "expected packed data of shape [total steps, input_size], got {}",
              data.defined() ? data.sizes() : IntArrayRef());
  check_input(data);
  // Padded and time first, the sequences in the packed (sorted) order; initial states given in
  // the original order are sorted the same way, final states put back in it.
  const Tensor x =
      std::get<0>(utils::rnn::pad_packed_sequence(PackedSequence(data, input.batch_sizes())));
  const Tensor batch_sizes = input.batch_sizes().contiguous();
  const IntArrayRef sizes(batch_sizes.data_ptr<int64_t>(), static_cast<size_t>(x.size(0)));
  auto sorted = [&](const Tensor& state, const Tensor& indices) {
    return state.defined() && indices.defined() ? state.index_select(1, indices) : state;
  };
  const bool lstm = cell_ == RecurrentCell::LSTM;
  const int64_t batch = x.size(1);
  auto [output, h, c] = run_layers(
      x,
      sorted(initial_state(h0, "hx", layout_.state_size(), batch, true, x.options()),
             input.sorted_indices()),
      lstm ? sorted(initial_state(c0, "cx", layout_.hidden_size, batch, true, x.options()),
                    input.sorted_indices())
           : Tensor(),
      sizes);
  std::vector<Tensor> rows;
  for (int64_t t = 0; t < x.size(0); ++t) rows.push_back(output[t].narrow(0, 0, sizes[t]));
  return {PackedSequence(cat(rows), input.batch_sizes(), input.sorted_indices(),
                         input.unsorted_indices()),
          sorted(h, input.unsorted_indices()), sorted(c, input.unsorted_indices())};
}

std::tuple<Tensor, Tensor, Tensor> RecurrentImplBase::run_layers(const Tensor& x,
                                                                 const Tensor& h_initial,
                                                                 const Tensor& c_initial,
                                                                 IntArrayRef batch_sizes) const {
  const int64_t directions = layout_.bidirectional ? 2 : 1;
  const bool lstm = cell_ == RecurrentCell::LSTM;
  // Each layer projects its whole input [T, N, features] in one product; recurrent_sequence
  // then runs the steps of each direction as one autograd node.
  Tensor layer_input = x;
  std::vector<Tensor> h_final, c_final;
  for (int64_t layer = 0; layer < layout_.num_layers; ++layer) {
    std::vector<Tensor> outputs;
    for (int64_t direction = 0; direction < directions; ++direction) {
      const int64_t k = layer * directions + direction;
      const LayerWeights& w = all_weights[static_cast<size_t>(k)];
      RecurrentSequence run = recurrent_sequence(
          cell_, matmul(layer_input, w.weight_ih.t()), h_initial[k], lstm ? c_initial[k] : Tensor(),
          w.weight_hh, w.bias_ih, w.bias_hh, w.weight_hr, direction == 1, batch_sizes);
      outputs.push_back(std::move(run.output));
      h_final.push_back(std::move(run.h));
      if (lstm) c_final.push_back(std::move(run.c));
    }
    const Tensor out = directions == 1 ? outputs[0] : cat(outputs, 2);
    const bool drop = layout_.dropout > 0 && is_training() && layer + 1 < layout_.num_layers;
    layer_input = drop ? functional::dropout(out, layout_.dropout, true) : out;
  }
  return {layer_input, stack(h_final), lstm ? stack(c_final) : Tensor()};
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

std::tuple<PackedSequence, Tensor> RNNImpl::forward_with_packed_input(
    const PackedSequence& packed_input, const Tensor& hx) {
  auto [output, h, c] = run_packed(packed_input, hx, {});
  return {output, h};
}

LSTMImpl::LSTMImpl(const LSTMOptions& options_)
    : RecurrentImplBase(RecurrentCell::LSTM, options_, "LSTM"), options(options_) {}

std::tuple<Tensor, std::tuple<Tensor, Tensor>> LSTMImpl::forward(
    const Tensor& input, const std::optional<std::tuple<Tensor, Tensor>>& hx) {
  auto [output, h, c] = hx ? run(input, std::get<0>(*hx), std::get<1>(*hx)) : run(input, {}, {});
  return {output, {h, c}};
}

std::tuple<PackedSequence, std::tuple<Tensor, Tensor>> LSTMImpl::forward_with_packed_input(
    const PackedSequence& packed_input, const std::optional<std::tuple<Tensor, Tensor>>& hx) {
  auto [output, h, c] = hx ? run_packed(packed_input, std::get<0>(*hx), std::get<1>(*hx))
                           : run_packed(packed_input, {}, {});
  return {output, {h, c}};
}

GRUImpl::GRUImpl(const GRUOptions& options_)
    : RecurrentImplBase(RecurrentCell::GRU, options_, "GRU"), options(options_) {}

std::tuple<Tensor, Tensor> GRUImpl::forward(const Tensor& input, const Tensor& hx) {
  auto [output, h, c] = run(input, hx, {});
  return {output, h};
}

std::tuple<PackedSequence, Tensor> GRUImpl::forward_with_packed_input(
    const PackedSequence& packed_input, const Tensor& hx) {
  auto [output, h, c] = run_packed(packed_input, hx, {});
  return {output, h};
}

}  // namespace accel::nn
