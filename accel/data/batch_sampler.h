// BatchSampler: groups a sampler's epoch order into batches of batch_size; the last batch
// is shorter unless drop_last drops it (torch.utils.data.BatchSampler).
#pragma once

#include <memory>
#include <vector>

#include "accel/data/sampler.h"

namespace accel::data {

class BatchSampler {
 public:
  BatchSampler(std::shared_ptr<Sampler> sampler, int64_t batch_size, bool drop_last);
  // Batches per epoch.
  int64_t size() const;
  // Sets the wrapped sampler's epoch.
  void set_epoch(int64_t epoch) { sampler_->set_epoch(epoch); }
  // This epoch's batches of indices, in order.
  std::vector<std::vector<int64_t>> batches() const;
  const std::shared_ptr<Sampler>& sampler() const { return sampler_; }

 private:
  std::shared_ptr<Sampler> sampler_;
  int64_t batch_size_;
  bool drop_last_;
};

}  // namespace accel::data
