// Packing and padding of sequences: a packed tensor is the cat of each time step's rows that
// still hold a sequence; padding stacks each step's rows with padding_value rows after them.
// Lengths and batch sizes are read on the host, as PyTorch does.
#include "accel/nn/utils/rnn.h"

#include <algorithm>

#include "accel/base/error.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel::nn::utils::rnn {

namespace {

// The values of a 1-D integer tensor, read on the host.
std::vector<int64_t> values_of(const Tensor& t, const char* op, const char* name) {
  ACCEL_CHECK(t.defined() && t.dim() == 1 && !t.is_floating_point() && t.dtype() != kBool, op,
              "expected {} as a 1-D integer tensor, got {}", name,
              t.defined() ? fmt::format("{} {}", t.dtype(), t.sizes()) : "an undefined tensor");
  const Tensor host = t.to(kCPU).to(kInt64).contiguous();
  const int64_t* data = host.data_ptr<int64_t>();
  return {data, data + host.numel()};
}

// Rows [0, count) of `step` followed by rows of padding_value up to `batch` rows.
Tensor padded_rows(const Tensor& step, int64_t count, int64_t batch, double padding_value) {
  const Tensor rows = step.narrow(0, 0, count);
  if (count == batch) return rows;
  DimVector sizes(step.sizes());
  sizes[0] = batch - count;
  return cat({rows, full(sizes, padding_value, step.options())});
}

// The sizes after the first dim.
IntArrayRef trailing_sizes(const Tensor& t) {
  return t.dim() == 0 ? IntArrayRef() : IntArrayRef(t.sizes().data() + 1, t.sizes().size() - 1);
}

}  // namespace

Tensor invert_permutation(const Tensor& permutation) {
  return permutation.defined() ? argsort(permutation) : Tensor();
}

PackedSequence::PackedSequence(Tensor data, Tensor batch_sizes, Tensor sorted_indices,
                               Tensor unsorted_indices)
    : data_(std::move(data)),
      batch_sizes_(std::move(batch_sizes)),
      sorted_indices_(std::move(sorted_indices)),
      unsorted_indices_(unsorted_indices.defined() ? std::move(unsorted_indices)
                                                   : invert_permutation(sorted_indices_)) {
  ACCEL_CHECK(batch_sizes_.defined() && batch_sizes_.device().is_cpu() &&
                  batch_sizes_.dtype() == kInt64 && batch_sizes_.dim() == 1,
              "PackedSequence",
              "batch_sizes must be a 1-D int64 tensor on the CPU (make packed sequences with "
              "pack_padded_sequence or pack_sequence)");
}

PackedSequence PackedSequence::to(Device device) const {
  auto moved = [device](const Tensor& t) { return t.defined() ? t.to(device) : Tensor(); };
  return PackedSequence(moved(data_), batch_sizes_, moved(sorted_indices_),
                        moved(unsorted_indices_));
}

PackedSequence pack_padded_sequence(Tensor input, Tensor lengths, bool batch_first,
                                    bool enforce_sorted) {
  constexpr const char* op = "pack_padded_sequence";
  ACCEL_CHECK(input.defined() && input.dim() >= 2, op,
              "expected an input of at least 2 dims (time and batch), got {}",
              input.defined() ? input.sizes() : IntArrayRef());
  std::vector<int64_t> length = values_of(lengths, op, "lengths");
  const int64_t batch_dim = batch_first ? 0 : 1;
  const int64_t batch = input.size(batch_dim), steps = input.size(1 - batch_dim);
  ACCEL_CHECK(static_cast<int64_t>(length.size()) == batch, op,
              "expected len(lengths) to be equal to batch_size, but got {} (batch_size={})",
              length.size(), batch);
  for (const int64_t l : length) {
    ACCEL_CHECK(l > 0 && l <= steps, op,
                "every length must be in [1, {}] (the input's time steps), got lengths {}", steps,
                length);
  }
  Tensor sorted_indices;
  if (enforce_sorted) {
    ACCEL_CHECK(std::ranges::is_sorted(length, std::greater<>()), op,
                "lengths must be sorted in decreasing order when enforce_sorted is true, got "
                "{}; pass enforce_sorted=false to sort them here",
                length);
  } else {
    Tensor sorted_lengths;
    std::tie(sorted_lengths, sorted_indices) =
        sort(tensor(length), /*stable=*/true, /*dim=*/0, /*descending=*/true);
    length = values_of(sorted_lengths, op, "lengths");
    sorted_indices = sorted_indices.to(input.device());
    input = input.index_select(batch_dim, sorted_indices);
  }
  const Tensor x = batch_first ? input.transpose(0, 1) : input;  // [T, B, *]
  std::vector<int64_t> batch_sizes;
  std::vector<Tensor> rows;
  for (int64_t t = 0; t < length.front(); ++t) {
    batch_sizes.push_back(std::ranges::count_if(length, [t](int64_t l) { return l > t; }));
    rows.push_back(x[t].narrow(0, 0, batch_sizes.back()));
  }
  return PackedSequence(cat(rows), tensor(batch_sizes), sorted_indices);
}

