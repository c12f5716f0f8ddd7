// Samplers decide the order in which a DataLoader visits a dataset's indices in one epoch.
// The order depends only on the sampler's settings and the epoch (set_epoch), never on the
// global random generator, so data loading leaves a training run's random stream untouched.
#pragma once

#include <cstdint>
#include <vector>

#include "accel/data/dataset.h"

namespace accel::data {

class Sampler {
 public:
  virtual ~Sampler() = default;
  // Indices per epoch.
  virtual int64_t size() const = 0;
  // This epoch's indices, in visiting order.
  virtual std::vector<int64_t> indices() const = 0;
  // The DataLoader sets the epoch before each iteration; shuffling samplers reshuffle.
  void set_epoch(int64_t epoch) { epoch_ = epoch; }
  int64_t epoch() const { return epoch_; }

 private:
  int64_t epoch_ = 0;
};

// 0, 1, ..., size - 1.
class SequentialSampler : public Sampler {
 public:
  explicit SequentialSampler(int64_t size);
  int64_t size() const override { return size_; }
  std::vector<int64_t> indices() const override;

 private:
  int64_t size_;
};

// A permutation of 0..size-1 that depends only on (seed, epoch).
class RandomSampler : public Sampler {
 public:
  explicit RandomSampler(int64_t size, uint64_t seed = kDefaultSeed);
  int64_t size() const override { return size_; }
  std::vector<int64_t> indices() const override;

 private:
  int64_t size_;
  uint64_t seed_;
};

// The permutation RandomSampler uses: randperm from a Philox generator with the given seed
// whose counter starts at block epoch * 2^40, so epochs draw from disjoint streams.
std::vector<int64_t> epoch_permutation(int64_t size, uint64_t seed, int64_t epoch);

}  // namespace accel::data
