// recurrent_sequence: each cell's step forward and step backward side by side, then the loop
// over the steps and the one node that differentiates the whole loop. LSTM and GRU steps are
// kernels of the device's table (kernels/backend.h); RNN steps, the products and the sums are
// ops, run with grad mode off.
#include "accel/nn/modules/recurrent_sequence.h"

#include <vector>

#include "accel/base/error.h"
#include "accel/core/autograd/function.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/stream.h"

namespace accel::nn {

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

namespace {

using autograd::GradInputs;

constexpr const char* kOp = "recurrent_sequence";

const void* data_or_null(const Tensor& t) { return t.defined() ? t.data_ptr() : nullptr; }

// What a step keeps for its backward, beside the hidden states.
struct StepRecord {
  Tensor gates;      // LSTM's i, f, g, o and GRU's r, z, n, activated
  Tensor tanh_cell;  // LSTM: tanh(c')
  Tensor h_proj;     // GRU: the step's hidden projection, bias_hh included
};

struct State {
  Tensor h, c;
};

// One step: writes the hidden state after it into `h_after` and returns the cell state after
// it (LSTM), from the step's input projection x, its hidden projection h_proj and the state
// before it, all contiguous. `bias` is what the cell adds to x + h_proj (undefined for GRU,
// whose biases are already in x and h_proj).
Tensor step_forward(RecurrentCell cell, const Tensor& x, const Tensor& h_proj, const Tensor& bias,
                    const State& before, const Tensor& h_after, StepRecord& record) {
  const Tensor& h = before.h;
  const RecurrentCellShape shape{h.size(0), h.size(1)};
  const Stream stream = current_stream(h.device());
  switch (cell) {
    case RecurrentCell::Tanh:
    case RecurrentCell::ReLU: {
      const Tensor pre = bias.defined() ? x + h_proj + bias : x + h_proj;
      h_after.copy_(cell == RecurrentCell::Tanh ? tanh(pre) : relu(pre));
      return {};
    }
    case RecurrentCell::LSTM: {
      const Tensor c = empty_like(h);
      record.gates = empty_like(x);
      record.tanh_cell = empty_like(h);
      backend(h.device())
          .lstm_cell(h.dtype(), x.data_ptr(), h_proj.data_ptr(), data_or_null(bias),
                     before.c.data_ptr(), record.gates.data_ptr(), c.data_ptr(),
                     record.tanh_cell.data_ptr(), h_after.data_ptr(), shape, stream);
      return c;
    }
    case RecurrentCell::GRU:
      record.gates = empty_like(x);
      record.h_proj = h_proj;
      backend(h.device())
          .gru_cell(h.dtype(), x.data_ptr(), h_proj.data_ptr(), h.data_ptr(),
                    record.gates.data_ptr(), h_after.data_ptr(), shape, stream);
      return {};
  }
  return {};
}

// A step's backward, from the gradients of the state after it (dh, and dc for LSTM; both
// contiguous): writes the gradients of its hidden projection into `d_h_proj` and, for GRU, of
// its input projection into `d_x` (the other cells' are the same). Returns the gradient of the
// state before it, but for the part of h's that flows through h_proj.
State step_backward(RecurrentCell cell, const Tensor& dh, const Tensor& dc, const Tensor& h_after,
                    const State& before, const StepRecord& record, const Tensor& d_h_proj,
                    const Tensor& d_x) {
  const RecurrentCellShape shape{dh.size(0), dh.size(1)};
  const Stream stream = current_stream(dh.device());
  switch (cell) {
    case RecurrentCell::Tanh:
      d_h_proj.copy_(dh * (1 - h_after * h_after));
      return {};
    case RecurrentCell::ReLU:
      d_h_proj.copy_(dh * (h_after > 0));
      return {};
    case RecurrentCell::LSTM: {
      const Tensor d_c = empty_like(dc);
      backend(dh.device())
          .lstm_cell_backward(dh.dtype(), dh.data_ptr(), dc.data_ptr(), record.gates.data_ptr(),
                              record.tanh_cell.data_ptr(), before.c.data_ptr(), d_h_proj.data_ptr(),
                              d_c.data_ptr(), shape, stream);
      return {{}, d_c};
    }
    case RecurrentCell::GRU: {
      const Tensor d_h = empty_like(dh);
      backend(dh.device())
          .gru_cell_backward(dh.dtype(), dh.data_ptr(), record.gates.data_ptr(),
                             record.h_proj.data_ptr(), before.h.data_ptr(), d_x.data_ptr(),
                             d_h_proj.data_ptr(), d_h.data_ptr(), shape, stream);
      return {d_h, {}};
    }
  }
  return {};
}

void check_arguments(RecurrentCell cell, const Tensor& input_projection, const Tensor& h0,
                     const Tensor& c0, const Tensor& weight_hh, const Tensor& bias_ih,
                     const Tensor& bias_hh) {
  ACCEL_CHECK(weight_hh.dim() == 2 && weight_hh.size(0) == gates_of(cell) * weight_hh.size(1), kOp,
              "expected weight_hh of shape [{} * hidden, hidden], got {}", gates_of(cell),
              weight_hh.sizes());
  const int64_t rows = weight_hh.size(0), hidden = weight_hh.size(1);
  ACCEL_CHECK(input_projection.dim() == 3 && input_projection.size(0) > 0 &&
                  input_projection.size(2) == rows,
              kOp, "expected an input projection of shape [steps > 0, batch, {}], got {}", rows,
              input_projection.sizes());
  const DimVector state{input_projection.size(1), hidden};
  const bool lstm = cell == RecurrentCell::LSTM;
  ACCEL_CHECK(h0.sizes() == IntArrayRef(state) && (!lstm || c0.sizes() == IntArrayRef(state)), kOp,
              "expected initial states of shape {}, got h0 {} and c0 {}", state, h0.sizes(),
              c0.defined() ? c0.sizes() : IntArrayRef());
  for (const Tensor* bias : {&bias_ih, &bias_hh}) {
    ACCEL_CHECK(!bias->defined() || bias->sizes() == IntArrayRef({rows}), kOp,
                "expected biases of shape [{}], got {}", rows, bias->sizes());
  }
  for (const Tensor* t : {&h0, &c0, &weight_hh, &bias_ih, &bias_hh}) {
    ACCEL_CHECK(!t->defined() || (t->dtype() == input_projection.dtype() &&
                                  t->device() == input_projection.device()),
                kOp,
                "expected states and weights of the input projection's dtype {} on {}, got {} "
                "on {}",
                input_projection.dtype(), input_projection.device(), t->dtype(), t->device());
  }
}

}  // namespace

RecurrentSequence recurrent_sequence(RecurrentCell cell, const Tensor& input_projection,
                                     const Tensor& h0, const Tensor& c0, const Tensor& weight_hh,
                                     const Tensor& bias_ih, const Tensor& bias_hh, bool reverse) {
  check_arguments(cell, input_projection, h0, c0, weight_hh, bias_ih, bias_hh);
  const bool lstm = cell == RecurrentCell::LSTM, gru = cell == RecurrentCell::GRU;
  const int64_t steps = input_projection.size(0);
  auto time_of = [steps, reverse](int64_t step) { return reverse ? steps - 1 - step : step; };

  std::vector<StepRecord> records(static_cast<size_t>(steps));
  std::vector<Tensor> cells;  // LSTM's cell state after each step
  Tensor h_start, c_start;    // h0 and c0, contiguous for the kernels
  RecurrentSequence result;
  {
    NoGradGuard no_grad;
    h_start = h0.contiguous();
    if (lstm) c_start = c0.contiguous();
    const Tensor weight_hh_t = weight_hh.t().contiguous();  // each step's product reads it in place
    // GRU's r multiplies h_proj's n chunk, bias_hh included, so its biases go into the two
    // projections; the other cells add both biases to each step's sum.
    Tensor x = input_projection.contiguous(), bias;
    if (gru && bias_ih.defined()) x = x + bias_ih;
    if (!gru && (bias_ih.defined() || bias_hh.defined())) {
      bias = !bias_hh.defined() ? bias_ih : !bias_ih.defined() ? bias_hh : bias_ih + bias_hh;
    }
    result.output = empty({steps, h0.size(0), h0.size(1)}, h_start.options());
    State state{h_start, c_start};
    for (int64_t step = 0; step < steps; ++step) {
      const int64_t t = time_of(step);
      Tensor h_proj = matmul(state.h, weight_hh_t);
      if (gru && bias_hh.defined()) h_proj = h_proj + bias_hh;
      const Tensor h_after = result.output[t];
      Tensor c_after = step_forward(cell, x[t], h_proj, bias, state, h_after,
                                    records[static_cast<size_t>(step)]);
      if (lstm) cells.push_back(c_after);
      state = {h_after, std::move(c_after)};
    }
    result.h = state.h.clone();  // its own tensor, not a view of the output
    result.c = state.c;
  }
  if (!autograd::should_record(input_projection, h0, c0, weight_hh, bias_ih, bias_hh)) {
    return result;
  }

  // The last cell state is an output, so the node must not hold it (it would hold itself);
  // the backward needs the cell states before each step only.
  if (lstm) cells.pop_back();
  const Tensor outputs[] = {result.output, result.h, result.c};
  autograd::record(
      kOp, {input_projection, h0, c0, weight_hh, bias_ih, bias_hh},
      std::span<const Tensor>(outputs, lstm ? 3 : 2),
      [cell, lstm, gru, steps, time_of, records = std::move(records), cells = std::move(cells),
       saved_output = autograd::SavedTensor(result.output),
       saved_h0 = autograd::SavedTensor(h_start), saved_c0 = autograd::SavedTensor(c_start),
       saved_weight_hh = autograd::SavedTensor(weight_hh)](autograd::GradVector& grads,
                                                           GradInputs& in) {
        const Tensor& output = saved_output.get();
        const Tensor& initial_h = saved_h0.get();
        const Tensor& weights = saved_weight_hh.get();
        const int64_t batch = output.size(1), hidden = output.size(2);
        // The kernels take contiguous gradients.
        Tensor dh = grads[1].defined() ? grads[1].contiguous() : zeros_like(initial_h);
        Tensor dc = !lstm                ? Tensor()
                    : grads[2].defined() ? grads[2].contiguous()
                                         : zeros_like(initial_h);
        const Tensor d_h_proj = empty({steps, batch, weights.size(0)}, output.options());
        const Tensor d_x = gru ? empty_like(d_h_proj) : d_h_proj;
        for (int64_t step = steps - 1; step >= 0; --step) {
          const int64_t t = time_of(step);
          if (grads[0].defined()) dh = dh + grads[0][t];
          const State before{step == 0 ? initial_h : output[time_of(step - 1)],
                             !lstm       ? Tensor()
                             : step == 0 ? saved_c0.get()
                                         : cells[static_cast<size_t>(step - 1)]};
          const State d = step_backward(cell, dh, dc, output[t], before,
                                        records[static_cast<size_t>(step)], d_h_proj[t], d_x[t]);
          dh = matmul(d_h_proj[t], weights);
          if (d.h.defined()) dh = dh + d.h;
          dc = d.c;
        }
        if (in.needs(0)) in[0] = d_x;
        if (in.needs(1)) in[1] = dh;
        if (in.needs(2)) in[2] = dc;
        if (in.needs(3)) {
          // Each step's state before it, by time: h0 comes first, or last when reversed.
          const Tensor first = initial_h.unsqueeze(0);
          const Tensor before_all = steps == 1 ? first
                                    : time_of(0) == 0
                                        ? cat({first, output.narrow(0, 0, steps - 1)})
                                        : cat({output.narrow(0, 1, steps - 1), first});
          in[3] = matmul(d_h_proj.reshape({steps * batch, weights.size(0)}).t(),
                         before_all.reshape({steps * batch, hidden}));
        }
        // But for GRU, both biases' gradients are the same sums: taken once, and copied, as
        // each becomes a parameter's own gradient.
        if (in.needs(5)) in[5] = d_h_proj.sum({0, 1});
        if (in.needs(4)) {
          in[4] = gru ? d_x.sum({0, 1}) : in.needs(5) ? in[5].clone() : d_h_proj.sum({0, 1});
        }
      });
  return result;
}

}  // namespace accel::nn
