// Sequences of several lengths for the recurrent layers, as LibTorch's torch::nn::utils::rnn:
// PackedSequence (each step's rows one after another, longest sequences first),
// pack_padded_sequence and pad_packed_sequence between it and a padded tensor, and
// pad_sequence and pack_sequence from a list of sequences. All are made of differentiable ops.
// RNN, LSTM and GRU take a PackedSequence in forward_with_packed_input.
#pragma once

#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "accel/core/tensor.h"

namespace accel::nn::utils::rnn {

// The permutation that undoes `permutation` (undefined for undefined).
Tensor invert_permutation(const Tensor& permutation);

class PackedSequence {
 public:
  // data [total steps of all sequences, *]: time step 0 of every sequence, then step 1 of those
  // that have one, ...; batch_sizes (int64, on the CPU): how many sequences each step holds,
  // non-increasing; sorted_indices: sorted position i holds sequence sorted_indices[i] of the
  // original batch (undefined when the batch came sorted); unsorted_indices: its inverse,
  // computed when undefined. Made by pack_padded_sequence and pack_sequence.
  explicit PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices = {},
                          Tensor unsorted_indices = {});

  const Tensor& data() const { return data_; }
  const Tensor& batch_sizes() const { return batch_sizes_; }
  const Tensor& sorted_indices() const { return sorted_indices_; }
  const Tensor& unsorted_indices() const { return unsorted_indices_; }
  // The sequence with data and the indices on `device` (batch_sizes stay on the CPU).
  PackedSequence to(Device device) const;
  bool is_cuda() const { return data_.is_cuda(); }

 private:
  Tensor data_, batch_sizes_, sorted_indices_, unsorted_indices_;
};

// input [T, B, *] ([B, T, *] batch first), padded past each sequence's length; lengths [B]
// (integers, each in [1, T]), non-increasing unless enforce_sorted is false (then the
// sequences are sorted, longest first, and the order is kept in sorted_indices).
PackedSequence pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first = false,
                                    bool enforce_sorted = true);

// The inverse: (padded [T, B, *] or [B, T, *] in the original order, lengths [B] int64 on the
// CPU). Padding holds padding_value; total_length (at least the longest length) pads further.
std::tuple<Tensor, Tensor> pad_packed_sequence(const PackedSequence& sequence,
                                               bool batch_first = false, double padding_value = 0.0,
                                               std::optional<int64_t> total_length = std::nullopt);

// Sequences [L_i, *] (the same trailing sizes) stacked into [max L, B, *] ([B, max L, *] batch
// first), each padded with padding_value after it ("right") or before it ("left").
Tensor pad_sequence(TensorList sequences, bool batch_first = false, double padding_value = 0,
                    std::string_view padding_side = "right");

// pack_padded_sequence of pad_sequence(sequences) with their lengths.
PackedSequence pack_sequence(TensorList sequences, bool enforce_sorted = true);

}  // namespace accel::nn::utils::rnn
