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

  // Starts an iteration over one epoch (ending any iteration in progress). Its epoch is the
  // one given to set_epoch or load_state_dict since the last begin(), else the previous
  // iteration's epoch + 1 (0 for the first), so plain repeated range-fors reshuffle.
  Iterator begin();
  Iterator end();

  // Batches per epoch (the last one short unless drop_last).
  int64_t size() const;
  // The epoch the next begin() iterates.
  void set_epoch(int64_t epoch);
  // The iteration in progress: its epoch and how many batches it has yielded (counting the
  // one being used). Before any begin(): {next epoch, 0}.
  LoaderState state_dict() const;
  // The next begin() iterates state.epoch from batch state.batches_consumed on, without
  // loading the batches it skips. A set_epoch to another epoch before then cancels the skip.
  void load_state_dict(const LoaderState& state);

  const DatasetPtr& dataset() const { return dataset_; }
  const DataLoaderOptions& options() const { return options_; }
  int64_t batch_size() const { return options_.batch_size(); }

 private:
  struct Run;
  bool run_finished() const;
  const Example& current() const;
  void advance();

  DatasetPtr dataset_;
  DataLoaderOptions options_;
  BatchSampler batch_sampler_;
  int64_t next_epoch_ = 0;
  std::optional<LoaderState> resume_;  // from load_state_dict, until the next begin()
  std::unique_ptr<Run> run_;
};

// Input iterator over the current iteration's batches; end() compares equal once it is done.
class DataLoader::Iterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = Example;
  using difference_type = std::ptrdiff_t;
  using pointer = const Example*;
  using reference = const Example&;

  const Example& operator*() const { return loader_->current(); }
  const Example* operator->() const { return &loader_->current(); }
  Iterator& operator++() {
    loader_->advance();
    return *this;
  }
  void operator++(int) { loader_->advance(); }
  bool operator==(const Iterator& other) const { return at_end() == other.at_end(); }

 private:
  friend class DataLoader;
  explicit Iterator(DataLoader* loader) : loader_(loader) {}
  bool at_end() const { return loader_ == nullptr || loader_->run_finished(); }

  DataLoader* loader_;
};

}  // namespace accel::data
