// DataLoaderKwargs: field-by-field merging and conversion to DataLoaderOptions.
#include "accel/trainer/data_loader_kwargs.h"

namespace accel {
namespace {

template <typename T>
void take(std::optional<T>& field, const std::optional<T>& override_value) {
  if (override_value) field = override_value;
}

}  // namespace

DataLoaderKwargs DataLoaderKwargs::merged_with(const DataLoaderKwargs& overrides) const {
  DataLoaderKwargs merged = *this;
  take(merged.batch_size, overrides.batch_size);
  take(merged.shuffle, overrides.shuffle);
  if (overrides.sampler) merged.sampler = overrides.sampler;
  take(merged.drop_last, overrides.drop_last);
  take(merged.num_workers, overrides.num_workers);
  take(merged.prefetch_factor, overrides.prefetch_factor);
  take(merged.pin_memory, overrides.pin_memory);
  take(merged.seed, overrides.seed);
  return merged;
}

data::DataLoaderOptions DataLoaderKwargs::to_options() const {
  data::DataLoaderOptions options;
  if (batch_size) options.batch_size(*batch_size);
  if (shuffle) options.shuffle(*shuffle);
  if (sampler) options.sampler(sampler);
  if (drop_last) options.drop_last(*drop_last);
  if (num_workers) options.num_workers(*num_workers);
  if (prefetch_factor) options.prefetch_factor(*prefetch_factor);
  if (pin_memory) options.pin_memory(*pin_memory);
  if (seed) options.seed(*seed);
  return options;
}

}  // namespace accel
