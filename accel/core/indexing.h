// Indexing with a list of indices, as LibTorch's Tensor::index / index_put_ (Python's x[...]):
//   using namespace accel::indexing;
//   x.index({Slice(), 0})            x[:, 0]          a view
//   x.index({Slice(1, None, 2)})     x[1::2]          a view
//   x.index({None, Ellipsis, -1})    x[None, ..., -1] a view
//   x.index({idx})                   x[idx]           integer tensor: a copy (gathered rows)
//   x.index({mask})                  x[mask]          bool tensor: the selected elements
//   x.index_put_({Slice(), 0}, 5)    x[:, 0] = 5
// Integers, slices, None and Ellipsis make views; integer and bool tensors select elements
// (advanced indexing, PyTorch's rules: index tensors broadcast together; their result dims take
// the first indexed dim's place when the indexed dims are adjacent, else they come first).
#pragma once

#include <cstdint>
#include <optional>
#include <variant>

#include "accel/core/tensor.h"

namespace accel::indexing {

// `None` in a slice bound means "from the start / to the end"; as an index it inserts a dim.
inline constexpr std::nullopt_t None = std::nullopt;

struct EllipsisIndexType {};
// Stands for as many full slices as the other indices leave dims (also written "...").
inline constexpr EllipsisIndexType Ellipsis{};

// start:stop:step, each optional; step must be positive (as PyTorch's tensors require).
struct Slice {
  Slice(std::optional<int64_t> start = std::nullopt, std::optional<int64_t> stop = std::nullopt,
        std::optional<int64_t> step = std::nullopt)
      : start(start), stop(stop), step(step) {}
  std::optional<int64_t> start, stop, step;
};

// One index: an integer, a Slice, None, Ellipsis ("..."), a bool or a tensor.
class TensorIndex {
 public:
  template <std::integral I>
  requires(!std::same_as<I, bool>) TensorIndex(I integer) : value_(static_cast<int64_t>(integer)) {}
  TensorIndex(bool flag) : value_(flag) {}
  TensorIndex(Slice slice) : value_(slice) {}
  TensorIndex(std::nullopt_t) : value_(std::nullopt) {}
  TensorIndex(EllipsisIndexType) : value_(EllipsisIndexType{}) {}
  TensorIndex(const char* text);  // "..." only
  TensorIndex(Tensor tensor) : value_(std::move(tensor)) {}

  using Value = std::variant<int64_t, bool, Slice, std::nullopt_t, EllipsisIndexType, Tensor>;
  const Value& value() const { return value_; }

 private:
  Value value_;
};

}  // namespace accel::indexing
