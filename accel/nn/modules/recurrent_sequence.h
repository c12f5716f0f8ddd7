// One layer and direction of a recurrent network over a whole sequence, as one autograd node,
// the way cuDNN runs its RNNs. The forward keeps what each step's gates computed. The backward
// walks the steps in reverse for the gradient that flows through time; the weights' and biases'
// gradients then come from one product and one sum over all steps, not from a product and an
// accumulation per step. LSTM and GRU steps are one kernel each way. RNN, LSTM and GRU use it for
// each of their layers.
#pragma once

#include "accel/core/tensor.h"

namespace accel::nn {

// The cell a recurrent layer runs at each step, and its gates' count (rows of weight_ih are
// gates * hidden_size, in PyTorch's order: LSTM i, f, g, o; GRU r, z, n).
enum class RecurrentCell { Tanh, ReLU, LSTM, GRU };
int64_t gates_of(RecurrentCell cell);

struct RecurrentSequence {
  Tensor output;  // [T, N, S]: each time step's hidden state (S: H, or LSTM's projection size)
  Tensor h;       // [N, S]: each row's state after its last step (time 0's when reversed)
  Tensor c;       // [N, H]: LSTM's cell state then; undefined for the other cells
};

// The cells, step by step:
//   RNN   h' = tanh or relu(x + h_proj)
//   LSTM  i, f, g, o = sigmoid, sigmoid, tanh, sigmoid of (x + h_proj) in four chunks;
//         c' = f c + i g, h' = o tanh(c')
//   GRU   r, z = sigmoid of the first two chunks of x + h_proj,
//         n = tanh(x_n + r h_proj_n), h' = (1 - z) n + z h
// with x the step's row of `input_projection` ([T, N, gates * H]: the inputs times weight_ihᵀ)
// plus bias_ih, and h_proj = h weight_hhᵀ + bias_hh (either bias may be undefined). An LSTM
// with projections (weight_hr [P, H] defined, P < H) keeps h' = (o tanh(c')) weight_hrᵀ, of size
// P, as its hidden state; weight_hh is then [4H, P]. h0 is [N, S] and, for LSTM, c0 [N, H].
// `reverse` runs the steps from time T-1 down to 0.
//
// Sequences of several lengths, longest first (a PackedSequence's layout): batch_sizes[t] rows
// take part at time t, a prefix of the batch that does not grow with t. A row's final state is
// its state after its last step (time 0's when reversed, where it starts from h0 at its own
// last time); its output past its length is zero. Empty batch_sizes: every row, every step.
RecurrentSequence recurrent_sequence(RecurrentCell cell, const Tensor& input_projection,
                                     const Tensor& h0, const Tensor& c0, const Tensor& weight_hh,
                                     const Tensor& bias_ih, const Tensor& bias_hh,
                                     const Tensor& weight_hr, bool reverse,
                                     IntArrayRef batch_sizes = {});

}  // namespace accel::nn
