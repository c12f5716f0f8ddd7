// TransformedDataset: forwards to the parent and applies the transform per sample or per
// batch.
#include "accel/data/transformed_dataset.h"

#include "accel/data/collate.h"

namespace accel::data {

TransformedDataset::TransformedDataset(DatasetPtr dataset, Transform transform, TransformMode mode)
    : dataset_(std::move(dataset)), transform_(std::move(transform)), mode_(mode) {
  ACCEL_CHECK(dataset_ != nullptr, "TransformedDataset",
              "expected a dataset, found a null pointer");
  ACCEL_CHECK(transform_ != nullptr, "TransformedDataset",
              "expected a transform, found an empty one");
}

int64_t TransformedDataset::size() const { return dataset_->size(); }

Example TransformedDataset::get(int64_t index) const { return transform_(dataset_->get(index)); }

std::optional<Example> TransformedDataset::get_batch(std::span<const int64_t> indices) const {
  if (mode_ == TransformMode::PerSample) return std::nullopt;
  std::optional<Example> batch = dataset_->get_batch(indices);
  if (!batch) batch = default_collate(get_samples(*dataset_, indices));
  return transform_(std::move(*batch));
}

}  // namespace accel::data
