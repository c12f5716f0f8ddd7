// One step of a recurrent layer as a module, as LibTorch's: nn::RNNCell (tanh or ReLU),
// nn::LSTMCell and nn::GRUCell, with PyTorch's parameter names (weight_ih, weight_hh, bias_ih,
// bias_hh) and initialization (uniform in +-1/sqrt(hidden_size)). Inputs are [N, input_size]
// or, unbatched, [input_size]; states [N, hidden_size] or [hidden_size], zeros when not given.
// A step is recurrent_sequence over one time step, so the cells share the layers' kernels.
#pragma once

#include <optional>
#include <string>
#include <tuple>

#include "accel/nn/module.h"
#include "accel/nn/modules/recurrent.h"

namespace accel::nn {

// The options the three cells share; Derived is the cell's own options type, so chained
// setters keep it.
template <typename Derived>
struct RecurrentCellOptionsBase {
  RecurrentCellOptionsBase(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
  Derived& bias(bool value) {
    bias_ = value;
    return static_cast<Derived&>(*this);
  }
  int64_t input_size_, hidden_size_;
  bool bias_ = true;
};

struct RNNCellOptions : RecurrentCellOptionsBase<RNNCellOptions> {
  using RecurrentCellOptionsBase::RecurrentCellOptionsBase;
  RNNCellOptions& nonlinearity(RNNNonlinearity value) {
    nonlinearity_ = value;
    return *this;
  }
  RNNNonlinearity nonlinearity_ = RNNNonlinearity::Tanh;
};
struct LSTMCellOptions : RecurrentCellOptionsBase<LSTMCellOptions> {
  using RecurrentCellOptionsBase::RecurrentCellOptionsBase;
};
struct GRUCellOptions : RecurrentCellOptionsBase<GRUCellOptions> {
  using RecurrentCellOptionsBase::RecurrentCellOptionsBase;
};

// What the three cells share: the parameters and the step.
class RecurrentCellImplBase : public Module {
 public:
  // Redraws every parameter uniformly in +-1/sqrt(hidden_size).
  void reset_parameters();
  std::string extra_repr() const override;

  Tensor weight_ih, weight_hh, bias_ih, bias_hh;  // the biases undefined without bias

 protected:
  RecurrentCellImplBase(RecurrentCell cell, int64_t input_size, int64_t hidden_size, bool bias,
                        const char* op);
  // The state after one step from `input`; h and (LSTM) c may be undefined (zeros).
  std::tuple<Tensor, Tensor> step(const Tensor& input, const Tensor& h, const Tensor& c) const;

  RecurrentCell cell_;
  int64_t input_size_, hidden_size_;
  const char* op_;
};

// A cell's forward takes its state beside its input (LibTorch's signatures), so it hides the
// one-argument Module::forward on purpose, as the recurrent layers do.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverloaded-virtual"

class RNNCellImpl : public RecurrentCellImplBase {
 public:
  RNNCellImpl(int64_t input_size, int64_t hidden_size)
      : RNNCellImpl(RNNCellOptions(input_size, hidden_size)) {}
  explicit RNNCellImpl(const RNNCellOptions& options);
  // -> h'.
  Tensor forward(const Tensor& input, const Tensor& hx = {});
  RNNCellOptions options;
};
ACCEL_MODULE(RNNCell);

class LSTMCellImpl : public RecurrentCellImplBase {
 public:
  LSTMCellImpl(int64_t input_size, int64_t hidden_size)
      : LSTMCellImpl(LSTMCellOptions(input_size, hidden_size)) {}
  explicit LSTMCellImpl(const LSTMCellOptions& options);
  // hx = (h, c) -> (h', c').
  std::tuple<Tensor, Tensor> forward(
      const Tensor& input, const std::optional<std::tuple<Tensor, Tensor>>& hx = std::nullopt);
  LSTMCellOptions options;
};
ACCEL_MODULE(LSTMCell);

class GRUCellImpl : public RecurrentCellImplBase {
 public:
  GRUCellImpl(int64_t input_size, int64_t hidden_size)
      : GRUCellImpl(GRUCellOptions(input_size, hidden_size)) {}
  explicit GRUCellImpl(const GRUCellOptions& options);
  // -> h'.
  Tensor forward(const Tensor& input, const Tensor& hx = {});
  GRUCellOptions options;
};
ACCEL_MODULE(GRUCell);

#pragma GCC diagnostic pop

}  // namespace accel::nn
