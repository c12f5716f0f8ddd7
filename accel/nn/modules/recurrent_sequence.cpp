// recurrent_sequence: each cell's step forward and step backward side by side, then the loop
// over the steps and the one node that differentiates the whole loop. LSTM and GRU steps are
// kernels of the device's table (kernels/backend.h); RNN steps, the products and the sums are
// ops, run with grad mode off.
#include "accel/nn/modules/recurrent_sequence.h"

#include <algorithm>
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

// One step: writes the hidden state after it into `h_after` ([N, H]: before an LSTM's
// projection) and returns the cell state after it (LSTM), from the step's input projection x,
// its hidden projection h_proj and the state before it, all contiguous. `bias` is what the cell
// adds to x + h_proj (undefined for GRU, whose biases are already in x and h_proj).
Tensor step_forward(RecurrentCell cell, const Tensor& x, const Tensor& h_proj, const Tensor& bias,
                    const State& before, const Tensor& h_after, StepRecord& record) {
  const Tensor& h = before.h;
  const RecurrentCellShape shape{h_after.size(0), h_after.size(1)};
  const Stream stream = current_stream(h.device());
  switch (cell) {
    case RecurrentCell::Tanh:
    case RecurrentCell::ReLU: {
      const Tensor pre = bias.defined() ? x + h_proj + bias : x + h_proj;
      h_after.copy_(cell == RecurrentCell::Tanh ? tanh(pre) : relu(pre));
      return {};
    }
    case RecurrentCell::LSTM: {
      const Tensor c = empty_like(before.c);
      record.gates = empty_like(x);
      record.tanh_cell = empty_like(before.c);
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

// The state before step s, of its rows[s] rows: the rows of the state after the step before
// (`previous`), and those of the initial state (`start`) for rows that begin at this step.
Tensor state_before(const std::vector<int64_t>& rows, int64_t s, const Tensor& start,
                    const Tensor& previous) {
  const int64_t n = rows[static_cast<size_t>(s)];
  if (s == 0) return start.narrow(0, 0, n);
  const int64_t carried = rows[static_cast<size_t>(s - 1)];
  if (n <= carried) return previous.narrow(0, 0, n);
  return cat({previous, start.narrow(0, carried, n - carried)});
}

void check_arguments(RecurrentCell cell, const Tensor& input_projection, const Tensor& h0,
                     const Tensor& c0, const Tensor& weight_hh, const Tensor& bias_ih,
                     const Tensor& bias_hh, const Tensor& weight_hr, IntArrayRef batch_sizes) {
  const int64_t gates = gates_of(cell);
  ACCEL_CHECK(!weight_hr.defined() || cell == RecurrentCell::LSTM, kOp,
              "only LSTM projects its hidden state (weight_hr {})", weight_hr.sizes());
  ACCEL_CHECK(
      !weight_hr.defined() || (weight_hr.dim() == 2 && weight_hr.size(0) < weight_hr.size(1)), kOp,
      "expected weight_hr of shape [proj_size, hidden] with proj_size < hidden, got {}",
      weight_hr.sizes());
  const int64_t hidden = weight_hr.defined()    ? weight_hr.size(1)
                         : weight_hh.dim() == 2 ? weight_hh.size(1)
                                                : 0;
  const int64_t state_size = weight_hr.defined() ? weight_hr.size(0) : hidden;
  ACCEL_CHECK(weight_hh.dim() == 2 && weight_hh.size(0) == gates * hidden &&
                  weight_hh.size(1) == state_size,
              kOp, "expected weight_hh of shape [{} * {}, {}], got {}", gates, hidden, state_size,
              weight_hh.sizes());
  const int64_t rows = weight_hh.size(0);
  ACCEL_CHECK(input_projection.dim() == 3 && input_projection.size(0) > 0 &&
                  input_projection.size(2) == rows,
              kOp, "expected an input projection of shape [steps > 0, batch, {}], got {}", rows,
              input_projection.sizes());
  const DimVector state{input_projection.size(1), state_size}, cell_state{state[0], hidden};
  const bool lstm = cell == RecurrentCell::LSTM;
  ACCEL_CHECK(h0.sizes() == IntArrayRef(state) && (!lstm || c0.sizes() == IntArrayRef(cell_state)),
              kOp, "expected initial states of shape {} (h0) and {} (c0), got {} and {}", state,
              cell_state, h0.sizes(), c0.defined() ? c0.sizes() : IntArrayRef());
  for (const Tensor* bias : {&bias_ih, &bias_hh}) {
    ACCEL_CHECK(!bias->defined() || bias->sizes() == IntArrayRef({rows}), kOp,
                "expected biases of shape [{}], got {}", rows, bias->sizes());
  }
  const int64_t steps = input_projection.size(0), batch = input_projection.size(1);
  bool sizes_valid = batch_sizes.empty() ||
                     (static_cast<int64_t>(batch_sizes.size()) == steps && batch_sizes[0] == batch);
  for (size_t t = 1; sizes_valid && t < batch_sizes.size(); ++t) {
    sizes_valid = batch_sizes[t] >= 1 && batch_sizes[t] <= batch_sizes[t - 1];
  }
  ACCEL_CHECK(sizes_valid, kOp,
              "expected {} non-increasing batch sizes from {} down to at least 1, got {}", steps,
              batch, batch_sizes);
  for (const Tensor* t : {&h0, &c0, &weight_hh, &bias_ih, &bias_hh, &weight_hr}) {
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
                                     const Tensor& bias_ih, const Tensor& bias_hh,
                                     const Tensor& weight_hr, bool reverse,
                                     IntArrayRef batch_sizes) {
  check_arguments(cell, input_projection, h0, c0, weight_hh, bias_ih, bias_hh, weight_hr,
                  batch_sizes);
  const bool lstm = cell == RecurrentCell::LSTM, gru = cell == RecurrentCell::GRU;
  const bool projected = weight_hr.defined();
  const int64_t steps = input_projection.size(0), batch = input_projection.size(1);
  auto time_of = [steps, reverse](int64_t step) { return reverse ? steps - 1 - step : step; };
  // The rows each step runs, by step: all of them, or a prefix for sequences of several lengths.
  std::vector<int64_t> rows(static_cast<size_t>(steps), batch);
  if (!batch_sizes.empty()) {
    for (int64_t s = 0; s < steps; ++s) rows[static_cast<size_t>(s)] = batch_sizes[time_of(s)];
  }
  const bool ragged = !batch_sizes.empty() && batch_sizes.back() < batch;

  std::vector<StepRecord> records(static_cast<size_t>(steps));
  std::vector<Tensor> cells;  // LSTM's cell state after each step
  Tensor h_start, c_start;    // h0 and c0, contiguous for the kernels
  Tensor unprojected;         // with projections: [T, N, H], each step's o tanh(c')
  RecurrentSequence result;
  {
    NoGradGuard no_grad;
    h_start = h0.contiguous();
    if (lstm) c_start = c0.contiguous();
    const Tensor weight_hh_t = weight_hh.t().contiguous();  // each step's product reads it in place
    const Tensor weight_hr_t = projected ? weight_hr.t().contiguous() : Tensor();
    // GRU's r multiplies h_proj's n chunk, bias_hh included, so its biases go into the two
    // projections; the other cells add both biases to each step's sum.
    Tensor x = input_projection.contiguous(), bias;
    if (gru && bias_ih.defined()) x = x + bias_ih;
    if (!gru && (bias_ih.defined() || bias_hh.defined())) {
      bias = (!bias_hh.defined()   ? bias_ih
              : !bias_ih.defined() ? bias_hh
                                   : bias_ih + bias_hh)
                 .contiguous();
    }
    const DimVector output_sizes{steps, batch, h0.size(1)};
    result.output = ragged ? zeros(output_sizes, h_start.options())  // padding stays zero
                           : empty(output_sizes, h_start.options());
    result.h = empty_like(h_start);
    if (lstm) result.c = empty_like(c_start);
    if (projected) {
      const DimVector sizes{steps, batch, c_start.size(1)};
      unprojected = ragged ? zeros(sizes, c_start.options()) : empty(sizes, c_start.options());
    }
    State after;  // the previous step's rows
    auto keep_final = [&](int64_t from, int64_t count) {
      result.h.narrow(0, from, count).copy_(after.h.narrow(0, from, count));
      if (lstm) result.c.narrow(0, from, count).copy_(after.c.narrow(0, from, count));
    };
    for (int64_t s = 0; s < steps; ++s) {
      const int64_t t = time_of(s), n = rows[static_cast<size_t>(s)];
      if (s > 0 && n < after.h.size(0)) keep_final(n, after.h.size(0) - n);  // rows that ended
      const State before{state_before(rows, s, h_start, after.h),
                         lstm ? state_before(rows, s, c_start, after.c) : Tensor()};
      Tensor h_proj = matmul(before.h, weight_hh_t);
      if (gru && bias_hh.defined()) h_proj = h_proj + bias_hh;
      after.h = result.output[t].narrow(0, 0, n);
      const Tensor cell_output = projected ? unprojected[t].narrow(0, 0, n) : after.h;
      after.c = step_forward(cell, x[t].narrow(0, 0, n), h_proj, bias, before, cell_output,
                             records[static_cast<size_t>(s)]);
      if (projected) after.h.copy_(matmul(cell_output, weight_hr_t));
      if (lstm) cells.push_back(after.c);
    }
    keep_final(0, after.h.size(0));
  }
  if (!autograd::should_record(input_projection, h0, c0, weight_hh, bias_ih, bias_hh, weight_hr)) {
    return result;
  }

  const Tensor outputs[] = {result.output, result.h, result.c};
  autograd::record(
      kOp, {input_projection, h0, c0, weight_hh, bias_ih, bias_hh, weight_hr},
      std::span<const Tensor>(outputs, lstm ? 3 : 2),
      [cell, lstm, gru, ragged, time_of, rows = std::move(rows), records = std::move(records),
       cells = std::move(cells), saved_output = autograd::SavedTensor(result.output),
       saved_h0 = autograd::SavedTensor(h_start), saved_c0 = autograd::SavedTensor(c_start),
       saved_weight_hh = autograd::SavedTensor(weight_hh),
       saved_weight_hr = autograd::SavedTensor(weight_hr),
       saved_unprojected = autograd::SavedTensor(unprojected)](autograd::GradVector& grads,
                                                               GradInputs& in) {
        const Tensor& output = saved_output.get();
        const Tensor& h_start = saved_h0.get();
        const Tensor& c_start = saved_c0.get();
        const Tensor& weights = saved_weight_hh.get();
        const Tensor& weight_hr = saved_weight_hr.get();
        const Tensor& unprojected = saved_unprojected.get();
        const bool projected = weight_hr.defined();
        const int64_t steps = output.size(0), batch = output.size(1), state_size = output.size(2);
        // Each row's gradient of its state after the step being undone (so far, the final
        // state's), contiguous for the kernels. Ragged runs update rows of it in place.
        auto own = [&](const Tensor& grad, const Tensor& like) {
          return !grad.defined() ? zeros_like(like) : ragged ? grad.clone() : grad.contiguous();
        };
        Tensor dh = own(grads[1], h_start), dc = lstm ? own(grads[2], c_start) : Tensor();
        const Tensor d_h0 = zeros_like(h_start), d_c0 = lstm ? zeros_like(c_start) : Tensor();
        auto padded_like = [ragged](DimVector sizes, const Tensor& like) {
          return ragged ? zeros(sizes, like.options()) : empty(sizes, like.options());
        };
        const Tensor d_h_proj = padded_like({steps, batch, weights.size(0)}, output);
        const Tensor d_x = gru ? padded_like(d_h_proj.sizes(), output) : d_h_proj;
        // Each step's state before it, by time, for weight_hh's gradient; with projections, the
        // gradient of each step's projected state, for weight_hr's.
        const Tensor before_all =
            in.needs(3) ? padded_like({steps, batch, state_size}, output) : Tensor();
        const Tensor d_projected_all =
            projected && in.needs(6) ? padded_like(output.sizes(), output) : Tensor();
        for (int64_t s = steps - 1; s >= 0; --s) {
          const int64_t t = time_of(s), n = rows[static_cast<size_t>(s)];
          const int64_t previous = s > 0 ? rows[static_cast<size_t>(s - 1)] : 0;
          const State before{
              state_before(rows, s, h_start,
                           s > 0 ? output[time_of(s - 1)].narrow(0, 0, previous) : Tensor()),
              lstm ? state_before(rows, s, c_start,
                                  s > 0 ? cells[static_cast<size_t>(s - 1)] : Tensor())
                   : Tensor()};
          if (before_all.defined()) before_all[t].narrow(0, 0, n).copy_(before.h);
          Tensor dh_after = dh.narrow(0, 0, n);
          if (grads[0].defined()) dh_after = dh_after + grads[0][t].narrow(0, 0, n);
          if (projected) {  // back through h' = unprojected weight_hrᵀ
            if (d_projected_all.defined()) d_projected_all[t].narrow(0, 0, n).copy_(dh_after);
            dh_after = matmul(dh_after, weight_hr);
          }
          const State d = step_backward(
              cell, dh_after, lstm ? dc.narrow(0, 0, n) : Tensor(),
              projected ? unprojected[t].narrow(0, 0, n) : output[t].narrow(0, 0, n), before,
              records[static_cast<size_t>(s)], d_h_proj[t].narrow(0, 0, n), d_x[t].narrow(0, 0, n));
          Tensor dh_before = matmul(d_h_proj[t].narrow(0, 0, n), weights);
          if (d.h.defined()) dh_before = dh_before + d.h;
          // Rows [0, carried) came from the previous step; the rest started here, from h0.
          const int64_t carried = std::min(n, previous);
          if (carried < n) {
            d_h0.narrow(0, carried, n - carried).copy_(dh_before.narrow(0, carried, n - carried));
            if (lstm)
              d_c0.narrow(0, carried, n - carried).copy_(d.c.narrow(0, carried, n - carried));
          }
          if (carried == batch) {
            dh = dh_before;
            dc = d.c;
          } else if (carried > 0) {
            dh.narrow(0, 0, carried).copy_(dh_before.narrow(0, 0, carried));
            if (lstm) dc.narrow(0, 0, carried).copy_(d.c.narrow(0, 0, carried));
          }
        }
        if (in.needs(0)) in[0] = d_x;
        if (in.needs(1)) in[1] = d_h0;
        if (in.needs(2)) in[2] = d_c0;
        if (in.needs(3)) {
          in[3] = matmul(d_h_proj.reshape({steps * batch, weights.size(0)}).t(),
                         before_all.reshape({steps * batch, state_size}));
        }
        // But for GRU, both biases' gradients are the same sums: taken once, and copied, as
        // each becomes a parameter's own gradient.
        if (in.needs(5)) in[5] = d_h_proj.sum({0, 1});
        if (in.needs(4)) {
          in[4] = gru ? d_x.sum({0, 1}) : in.needs(5) ? in[5].clone() : d_h_proj.sum({0, 1});
        }
        if (d_projected_all.defined()) {
          in[6] = matmul(d_projected_all.reshape({steps * batch, state_size}).t(),
                         unprojected.reshape({steps * batch, unprojected.size(2)}));
        }
      });
  return result;
}

}  // namespace accel::nn
