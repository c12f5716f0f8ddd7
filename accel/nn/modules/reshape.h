// Layers that pass data through or only change its shape: Identity and Flatten.
#pragma once

#include <fmt/format.h>

#include "accel/nn/module.h"

namespace accel::nn {

class IdentityImpl : public Module {
 public:
  Tensor forward(const Tensor& input) override { return input; }
};
ACCEL_MODULE(Identity);

// Flattens dims start_dim..end_dim into one (the batch dim stays by default).
class FlattenImpl : public Module {
 public:
  explicit FlattenImpl(int64_t start_dim = 1, int64_t end_dim = -1)
      : start_dim(start_dim), end_dim(end_dim) {}
  Tensor forward(const Tensor& input) override { return input.flatten(start_dim, end_dim); }
  std::string extra_repr() const override {
    return fmt::format("start_dim={}, end_dim={}", start_dim, end_dim);
  }
  int64_t start_dim;
  int64_t end_dim;
};
ACCEL_MODULE(Flatten);

}  // namespace accel::nn
