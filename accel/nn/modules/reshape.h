// Layers that pass data through or only change its shape: Identity, Flatten, Unflatten,
// PixelShuffle and PixelUnshuffle.
#pragma once

#include <fmt/format.h>

#include <vector>

#include "accel/nn/functional/channel_shuffle.h"
#include "accel/nn/functional/pixel_shuffle.h"
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

// Splits dim into sizes (one may be -1).
class UnflattenImpl : public Module {
 public:
  UnflattenImpl(int64_t dim, IntArrayRef sizes) : dim(dim), sizes(sizes.vec()) {}
  Tensor forward(const Tensor& input) override { return input.unflatten(dim, sizes); }
  std::string extra_repr() const override {
    return fmt::format("dim={}, unflattened_size={}", dim, sizes);
  }
  int64_t dim;
  std::vector<int64_t> sizes;
};
ACCEL_MODULE(Unflatten);

class PixelShuffleImpl : public Module {
 public:
  explicit PixelShuffleImpl(int64_t upscale_factor) : upscale_factor(upscale_factor) {}
  Tensor forward(const Tensor& input) override {
    return functional::pixel_shuffle(input, upscale_factor);
  }
  std::string extra_repr() const override {
    return fmt::format("upscale_factor={}", upscale_factor);
  }
  int64_t upscale_factor;
};
ACCEL_MODULE(PixelShuffle);

class PixelUnshuffleImpl : public Module {
 public:
  explicit PixelUnshuffleImpl(int64_t downscale_factor) : downscale_factor(downscale_factor) {}
  Tensor forward(const Tensor& input) override {
    return functional::pixel_unshuffle(input, downscale_factor);
  }
  std::string extra_repr() const override {
    return fmt::format("downscale_factor={}", downscale_factor);
  }
  int64_t downscale_factor;
};
ACCEL_MODULE(PixelUnshuffle);

class ChannelShuffleImpl : public Module {
 public:
  explicit ChannelShuffleImpl(int64_t groups) : groups(groups) {}
  Tensor forward(const Tensor& input) override {
    return functional::channel_shuffle(input, groups);
  }
  std::string extra_repr() const override { return fmt::format("groups={}", groups); }
  int64_t groups;
};
ACCEL_MODULE(ChannelShuffle);

}  // namespace accel::nn
