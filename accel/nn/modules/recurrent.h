// Recurrent layers, as LibTorch's: nn::RNN (tanh or ReLU), nn::LSTM and nn::GRU, with stacked
// layers, bidirectional runs, batch-first inputs, dropout between layers and PyTorch's
// parameter names (weight_ih_l0, weight_hh_l0_reverse, ...) and initialization (uniform in
// +-1/sqrt(hidden_size)). Inputs are [T, N, input_size] ([N, T, input_size] batch first, or
// [T, input_size] unbatched); hidden states are [num_layers * directions, N, hidden_size], or
// proj_size for an LSTM with projections (its cell states stay hidden_size).
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "accel/nn/module.h"
#include "accel/nn/modules/recurrent_sequence.h"
#include "accel/nn/utils/rnn.h"

namespace accel::nn {

using utils::rnn::PackedSequence;

// The options the three layers share; Derived is the layer's own options type, so chained
// setters keep it.
template <typename Derived>
struct RecurrentOptionsBase {
  RecurrentOptionsBase(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
#define ACCEL_RECURRENT_OPTION(T, name)  \
  Derived& name(T value) {               \
    name##_ = value;                     \
    return static_cast<Derived&>(*this); \
  }                                      \
  T name##_
  ACCEL_RECURRENT_OPTION(int64_t, input_size);
  ACCEL_RECURRENT_OPTION(int64_t, hidden_size);
  ACCEL_RECURRENT_OPTION(int64_t, num_layers) = 1;
  ACCEL_RECURRENT_OPTION(bool, bias) = true;
  ACCEL_RECURRENT_OPTION(bool, batch_first) = false;
  ACCEL_RECURRENT_OPTION(double,
                         dropout) = 0.0;  // on each layer's output but the last, in training
  ACCEL_RECURRENT_OPTION(bool, bidirectional) = false;
#undef ACCEL_RECURRENT_OPTION
};

enum class RNNNonlinearity { Tanh, ReLU };

struct RNNOptions : RecurrentOptionsBase<RNNOptions> {
  using RecurrentOptionsBase::RecurrentOptionsBase;
  RNNOptions& nonlinearity(RNNNonlinearity value) {
    nonlinearity_ = value;
    return *this;
  }
  RNNNonlinearity nonlinearity_ = RNNNonlinearity::Tanh;
};
struct LSTMOptions : RecurrentOptionsBase<LSTMOptions> {
  using RecurrentOptionsBase::RecurrentOptionsBase;
  // > 0: each layer's hidden state is (o * tanh(c)) times weight_hrᵀ [proj_size, hidden_size],
  // of proj_size < hidden_size (PyTorch's LSTM with projections).
  LSTMOptions& proj_size(int64_t value) {
    proj_size_ = value;
    return *this;
  }
  int64_t proj_size_ = 0;
};
struct GRUOptions : RecurrentOptionsBase<GRUOptions> {
  using RecurrentOptionsBase::RecurrentOptionsBase;
};

// What RNN, LSTM and GRU share: the parameters and the run over layers, directions and steps.
class RecurrentImplBase : public Module {
 public:
  // Weights per layer and direction, in registration order (weight_ih, weight_hh, bias_ih,
  // bias_hh, weight_hr; the biases undefined without bias, weight_hr without projections).
  struct LayerWeights {
    Tensor weight_ih, weight_hh, bias_ih, bias_hh, weight_hr;
  };
  // Redraws every parameter uniformly in +-1/sqrt(hidden_size).
  void reset_parameters();
  std::string extra_repr() const override;

  std::vector<LayerWeights> all_weights;  // index layer * directions + direction

