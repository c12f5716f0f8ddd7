// SequentialSampler, RandomSampler and the seeded per-epoch permutation they share with
// DistributedSampler.
#include "accel/data/sampler.h"

#include <numeric>

#include "accel/core/random.h"

namespace accel::data {

std::vector<int64_t> epoch_permutation(int64_t size, uint64_t seed, int64_t epoch) {
  ACCEL_CHECK(epoch >= 0, "epoch_permutation", "expected epoch >= 0, found {}", epoch);
  Generator generator(seed);
  generator.set_state({seed, static_cast<uint64_t>(epoch) << 40});
  const Tensor permutation = randperm(size, kInt64, &generator);
  const int64_t* values = permutation.data_ptr<int64_t>();
  return std::vector<int64_t>(values, values + size);
}

SequentialSampler::SequentialSampler(int64_t size) : size_(size) {
  ACCEL_CHECK(size >= 0, "SequentialSampler", "expected size >= 0, found {}", size);
}

std::vector<int64_t> SequentialSampler::indices() const {
  std::vector<int64_t> out(size_);
  std::iota(out.begin(), out.end(), 0);
  return out;
}

RandomSampler::RandomSampler(int64_t size, uint64_t seed) : size_(size), seed_(seed) {
  ACCEL_CHECK(size >= 0, "RandomSampler", "expected size >= 0, found {}", size);
}

std::vector<int64_t> RandomSampler::indices() const {
  return epoch_permutation(size_, seed_, epoch());
}

}  // namespace accel::data
