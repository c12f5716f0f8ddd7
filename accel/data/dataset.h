// The dataset interface: a sized collection of Examples (data, target) read by index, with
// an optional whole-batch fast path the DataLoader prefers, so tensor-backed datasets never
// collate sample by sample. Datasets are immutable once built and shared across threads.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>

#include "accel/core/tensor.h"

namespace accel::data {

// One sample, or a batch of them stacked along dim 0.
struct Example {
  Tensor data;
  Tensor target;
};

// The seed of random_split, RandomSampler and the DataLoader's shuffling unless given one.
inline constexpr uint64_t kDefaultSeed = 42;

class Dataset {
 public:
  virtual ~Dataset() = default;
  virtual int64_t size() const = 0;
  // Sample `index`, in [0, size()). Called concurrently from loader workers.
  virtual Example get(int64_t index) const = 0;
  // The samples at `indices` already stacked along dim 0, or nullopt when this dataset has
  // no faster way than get() per sample. The result must equal stacking the get()s.
  virtual std::optional<Example> get_batch(std::span<const int64_t> indices) const;
};

using DatasetPtr = std::shared_ptr<const Dataset>;

// A concrete dataset passed by value (MNIST, TensorDataset, ...).
template <typename D>
concept DatasetValue = std::derived_from<std::remove_cvref_t<D>, Dataset>;

// A dataset given by value is copied into shared ownership; a shared one is passed on, so
// functions taking datasets accept `MNIST(...)` and `std::shared_ptr<Subset>` alike.
template <DatasetValue D>
DatasetPtr share(D&& dataset) {
  return std::make_shared<const std::remove_cvref_t<D>>(std::forward<D>(dataset));
}
inline DatasetPtr share(DatasetPtr dataset) { return dataset; }

// Throws "op: expected an index in [0, size), found index" unless 0 <= index < size.
void check_index(const char* op, int64_t index, int64_t size);

}  // namespace accel::data
