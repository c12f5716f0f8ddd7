// torch.nn.functional.pad: pads (or, with negative amounts, crops) the last dims of a tensor.
// `pad` holds (before, after) pairs starting from the last dim: {1, 2} pads the last dim with one
// element before and two after; {1, 1, 2, 2} also pads the dim before it with two on each side.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "accel/core/tensor.h"

namespace accel::nn::functional {

// Constant fills with a value; Reflect mirrors about the edge element (excluded), Replicate
// repeats the edge element, Circular wraps around. The last three pad the last 1, 2 or 3 dims
// of an input with one or two more dims (a batch and channels, or channels only), as in PyTorch.
enum class PadMode { Constant, Reflect, Replicate, Circular };

struct PadFuncOptions {
  // Implicit, as LibTorch's: pad(x, {1, 1}) reads as F.pad(x, (1, 1)).
  PadFuncOptions(std::vector<int64_t> pad) : pad_(std::move(pad)) {}  // NOLINT
  PadFuncOptions(std::initializer_list<int64_t> pad) : pad_(pad) {}   // NOLINT

  PadFuncOptions& mode(PadMode value) {
    mode_ = value;
    return *this;
  }
  PadFuncOptions& value(double fill) {
    value_ = fill;
    return *this;
  }
  const std::vector<int64_t>& pad() const { return pad_; }
  PadMode mode() const { return mode_; }
  double value() const { return value_; }

 private:
  std::vector<int64_t> pad_;
  PadMode mode_ = PadMode::Constant;
  double value_ = 0;
};

// Differentiable, on any device.
Tensor pad(const Tensor& input, const PadFuncOptions& options);

}  // namespace accel::nn::functional
