// searchsorted and bucketize: where each value would be inserted into a sorted sequence. One
// stable sort of the sequence and the values side by side along the last dim puts every value
// after the boundaries below it; a running count of boundaries then reads off its position, in
// O((n + m) log(n + m)) for n boundaries and m values (not an n x m comparison matrix).
#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

constexpr const char* kSearchsorted = "searchsorted";

// Whether a value's position counts the boundaries equal to it: "right" or right == true.
bool counts_equal_boundaries(bool right, std::optional<std::string_view> side) {
  if (!side) return right;
  ACCEL_CHECK(*side == "left" || *side == "right", kSearchsorted,
              "side can only be 'left' or 'right', got '{}'", *side);
  ACCEL_CHECK(!right || *side == "right", kSearchsorted,
              "side and right can't be set to opposites, got side 'left' while right is true");
  return *side == "right";
}

void check_operands(const Tensor& sequence, const Tensor& values, const Tensor& sorter) {
  ACCEL_CHECK(sequence.defined() && values.defined(), kSearchsorted, "a tensor is undefined");
  ACCEL_CHECK(sequence.dim() > 0, kSearchsorted,
              "the sorted sequence must have at least one dimension, got a 0-dim tensor");
  ACCEL_CHECK(sequence.dtype() != kBool && values.dtype() != kBool, kSearchsorted,
              "bool tensors are not supported (sorted sequence {}, values {})", sequence.dtype(),
              values.dtype());
  check_same_device(sequence, values, kSearchsorted);
  if (sequence.dim() > 1) {
    const auto leading = [](const Tensor& t) {
      return IntArrayRef(t.sizes().data(), static_cast<size_t>(t.dim() - 1));
    };
    ACCEL_CHECK(values.dim() == sequence.dim() && leading(values) == leading(sequence),
                kSearchsorted,
                "the sorted sequence must be 1-D or share all but its last dim with the values, "
                "got sorted sequence {} and values {}",
                sequence.sizes(), values.sizes());
  }
  if (!sorter.defined()) return;
  ACCEL_CHECK(sorter.dtype() == kInt64, kSearchsorted, "the sorter must be int64, got {}",
              sorter.dtype());
  ACCEL_CHECK(sorter.sizes() == sequence.sizes(), kSearchsorted,
              "the sorter must have the sorted sequence's shape {}, got {}", sequence.sizes(),
              sorter.sizes());
  check_same_device(sequence, sorter, kSearchsorted);
  const int64_t n = sequence.size(-1);
  ACCEL_CHECK(sorter.numel() == 0 ||
                  (sorter.min().item<int64_t>() >= 0 && sorter.max().item<int64_t>() < n),
              kSearchsorted, "sorter indices must lie in [0, {}), got values outside", n);
}

// The insertion positions for [batch, m] values into [batch, n] sorted boundaries.
Tensor insertion_positions(const Tensor& boundaries, const Tensor& values, bool right) {
  const int64_t n = boundaries.size(-1);
  // Among equal elements the stable sort keeps the concatenation's order: boundaries first
  // counts them below an equal value (right), values first does not (left).
  const int64_t m = values.size(-1);
  const Tensor both = right ? cat({boundaries, values}, -1) : cat({values, boundaries}, -1);
  const Tensor order = argsort(both, -1);
  const Tensor is_boundary = right ? lt(order, n) : ge(order, m);
  // At a value's place in the order, the running count is the number of boundaries before it.
  const Tensor boundaries_before = cumsum(is_boundary, -1);
  const Tensor by_origin = zeros_like(boundaries_before).scatter(-1, order, boundaries_before);
  const int64_t first_value = right ? n : 0;
  return by_origin.narrow(-1, first_value, m);
}

}  // namespace

Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, bool out_int32, bool right,
                    std::optional<std::string_view> side, const Tensor& sorter) {
  check_operands(sorted_sequence, values, sorter);
  const bool count_equal = counts_equal_boundaries(right, side);
  NoGradGuard integer_result;
  const ScalarType common = promote_types(sorted_sequence.dtype(), values.dtype());
  Tensor boundaries = sorted_sequence.to(common);
  if (sorter.defined()) boundaries = boundaries.gather(-1, sorter);
  const int64_t n = boundaries.size(-1);
  // A 1-D sequence serves every value: the values become one row.
  const bool shared = boundaries.dim() == 1;
  const Tensor rows = shared ? values.to(common).reshape({1, -1}) : values.to(common);
  if (shared) boundaries = boundaries.unsqueeze(0);
  Tensor positions = insertion_positions(boundaries, rows, count_equal);
  // A NaN value goes past every boundary, whichever the side (as PyTorch's binary search).
  if (is_floating_point(common)) positions = positions.masked_fill(isnan(rows), n);
  if (shared) positions = positions.reshape(values.sizes());
  return positions.to(out_int32 ? kInt32 : kInt64);
}

Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& value, bool out_int32, bool right,
                    std::optional<std::string_view> side, const Tensor& sorter) {
  ACCEL_CHECK(sorted_sequence.defined(), kSearchsorted, "the sorted sequence is undefined");
  ACCEL_CHECK(sorted_sequence.dim() == 1, kSearchsorted,
              "a single value needs a 1-D sorted sequence, got {}", sorted_sequence.sizes());
  // The value converts as a C++ number does in arithmetic: to the sequence's dtype unless it is
  // of a higher category.
  const Tensor values = scalar_tensor(
      value, TensorOptions(result_type(sorted_sequence, value)).device(sorted_sequence.device()));
  return searchsorted(sorted_sequence, values, out_int32, right, side, sorter);
}

Tensor bucketize(const Tensor& input, const Tensor& boundaries, bool out_int32, bool right) {
  ACCEL_CHECK(boundaries.defined(), "bucketize", "the boundaries are undefined");
  ACCEL_CHECK(boundaries.dim() == 1, "bucketize", "the boundaries must be 1-D, got {}",
              boundaries.sizes());
  return searchsorted(boundaries, input, out_int32, right);
}

Tensor bucketize(const Scalar& input, const Tensor& boundaries, bool out_int32, bool right) {
  ACCEL_CHECK(boundaries.defined(), "bucketize", "the boundaries are undefined");
  ACCEL_CHECK(boundaries.dim() == 1, "bucketize", "the boundaries must be 1-D, got {}",
              boundaries.sizes());
  return searchsorted(boundaries, input, out_int32, right);
}

}  // namespace accel