 protected:
  // What the run needs of a layer's options.
  struct Layout {
    int64_t input_size, hidden_size, num_layers;
    bool bias, batch_first;
    double dropout;
    bool bidirectional;
    int64_t proj_size;  // LSTM's; 0 for none
    // The size of the hidden state each layer passes on: proj_size, or hidden_size.
    int64_t state_size() const { return proj_size > 0 ? proj_size : hidden_size; }
  };
  template <typename Derived>
  RecurrentImplBase(RecurrentCell cell, const RecurrentOptionsBase<Derived>& o, const char* op)
      : RecurrentImplBase(cell,
                          Layout{o.input_size_, o.hidden_size_, o.num_layers_, o.bias_,
                                 o.batch_first_, o.dropout_, o.bidirectional_, proj_size_of(o)},
                          op) {}
  template <typename Derived>
  static int64_t proj_size_of(const RecurrentOptionsBase<Derived>& o) {
    if constexpr (std::is_same_v<Derived, LSTMOptions>) {
      return static_cast<const LSTMOptions&>(o).proj_size_;
    } else {
      return 0;
    }
  }
  RecurrentImplBase(RecurrentCell cell, const Layout& layout, const char* op);
  // The output sequence and the final hidden (and, for LSTM, cell) states. h0 and c0 may be
  // undefined (zeros).
  std::tuple<Tensor, Tensor, Tensor> run(const Tensor& input, const Tensor& h0,
                                         const Tensor& c0) const;
  // The same for sequences of several lengths; h0 and c0 in the batch's original order.
  std::tuple<PackedSequence, Tensor, Tensor> run_packed(const PackedSequence& input,
                                                        const Tensor& h0, const Tensor& c0) const;

  // Checks an input's dtype, device and features (its last dim).
  void check_input(const Tensor& input) const;
  // `given` ([layers * directions, N, size], or without N unbatched) checked, batched; zeros
  // when undefined.
  Tensor initial_state(const Tensor& given, const char* name, int64_t size, int64_t batch,
                       bool batched, const TensorOptions& options) const;
  // Every layer over x [T, N, F] (time first): the last layer's output [T, N, directions * H]
  // and the final states [layers * directions, N, H]; batch_sizes as recurrent_sequence's.
  std::tuple<Tensor, Tensor, Tensor> run_layers(const Tensor& x, const Tensor& h_initial,
                                                const Tensor& c_initial,
                                                IntArrayRef batch_sizes) const;

  RecurrentCell cell_;
  Layout layout_;
  const char* op_;
};

// A recurrent layer's forward returns its final states with its output (LibTorch's
// signatures), so it hides the one-argument Module::forward on purpose: a one-argument call
// means this forward, and these layers do not go into a Sequential.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverloaded-virtual"

class RNNImpl : public RecurrentImplBase {
 public:
  RNNImpl(int64_t input_size, int64_t hidden_size) : RNNImpl(RNNOptions(input_size, hidden_size)) {}
  explicit RNNImpl(const RNNOptions& options);
  // -> (output [T, N, directions * hidden_size], h_n).
  std::tuple<Tensor, Tensor> forward(const Tensor& input, const Tensor& hx = {});
  // The same over sequences of several lengths: the output packed as the input is.
  std::tuple<PackedSequence, Tensor> forward_with_packed_input(const PackedSequence& packed_input,
                                                               const Tensor& hx = {});
  RNNOptions options;
};
ACCEL_MODULE(RNN);

class LSTMImpl : public RecurrentImplBase {
 public:
  LSTMImpl(int64_t input_size, int64_t hidden_size)
      : LSTMImpl(LSTMOptions(input_size, hidden_size)) {}
  explicit LSTMImpl(const LSTMOptions& options);
  // -> (output, (h_n, c_n)); hx = (h_0, c_0), zeros when absent.
  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward(
      const Tensor& input, const std::optional<std::tuple<Tensor, Tensor>>& hx = std::nullopt);
  std::tuple<PackedSequence, std::tuple<Tensor, Tensor>> forward_with_packed_input(
      const PackedSequence& packed_input,
      const std::optional<std::tuple<Tensor, Tensor>>& hx = std::nullopt);
  LSTMOptions options;
};
ACCEL_MODULE(LSTM);

class GRUImpl : public RecurrentImplBase {
 public:
  GRUImpl(int64_t input_size, int64_t hidden_size) : GRUImpl(GRUOptions(input_size, hidden_size)) {}
  explicit GRUImpl(const GRUOptions& options);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, const Tensor& hx = {});
  std::tuple<PackedSequence, Tensor> forward_with_packed_input(const PackedSequence& packed_input,
                                                               const Tensor& hx = {});
  GRUOptions options;
};
ACCEL_MODULE(GRU);

#pragma GCC diagnostic pop

}  // namespace accel::nn
