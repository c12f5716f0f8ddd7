// nn::RNNCell, nn::LSTMCell and nn::GRUCell: the parameters of one layer and direction, and a
// step that is the input's product with weight_ihᵀ followed by recurrent_sequence over a single
// time step.
#include "accel/nn/modules/recurrent_cell.h"

#include <cmath>

#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/nn/init.h"

namespace accel::nn {

RecurrentCellImplBase::RecurrentCellImplBase(RecurrentCell cell, int64_t input_size,
                                             int64_t hidden_size, bool bias, const char* op)
    : cell_(cell), input_size_(input_size), hidden_size_(hidden_size), op_(op) {
  ACCEL_CHECK(input_size > 0 && hidden_size > 0, op,
              "input_size and hidden_size must be positive, got {} and {}", input_size,
              hidden_size);
  const int64_t rows = gates_of(cell) * hidden_size;
  weight_ih = register_parameter("weight_ih", empty({rows, input_size}));
  weight_hh = register_parameter("weight_hh", empty({rows, hidden_size}));
  if (bias) {
    bias_ih = register_parameter("bias_ih", empty({rows}));
    bias_hh = register_parameter("bias_hh", empty({rows}));
  }
  reset_parameters();
}

void RecurrentCellImplBase::reset_parameters() {
  const double bound = 1.0 / std::sqrt(static_cast<double>(hidden_size_));
  for (Tensor& p : parameters()) init::uniform_(p, -bound, bound);
}

std::string RecurrentCellImplBase::extra_repr() const {
  std::string text = fmt::format("{}, {}", input_size_, hidden_size_);
  if (!bias_ih.defined()) text += ", bias=false";
  if (cell_ == RecurrentCell::ReLU) text += ", nonlinearity=relu";
  return text;
}

std::tuple<Tensor, Tensor> RecurrentCellImplBase::step(const Tensor& input, const Tensor& h,
                                                       const Tensor& c) const {
  ACCEL_CHECK(input.defined() && (input.dim() == 1 || input.dim() == 2), op_,
              "expected a 1-D (unbatched) or 2-D input, got {}",
              input.defined() ? input.sizes() : IntArrayRef());
  ACCEL_CHECK(input.dtype() == weight_ih.dtype() && input.device() == weight_ih.device(), op_,
              "expected an input of the parameters' dtype {} on {}, got {} on {}",
              weight_ih.dtype(), weight_ih.device(), input.dtype(), input.device());
  ACCEL_CHECK(input.size(-1) == input_size_, op_,
              "input has inconsistent input_size: got {} expected {}", input.size(-1), input_size_);
  const bool batched = input.dim() == 2;
  const Tensor x = batched ? input : input.unsqueeze(0);
  const int64_t batch = x.size(0);
  auto state = [&](const Tensor& given, const char* name) {
    if (!given.defined()) return zeros({batch, hidden_size_}, x.options());
    const DimVector expected = batched ? DimVector{batch, hidden_size_} : DimVector{hidden_size_};
    ACCEL_CHECK(given.sizes() == IntArrayRef(expected) && given.dtype() == x.dtype(), op_,
                "expected {} of shape {} and dtype {}, got {} and {}", name, expected, x.dtype(),
                given.sizes(), given.dtype());
    return batched ? given : given.unsqueeze(0);
  };
  const bool lstm = cell_ == RecurrentCell::LSTM;
  const RecurrentSequence run =
      recurrent_sequence(cell_, matmul(x, weight_ih.t()).unsqueeze(0), state(h, "hx"),
                         lstm ? state(c, "cx") : Tensor(), weight_hh, bias_ih, bias_hh,
                         /*weight_hr=*/Tensor(), /*reverse=*/false);
  auto unbatched = [batched](const Tensor& t) {
    return batched || !t.defined() ? t : t.squeeze(0);
  };
  return {unbatched(run.h), unbatched(run.c)};
}

RNNCellImpl::RNNCellImpl(const RNNCellOptions& options_)
    : RecurrentCellImplBase(options_.nonlinearity_ == RNNNonlinearity::Tanh ? RecurrentCell::Tanh
                                                                            : RecurrentCell::ReLU,
                            options_.input_size_, options_.hidden_size_, options_.bias_, "RNNCell"),
      options(options_) {}

Tensor RNNCellImpl::forward(const Tensor& input, const Tensor& hx) {
  return std::get<0>(step(input, hx, {}));
}

LSTMCellImpl::LSTMCellImpl(const LSTMCellOptions& options_)
    : RecurrentCellImplBase(RecurrentCell::LSTM, options_.input_size_, options_.hidden_size_,
                            options_.bias_, "LSTMCell"),
      options(options_) {}

std::tuple<Tensor, Tensor> LSTMCellImpl::forward(
    const Tensor& input, const std::optional<std::tuple<Tensor, Tensor>>& hx) {
  return hx ? step(input, std::get<0>(*hx), std::get<1>(*hx)) : step(input, {}, {});
}

GRUCellImpl::GRUCellImpl(const GRUCellOptions& options_)
    : RecurrentCellImplBase(RecurrentCell::GRU, options_.input_size_, options_.hidden_size_,
                            options_.bias_, "GRUCell"),
      options(options_) {}

Tensor GRUCellImpl::forward(const Tensor& input, const Tensor& hx) {
  return std::get<0>(step(input, hx, {}));
}

}  // namespace accel::nn