std::tuple<Tensor, Tensor> pad_packed_sequence(const PackedSequence& sequence, bool batch_first,
                                               double padding_value,
                                               std::optional<int64_t> total_length) {
  constexpr const char* op = "pad_packed_sequence";
  const std::vector<int64_t> batch_sizes = values_of(sequence.batch_sizes(), op, "batch_sizes");
  const Tensor& data = sequence.data();
  int64_t total = 0;
  for (const int64_t b : batch_sizes) total += b;
  ACCEL_CHECK(!batch_sizes.empty() && data.defined() && data.dim() >= 1 && data.size(0) == total,
              op, "the packed data {} does not hold the {} rows its batch sizes {} add up to",
              data.defined() ? data.sizes() : IntArrayRef(), total, batch_sizes);
  ACCEL_CHECK(std::ranges::is_sorted(batch_sizes, std::greater<>()) && batch_sizes.back() >= 1, op,
              "batch sizes must be positive and non-increasing, got {}", batch_sizes);
  const auto steps = static_cast<int64_t>(batch_sizes.size());
  ACCEL_CHECK(total_length.value_or(steps) >= steps, op,
              "expected total_length to be at least the length of the longest sequence in "
              "input, but got total_length={} and max sequence length being {}",
              total_length.value_or(steps), steps);
  const int64_t batch = batch_sizes.front();
  std::vector<Tensor> padded_steps;
  int64_t offset = 0;
  for (const int64_t b : batch_sizes) {
    padded_steps.push_back(padded_rows(data.narrow(0, offset, b), b, batch, padding_value));
    offset += b;
  }
  DimVector step_sizes(data.sizes());
  step_sizes[0] = batch;
  for (int64_t t = steps; t < total_length.value_or(steps); ++t) {
    padded_steps.push_back(full(step_sizes, padding_value, data.options()));
  }
  Tensor padded = stack(padded_steps);
  std::vector<int64_t> lengths(static_cast<size_t>(batch));
  for (int64_t n = 0; n < batch; ++n) {
    lengths[static_cast<size_t>(n)] =
        std::ranges::count_if(batch_sizes, [n](int64_t b) { return b > n; });
  }
  Tensor length_tensor = tensor(lengths);
  if (sequence.unsorted_indices().defined()) {
    padded = padded.index_select(1, sequence.unsorted_indices());
    length_tensor = length_tensor.index_select(0, sequence.unsorted_indices().to(kCPU));
  }
  return {batch_first ? padded.transpose(0, 1) : padded, length_tensor};
}

Tensor pad_sequence(TensorList sequences, bool batch_first, double padding_value,
                    std::string_view padding_side) {
  constexpr const char* op = "pad_sequence";
  ACCEL_CHECK(!sequences.empty(), op, "received an empty list of sequences");
  ACCEL_CHECK(padding_side == "right" || padding_side == "left", op,
              "padding_side must be \"left\" or \"right\", got \"{}\"", padding_side);
  int64_t longest = 0;
  for (size_t i = 0; i < sequences.size(); ++i) {
    const Tensor& s = sequences[i];
    ACCEL_CHECK(s.defined() && s.dim() >= 1 && trailing_sizes(s) == trailing_sizes(sequences[0]),
                op,
                "sequence {} has shape {}, but sequences must share the sizes after the first "
                "dim (sequence 0: {})",
                i, s.defined() ? s.sizes() : IntArrayRef(), sequences[0].sizes());
    longest = std::max(longest, s.size(0));
  }
  std::vector<Tensor> padded;
  for (const Tensor& s : sequences) {
    if (s.size(0) == longest) {
      padded.push_back(s);
      continue;
    }
    DimVector sizes(s.sizes());
    sizes[0] = longest - s.size(0);
    const Tensor padding = full(sizes, padding_value, s.options());
    padded.push_back(padding_side == "right" ? cat({s, padding}) : cat({padding, s}));
  }
  return stack(padded, batch_first ? 0 : 1);
}

PackedSequence pack_sequence(TensorList sequences, bool enforce_sorted) {
  ACCEL_CHECK(!sequences.empty(), "pack_sequence", "received an empty list of sequences");
  std::vector<int64_t> lengths;
  for (const Tensor& s : sequences) lengths.push_back(s.defined() && s.dim() > 0 ? s.size(0) : 0);
  return pack_padded_sequence(pad_sequence(sequences), tensor(lengths), false, enforce_sorted);
}

}  // namespace accel::nn::utils::rnn
