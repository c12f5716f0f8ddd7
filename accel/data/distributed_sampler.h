// DistributedSampler: each of num_replicas ranks takes a disjoint slice (every
// num_replicas-th index from its rank) of one epoch order shared by all ranks, as
// torch.utils.data.distributed.DistributedSampler.
#pragma once

#include "accel/data/sampler.h"

namespace accel::data {

class DistributedSampler : public Sampler {
 public:
  // What happens when size is not a multiple of num_replicas.
  enum class Remainder {
    Pad,   // wrap around to the start so every rank gets ceil(size / R) (training)
    Drop,  // drop the tail so every rank gets floor(size / R) (PyTorch's drop_last)
    Keep,  // no padding: ranks get floor or ceil, each index seen once (evaluation)
  };

  DistributedSampler(int64_t size, int64_t num_replicas, int64_t rank, bool shuffle = true,
                     uint64_t seed = kDefaultSeed, Remainder remainder = Remainder::Pad);
  int64_t size() const override;  // indices for this rank
  std::vector<int64_t> indices() const override;

 private:
  int64_t dataset_size_;
  int64_t num_replicas_;
  int64_t rank_;
  bool shuffle_;
  uint64_t seed_;
  Remainder remainder_;
};

}  // namespace accel::data
