// DistributedSampler: every rank builds the same epoch order (the shared seed), pads it by
// wrapping or cuts it per Remainder, and keeps positions rank, rank + R, rank + 2R, ...
#include "accel/data/distributed_sampler.h"

#include <numeric>

namespace accel::data {

DistributedSampler::DistributedSampler(int64_t size, int64_t num_replicas, int64_t rank,
                                       bool shuffle, uint64_t seed, Remainder remainder)
    : dataset_size_(size),
      num_replicas_(num_replicas),
      rank_(rank),
      shuffle_(shuffle),
      seed_(seed),
      remainder_(remainder) {
  ACCEL_CHECK(size >= 0, "DistributedSampler", "expected size >= 0, found {}", size);
  ACCEL_CHECK(num_replicas >= 1, "DistributedSampler", "expected num_replicas >= 1, found {}",
              num_replicas);
  ACCEL_CHECK(rank >= 0 && rank < num_replicas, "DistributedSampler",
              "expected a rank in [0, {}), found {}", num_replicas, rank);
}

int64_t DistributedSampler::size() const {
  switch (remainder_) {
    case Remainder::Pad:
      return (dataset_size_ + num_replicas_ - 1) / num_replicas_;
    case Remainder::Drop:
      return dataset_size_ / num_replicas_;
    case Remainder::Keep:
      break;
  }
  return (dataset_size_ - rank_ + num_replicas_ - 1) / num_replicas_;
}

std::vector<int64_t> DistributedSampler::indices() const {
  std::vector<int64_t> order;
  if (shuffle_) {
    order = epoch_permutation(dataset_size_, seed_, epoch());
  } else {
    order.resize(dataset_size_);
    std::iota(order.begin(), order.end(), 0);
  }
  std::vector<int64_t> out;
  out.reserve(size());
  for (int64_t k = 0; k < size(); ++k) {
    // With Pad, positions past the end wrap to the start (repeatedly, for tiny datasets).
    out.push_back(order[(rank_ + k * num_replicas_) % dataset_size_]);
  }
  return out;
}

}  // namespace accel::data
