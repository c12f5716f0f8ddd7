// TransformedDataset: a dataset whose samples pass through a transform (LibTorch's
// dataset.map). PerSample keeps the loader on get() per sample; PerBatch applies the
// transform once to each collated batch, keeping the parent's batched fast path.
#pragma once

#include "accel/data/transforms.h"

namespace accel::data {

enum class TransformMode {
  PerSample,  // transform(get(i)) for each sample, then collate
  PerBatch,   // transform(batch); for transforms that accept a sample or a batch alike
};

class TransformedDataset : public Dataset {
 public:
  TransformedDataset(DatasetPtr dataset, Transform transform,
                     TransformMode mode = TransformMode::PerSample);
  int64_t size() const override;
  Example get(int64_t index) const override;
  // PerBatch: the transformed batch (from the parent's fast path, or its samples stacked).
  // PerSample: nullopt, so the loader transforms sample by sample.
  std::optional<Example> get_batch(std::span<const int64_t> indices) const override;
  const DatasetPtr& dataset() const { return dataset_; }

 private:
  DatasetPtr dataset_;
  Transform transform_;
  TransformMode mode_;
};

template <typename D>
std::shared_ptr<TransformedDataset> map(D&& dataset, Transform transform,
                                        TransformMode mode = TransformMode::PerSample) {
  return std::make_shared<TransformedDataset>(share(std::forward<D>(dataset)), std::move(transform),
                                              mode);
}

}  // namespace accel::data
