// BatchSampler: consecutive runs of the sampler's order.
#include "accel/data/batch_sampler.h"

namespace accel::data {

BatchSampler::BatchSampler(std::shared_ptr<Sampler> sampler, int64_t batch_size, bool drop_last)
    : sampler_(std::move(sampler)), batch_size_(batch_size), drop_last_(drop_last) {
  ACCEL_CHECK(sampler_ != nullptr, "BatchSampler", "expected a sampler, found a null pointer");
  ACCEL_CHECK(batch_size >= 1, "BatchSampler", "expected batch_size >= 1, found {}", batch_size);
}

int64_t BatchSampler::size() const {
  const int64_t n = sampler_->size();
  return drop_last_ ? n / batch_size_ : (n + batch_size_ - 1) / batch_size_;
}

std::vector<std::vector<int64_t>> BatchSampler::batches() const {
  const std::vector<int64_t> order = sampler_->indices();
  const int64_t count = size();
  std::vector<std::vector<int64_t>> out;
  out.reserve(count);
  for (int64_t b = 0; b < count; ++b) {
    const auto begin = order.begin() + b * batch_size_;
    const auto end = order.begin() + std::min<int64_t>((b + 1) * batch_size_, std::ssize(order));
    out.emplace_back(begin, end);
  }
  return out;
}

}  // namespace accel::data
