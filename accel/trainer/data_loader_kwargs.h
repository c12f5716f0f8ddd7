// DataLoaderKwargs: the data-loader settings a Trainer run takes (the Python original's
// train_dataloader_kwargs dict): every field optional, so the user's values override the
// Trainer's defaults field by field, and a batch_size given here wins over the run's.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "accel/data/dataloader.h"

namespace accel {

struct DataLoaderKwargs {
  std::optional<int64_t> batch_size = std::nullopt;
  std::optional<bool> shuffle = std::nullopt;
  std::shared_ptr<data::Sampler> sampler = nullptr;  // a sampler disables the default shuffling
  std::optional<bool> drop_last = std::nullopt;
  std::optional<int> num_workers = std::nullopt;
  std::optional<int> prefetch_factor = std::nullopt;
  std::optional<bool> pin_memory = std::nullopt;
  std::optional<uint64_t> seed = std::nullopt;

  // This, with each field `overrides` sets taking its value.
  DataLoaderKwargs merged_with(const DataLoaderKwargs& overrides) const;
  // The loader options these settings describe (unset fields keep DataLoaderOptions' defaults).
  data::DataLoaderOptions to_options() const;
};

}  // namespace accel
