// nn::utils::rnn beyond the PyTorch fixtures (tests/reference/cases_nn_layers.py): what packing
// keeps of the original order, what the recurrent layers do with packed sequences, and the
// errors of bad lengths, sizes and options.
#include <gtest/gtest.h>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

namespace rnn = nn::utils::rnn;

TEST(PackedSequence, PackingKeepsTheOriginalOrder) {
  const Tensor x = arange(5 * 3, kFloat32).reshape({5, 3, 1});  // [T, B, 1]
  const rnn::PackedSequence packed = rnn::pack_padded_sequence(x, tensor({2, 5, 3}), false, false);
  EXPECT_TRUE(packed.batch_sizes().equal(tensor({3, 3, 2, 1, 1})));
  EXPECT_TRUE(packed.sorted_indices().equal(tensor({1, 2, 0})));
  EXPECT_TRUE(packed.unsorted_indices().equal(tensor({2, 0, 1})));
  // Each step's rows, longest sequence first: x[t][1], x[t][2], x[t][0] while each lasts.
  EXPECT_TRUE(packed.data().flatten().equal(
      tensor({1.0F, 2.0F, 0.0F, 4.0F, 5.0F, 3.0F, 7.0F, 8.0F, 10.0F, 13.0F})));
  const auto [padded, lengths] = rnn::pad_packed_sequence(packed);
  EXPECT_TRUE(lengths.equal(tensor({2, 5, 3})));
  const Tensor expected_mask = arange(5, kInt64).unsqueeze(1).lt(lengths.unsqueeze(0));
  EXPECT_TRUE(padded.squeeze(2).equal(where(expected_mask, x.squeeze(2), zeros({5, 3}))));
}

TEST(PackedSequence, LayersStopEachSequenceAtItsLength) {
  manual_seed(3);
  nn::LSTM lstm(nn::LSTMOptions(2, 3).bidirectional(true));
  const Tensor a = randn({4, 2}), b = randn({2, 2});
  const auto [packed_out, state] =
      lstm->forward_with_packed_input(rnn::pack_sequence({b, a}, false));
  const auto [padded, lengths] = rnn::pad_packed_sequence(packed_out, true);
  EXPECT_TRUE(lengths.equal(tensor({2, 4})));
  // Each sequence alone gives the same output and final states.
  int64_t i = 0;
  for (const Tensor& sequence : {b, a}) {
    const auto [alone, alone_state] = lstm->forward(sequence.unsqueeze(1));
    const int64_t length = sequence.size(0);
    EXPECT_TRUE(padded[i].narrow(0, 0, length).allclose(alone.squeeze(1), 1e-6, 1e-6));
    EXPECT_TRUE(padded[i].narrow(0, length, padded.size(1) - length).eq(0).all().item<bool>());
    EXPECT_TRUE(
        std::get<0>(state).select(1, i).allclose(std::get<0>(alone_state).squeeze(1), 1e-6, 1e-6));
    EXPECT_TRUE(
        std::get<1>(state).select(1, i).allclose(std::get<1>(alone_state).squeeze(1), 1e-6, 1e-6));
    ++i;
  }
}

TEST(PackedSequence, Errors) {
  const Tensor x = zeros({4, 3, 2});
  testing::expect_error_containing(
      [&] {
        (void)rnn::pack_padded_sequence(x, tensor({2, 4, 1}));
      },
      "pack_padded_sequence: lengths must be sorted in decreasing order when enforce_sorted is "
      "true, got [2, 4, 1]");
  testing::expect_error_containing(
      [&] {
        (void)rnn::pack_padded_sequence(x, tensor({4, 0, 0}));
      },
      "pack_padded_sequence: every length must be in [1, 4]");
  testing::expect_error_containing(
      [&] {
        (void)rnn::pack_padded_sequence(x, tensor({5, 1, 1}));
      },
      "pack_padded_sequence: every length must be in [1, 4] (the input's time steps), got "
      "lengths [5, 1, 1]");
  testing::expect_error_containing(
      [&] {
        (void)rnn::pack_padded_sequence(x, tensor({4, 1}));
      },
      "expected len(lengths) to be equal to batch_size, but got 2 (batch_size=3)");
  testing::expect_error_containing(
      [&] {
        (void)rnn::pack_padded_sequence(x, tensor({4.0F, 1.0F, 1.0F}));
      },
      "pack_padded_sequence: expected lengths as a 1-D integer tensor, got float32 [3]");
  const rnn::PackedSequence packed = rnn::pack_padded_sequence(x, tensor({4, 2, 1}));
  testing::expect_error_containing(
      [&] { (void)rnn::pad_packed_sequence(packed, false, 0.0, 3); },
      "expected total_length to be at least the length of the longest sequence in input, but "
      "got total_length=3 and max sequence length being 4");
  testing::expect_error_containing([] { (void)rnn::pad_sequence({}); },
                                   "pad_sequence: received an empty list of sequences");
  testing::expect_error_containing(
      [] {
        (void)rnn::pad_sequence({zeros({2, 3}), zeros({4, 2})});
      },
      "pad_sequence: sequence 1 has shape [4, 2], but sequences must share the sizes after the "
      "first dim (sequence 0: [2, 3])");
  testing::expect_error_containing(
      [] {
        (void)rnn::pad_sequence({zeros({2, 3})}, false, 0.0, "middle");
      },
      "padding_side must be \"left\" or \"right\", got \"middle\"");
  testing::expect_error_containing(
      [] {
        (void)rnn::PackedSequence(zeros({3, 2}), tensor({2.0F, 1.0F}));
      },
      "PackedSequence: batch_sizes must be a 1-D int64 tensor on the CPU");
  testing::expect_error_containing(
      [] {
        (void)rnn::pad_packed_sequence(rnn::PackedSequence(zeros({4, 2}), tensor({1, 3})));
      },
      "pad_packed_sequence: batch sizes must be positive and non-increasing, got [1, 3]");
  nn::GRU gru(3, 4);
  testing::expect_error_containing(
      [&] { (void)gru->forward_with_packed_input(packed); },
      "GRU: input.size(-1) must be equal to input_size: expected 3, got 2");
  nn::LSTM lstm(2, 4);
  testing::expect_error_containing(
      [&] {
        (void)lstm->forward_with_packed_input(packed,
                                              std::tuple{zeros({1, 2, 4}), zeros({1, 3, 4})});
      },
      "LSTM: expected hx of shape [1, 3, 4] and dtype float32, got [1, 2, 4] and float32");
}

}  // namespace
}  // namespace accel
