// DataLoader: iterates a dataset in batches, epoch after epoch (torch.utils.data.DataLoader
// over threads). Batch order and contents depend only on the dataset, the options and the
// epoch, never on num_workers; state_dict()/load_state_dict() resume an epoch mid-way.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>

#include "accel/data/batch_sampler.h"
#include "accel/data/dataloader_options.h"

namespace accel::data {

// Where an iteration stands: `batches_consumed` batches of epoch `epoch` were yielded.
struct LoaderState {
  int64_t epoch = 0;
  int64_t batches_consumed = 0;
  bool operator==(const LoaderState&) const = default;
};

class DataLoader {
 public:
  class Iterator;

  DataLoader(DatasetPtr dataset, DataLoaderOptions options = {});
  template <DatasetValue D>
  DataLoader(D&& dataset, DataLoaderOptions options = {})
      : DataLoader(share(std::forward<D>(dataset)), std::move(options)) {}
  ~DataLoader();
  DataLoader(DataLoader&&) noexcept;
  DataLoader& operator=(DataLoader&&) noexcept;

  // Starts an iteration over one epoch. Its epoch is the one given to set_epoch or
  // load_state_dict since the last begin(), else the previous iteration's epoch + 1 (0 for the
  // first), so plain repeated range-fors reshuffle. Each iteration is independent, as each
  // iter() of a torch DataLoader: it owns its batches and workers until its last iterator is
  // gone, so loops over one loader may nest and an iterator outlives the loader.
  Iterator begin();
  Iterator end();

  // Batches per epoch (the last one short unless drop_last).
  int64_t size() const;
  // The epoch the next begin() iterates.
  void set_epoch(int64_t epoch);
  // The latest iteration: its epoch and how many batches it has yielded (counting the one
  // being used). Before any begin(): {next epoch, 0}.
  LoaderState state_dict() const;
  // The next begin() iterates state.epoch from batch state.batches_consumed on, without
  // loading the batches it skips. A set_epoch to another epoch before then cancels the skip.
  void load_state_dict(const LoaderState& state);

  const DatasetPtr& dataset() const { return dataset_; }
  const DataLoaderOptions& options() const { return options_; }
  int64_t batch_size() const { return options_.batch_size(); }

 private:
  struct Run;

  DatasetPtr dataset_;
  DataLoaderOptions options_;
  BatchSampler batch_sampler_;
  int64_t next_epoch_ = 0;
  std::optional<LoaderState> resume_;  // from load_state_dict, until the next begin()
  std::shared_ptr<Run> latest_;        // the last begin()'s iteration, shared with its iterators
};

// Input iterator over one iteration's batches (copies share the iteration); end() compares
// equal once it is done.
class DataLoader::Iterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = Example;
  using difference_type = std::ptrdiff_t;
  using pointer = const Example*;
  using reference = const Example&;

  const Example& operator*() const;
  const Example* operator->() const { return &**this; }
  Iterator& operator++();
  void operator++(int) { ++*this; }
  bool operator==(const Iterator& other) const { return at_end() == other.at_end(); }

 private:
  friend class DataLoader;
  explicit Iterator(std::shared_ptr<Run> run) : run_(std::move(run)) {}
  bool at_end() const;

  std::shared_ptr<Run> run_;
};

}  // namespace accel::data
