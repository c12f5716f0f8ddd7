// The DataLoader: batch order and contents (identical for any num_workers), shuffling per
// epoch, drop_last, the batched fast path, custom collation, exceptions from workers, early
// break and destruction mid-epoch, nested iterations, and resuming from a saved state. CI also runs
// these tests under ThreadSanitizer (ctest -R DataLoader).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using data::DataLoader;
using data::DataLoaderOptions;
using testing::expect_error_containing;

// Sample i is data [i, -i] (float32) with target i; counts its reads; fails at `bad_index`;
// may sleep per read so workers fall behind or run ahead.
class Probe : public data::Dataset {
 public:
  explicit Probe(int64_t size, bool batched = true, int64_t bad_index = -1,
                 std::chrono::microseconds delay = {})
      : size_(size), batched_(batched), bad_index_(bad_index), delay_(delay) {}
  int64_t size() const override { return size_; }
  data::Example get(int64_t index) const override {
    gets += 1;
    return make(std::vector<int64_t>{index}, false);
  }
  std::optional<data::Example> get_batch(std::span<const int64_t> indices) const override {
    if (!batched_) return std::nullopt;
    batch_gets += 1;
    return make(indices, true);
  }
  mutable std::atomic<int64_t> gets{0}, batch_gets{0};

 private:
  data::Example make(std::span<const int64_t> indices, bool batch) const {
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
    std::vector<float> values;
    std::vector<int64_t> targets;
    for (int64_t i : indices) {
      data::check_index("Probe", i, size_);
      if (i == bad_index_) throw std::runtime_error("Probe: unreadable sample");
      values.insert(values.end(), {static_cast<float>(i), -static_cast<float>(i)});
      targets.push_back(i);
    }
    const auto n = static_cast<int64_t>(indices.size());
    if (!batch) return {tensor(values).view({2}), tensor(targets).view({})};
    return {tensor(values).view({n, 2}), tensor(targets)};
  }

  int64_t size_;
  bool batched_;
  int64_t bad_index_;
  std::chrono::microseconds delay_;
};

std::vector<std::vector<int64_t>> targets_of(DataLoader& loader) {
  std::vector<std::vector<int64_t>> out;
  for (const data::Example& batch : loader) {
    EXPECT_EQ(batch.data.size(0), batch.target.size(0));
    EXPECT_TRUE(batch.data.select(1, 0).equal(batch.target.to(kFloat32)));
    const int64_t* t = batch.target.data_ptr<int64_t>();
    out.emplace_back(t, t + batch.target.numel());
  }
  return out;
}

TEST(DataLoader, SequentialBatchesWithAPartialLastOne) {
  DataLoader loader(std::make_shared<Probe>(10), DataLoaderOptions().batch_size(4));
  EXPECT_EQ(loader.size(), 3);
  EXPECT_EQ(loader.batch_size(), 4);
  EXPECT_EQ(targets_of(loader),
            (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}));
}

TEST(DataLoader, DropLastDropsTheShortBatch) {
  DataLoader loader(std::make_shared<Probe>(10), DataLoaderOptions(4).drop_last(true));
  EXPECT_EQ(loader.size(), 2);
  EXPECT_EQ(targets_of(loader), (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}}));
}

TEST(DataLoader, UsesTheBatchedPathUnlessACollateFnIsSet) {
  auto probe = std::make_shared<Probe>(10);
  DataLoader fast(probe, DataLoaderOptions(5));
  targets_of(fast);
  EXPECT_EQ(probe->batch_gets, 2);
  EXPECT_EQ(probe->gets, 0);
  int collated = 0;
  DataLoader custom(probe, DataLoaderOptions(5).collate_fn([&](std::vector<data::Example>&& s) {
    ++collated;
    return data::default_collate(std::move(s));
  }));
  targets_of(custom);
  EXPECT_EQ(collated, 2);
  EXPECT_EQ(probe->gets, 10);
  // Without a fast path the loader collates samples itself.
  auto plain = std::make_shared<Probe>(10, /*batched=*/false);
  DataLoader fallback(plain, DataLoaderOptions(5));
  EXPECT_EQ(targets_of(fallback).size(), 2u);
  EXPECT_EQ(plain->gets, 10);
}

TEST(DataLoader, ShuffleIsReproducibleAndChangesPerEpoch) {
  auto probe = std::make_shared<Probe>(64);
  DataLoader loader(probe, DataLoaderOptions(8).shuffle(true).seed(3));
  const auto epoch0 = targets_of(loader);
  const auto epoch1 = targets_of(loader);  // a second range-for is the next epoch
  EXPECT_NE(epoch0, epoch1);
  EXPECT_EQ(loader.state_dict().epoch, 1);
  loader.set_epoch(0);
  EXPECT_EQ(targets_of(loader), epoch0);
  DataLoader again(probe, DataLoaderOptions(8).shuffle(true).seed(3));
  EXPECT_EQ(targets_of(again), epoch0);
  DataLoader other_seed(probe, DataLoaderOptions(8).shuffle(true).seed(4));
  EXPECT_NE(targets_of(other_seed), epoch0);
  std::vector<int64_t> seen;
  for (const auto& batch : epoch1) seen.insert(seen.end(), batch.begin(), batch.end());
  std::sort(seen.begin(), seen.end());
  for (int64_t i = 0; i < 64; ++i) EXPECT_EQ(seen[i], i);
}

TEST(DataLoader, BatchesAreIdenticalForAnyWorkerCount) {
  for (bool batched : {true, false}) {
    auto probe = std::make_shared<Probe>(101, batched);
    std::vector<std::vector<std::vector<int64_t>>> per_workers;
    for (int workers : {0, 1, 2, 4}) {
      DataLoader loader(probe, DataLoaderOptions(7).shuffle(true).num_workers(workers));
      loader.set_epoch(5);
      per_workers.push_back(targets_of(loader));
      EXPECT_EQ(per_workers.back().size(), 15u);
    }
    for (size_t k = 1; k < per_workers.size(); ++k) EXPECT_EQ(per_workers[k], per_workers[0]);
  }
}

// Each batch draws from its own generator (seeded from seed, epoch and batch), so a random
// transform gives the same batches on any worker count and leaves the global stream alone.
TEST(DataLoader, RandomTransformsAreReproducibleForAnyWorkerCount) {
  auto noisy = data::map(data::TensorDataset(arange(40, kFloat32).view({40, 1}), arange(40)),
                         data::Lambda([](Tensor x) { return x + rand(x.sizes()); }));
  manual_seed(3);
  const GeneratorState global = default_generator().get_state();
  std::vector<std::vector<Tensor>> per_workers;
  for (int workers : {0, 2}) {
    DataLoader loader(noisy, DataLoaderOptions(8).shuffle(true).num_workers(workers));
    loader.set_epoch(2);
    std::vector<Tensor> batches;
    for (const data::Example& batch : loader) batches.push_back(batch.data.clone());
    per_workers.push_back(batches);
  }
  ASSERT_EQ(per_workers[0].size(), 5u);
  for (size_t b = 0; b < 5; ++b) EXPECT_TRUE(equal(per_workers[0][b], per_workers[1][b])) << b;
  EXPECT_FALSE(equal(per_workers[0][0], per_workers[0][1]));
  EXPECT_EQ(default_generator().get_state(), global);
}

TEST(DataLoader, AWorkersExceptionNamesTheSample) {
  for (int workers : {0, 2}) {
    for (bool batched : {true, false}) {
      DataLoader loader(std::make_shared<Probe>(20, batched, /*bad_index=*/13),
                        DataLoaderOptions(4).num_workers(workers));
      int64_t batches = 0;
      const std::string message = testing::error_of([&] {
        for (const auto& batch : loader) batches += batch.data.size(0) > 0;
      });
      EXPECT_EQ(batches, 3) << "the batches before the failing one arrive";
      EXPECT_NE(message.find("DataLoader: batch 3"), std::string::npos) << message;
      EXPECT_NE(message.find("Probe: unreadable sample"), std::string::npos) << message;
      EXPECT_NE(message.find(batched ? "samples [12, 13, 14, 15]" : "sample 13 failed"),
                std::string::npos)
          << message;
      // A new iteration starts over and meets the same failure, rather than hanging.
      EXPECT_EQ(testing::error_of([&] { targets_of(loader); }), message);
    }
  }
}

TEST(DataLoader, EarlyBreakAndDestructionMidEpochDoNotHang) {
  auto slow = std::make_shared<Probe>(400, true, -1, std::chrono::microseconds(200));
  for (int round = 0; round < 3; ++round) {
    DataLoader loader(slow, DataLoaderOptions(2).num_workers(3).prefetch_factor(2));
    int64_t seen = 0;
    for (const auto& batch : loader) {
      seen += batch.target.numel();
      if (seen >= 6) break;
    }
    EXPECT_EQ(seen, 6);
    EXPECT_EQ(loader.state_dict(), (data::LoaderState{0, 3}));
    // Restart while workers are mid-epoch, then drop the loader mid-epoch.
    auto it = loader.begin();
    ++it;
    EXPECT_EQ(it->target[0].item<int64_t>(), 2);
  }
  // Workers never run more than num_workers * prefetch_factor batches ahead.
  auto probe = std::make_shared<Probe>(1000);
  {
    DataLoader loader(probe, DataLoaderOptions(1).num_workers(2).prefetch_factor(3));
    auto it = loader.begin();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_LE(probe->batch_gets, 1 + 2 * 3);
  }
}

// Each begin() is an iteration of its own, as each iter() of a torch DataLoader: an inner loop
// over the same loader once freed the outer loop's batch under it (use after free).
TEST(DataLoader, NestedIterationsAreIndependent) {
  for (int workers : {0, 2}) {
    DataLoader loader(std::make_shared<Probe>(6), DataLoaderOptions(2).num_workers(workers));
    std::vector<int64_t> outer_firsts;
    int64_t inner_batches = 0;
    for (const auto& outer : loader) {
      const int64_t first = outer.target[0].item<int64_t>();
      for (const auto& inner : loader) {
        EXPECT_EQ(inner.target.numel(), 2);
        ++inner_batches;
      }
      EXPECT_EQ(outer.target[0].item<int64_t>(), first) << "the outer batch changed under it";
      outer_firsts.push_back(first);
    }
    EXPECT_EQ(outer_firsts, (std::vector<int64_t>{0, 2, 4})) << workers << " workers";
    EXPECT_EQ(inner_batches, 9);
  }
}

TEST(DataLoader, AnIteratorOutlivesItsLoader) {
  std::optional<DataLoader::Iterator> it;
  {
    DataLoader loader(std::make_shared<Probe>(6), DataLoaderOptions(2).num_workers(1));
    it = loader.begin();
  }
  EXPECT_EQ((*it)->target[0].item<int64_t>(), 0);
  ++*it;
  EXPECT_EQ((*it)->target[0].item<int64_t>(), 2);
}

// This process's resident memory in bytes and its thread count, as Linux reports them.
int64_t resident_bytes() {
  int64_t total_pages = 0, resident_pages = 0;
  std::ifstream("/proc/self/statm") >> total_pages >> resident_pages;
  return resident_pages * sysconf(_SC_PAGESIZE);
}
int64_t thread_count() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Threads:", 0) == 0) return std::stoll(line.substr(8));
  }
  return -1;
}

// Prefetch room and worker threads follow the batches an epoch has, not the options' raw
// values: prefetch_factor 5e6 with 2 workers once reserved 1e7 batch slots (~400 MB) for an
// epoch of 3 batches, and num_workers N started N threads whatever the epoch's length.
TEST(DataLoader, PrefetchRoomAndWorkersAreSizedByTheEpoch) {
  auto probe = std::make_shared<Probe>(10);
  const int64_t before = resident_bytes();
  {
    DataLoader loader(probe, DataLoaderOptions(4).num_workers(2).prefetch_factor(5'000'000));
    auto it = loader.begin();
    EXPECT_LT(resident_bytes() - before, int64_t{64} << 20) << "bytes resident after begin()";
    std::vector<int64_t> sizes;
    for (; it != loader.end(); ++it) sizes.push_back(it->target.numel());
    EXPECT_EQ(sizes, (std::vector<int64_t>{4, 4, 2}));
  }
  const int64_t threads = thread_count();
  {
    DataLoader loader(probe, DataLoaderOptions(4).num_workers(1024));
    auto it = loader.begin();
    EXPECT_LE(thread_count() - threads, 3) << "one worker per batch at most";
    EXPECT_EQ(targets_of(loader).size(), 3u);
  }
  // A resumed epoch needs workers for its remaining batches only.
  {
    DataLoader loader(probe, DataLoaderOptions(2).num_workers(8));
    loader.load_state_dict({0, 4});
    auto it = loader.begin();
    EXPECT_LE(thread_count() - threads, 1);
    EXPECT_EQ(it->target[0].item<int64_t>(), 8);
  }
}

TEST(DataLoader, StateResumesAnEpochWithoutLoadingSkippedBatches) {
  auto probe = std::make_shared<Probe>(30);
  DataLoader loader(probe, DataLoaderOptions(4).shuffle(true).num_workers(2));
  loader.set_epoch(2);
  std::vector<std::vector<int64_t>> full = targets_of(loader);
  ASSERT_EQ(full.size(), 8u);

  data::LoaderState saved;
  loader.set_epoch(2);
  int64_t count = 0;
  for (const auto& batch : loader) {
    (void)batch;
    if (++count == 3) {
      saved = loader.state_dict();
      break;
    }
  }
  EXPECT_EQ(saved, (data::LoaderState{2, 3}));

  auto fresh = std::make_shared<Probe>(30);
  DataLoader resumed(fresh, DataLoaderOptions(4).shuffle(true).num_workers(2));
  resumed.load_state_dict(saved);
  EXPECT_EQ(resumed.state_dict(), saved);
  const auto rest = targets_of(resumed);
  EXPECT_EQ(fresh->batch_gets, 5) << "skipped batches are not loaded";
  EXPECT_EQ(rest, std::vector<std::vector<int64_t>>(full.begin() + 3, full.end()));
  EXPECT_EQ(resumed.state_dict(), (data::LoaderState{2, 8}));
  // The next epoch starts from its first batch.
  EXPECT_EQ(targets_of(resumed).size(), 8u);
  EXPECT_EQ(resumed.state_dict().epoch, 3);
  // A set_epoch to another epoch cancels a pending skip; the same epoch keeps it.
  resumed.load_state_dict(saved);
  resumed.set_epoch(2);
  EXPECT_EQ(targets_of(resumed).size(), 5u);
  resumed.load_state_dict(saved);
  resumed.set_epoch(4);
  EXPECT_EQ(targets_of(resumed).size(), 8u);
}

TEST(DataLoader, CustomSamplerAndDistributedShards) {
  auto probe = std::make_shared<Probe>(10);
  std::vector<int64_t> all;
  for (int64_t rank = 0; rank < 2; ++rank) {
    auto sampler = std::make_shared<data::DistributedSampler>(10, 2, rank, true, 1);
    DataLoader loader(probe, DataLoaderOptions(2).sampler(sampler));
    EXPECT_EQ(loader.size(), 3);
    for (const auto& batch : targets_of(loader)) all.insert(all.end(), batch.begin(), batch.end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(DataLoader, AcceptsDatasetValuesAndIteratesTensorDatasets) {
  const data::TensorDataset dataset(arange(6, kFloat32).view({6, 1}), arange(6));
  DataLoader loader(dataset, DataLoaderOptions(4));
  std::vector<int64_t> sizes;
  for (const auto& batch : loader) sizes.push_back(batch.data.size(0));
  EXPECT_EQ(sizes, (std::vector<int64_t>{4, 2}));
}

TEST(DataLoader, BadOptions) {
  auto probe = std::make_shared<Probe>(10);
  expect_error_containing([&] { DataLoader(probe, DataLoaderOptions(0)); },
                          "DataLoader: expected batch_size >= 1, found 0");
  expect_error_containing([&] { DataLoader(probe, DataLoaderOptions(2).num_workers(-1)); },
                          "expected num_workers in [0, 1024], found -1");
  expect_error_containing([&] { DataLoader(probe, DataLoaderOptions(2).num_workers(1'000'000)); },
                          "DataLoader: expected num_workers in [0, 1024], found 1000000");
  for (int prefetch : {0, -3}) {
    expect_error_containing(
        [&] { DataLoader(probe, DataLoaderOptions(2).num_workers(2).prefetch_factor(prefetch)); },
        fmt::format("DataLoader: expected prefetch_factor >= 1, found {}", prefetch));
  }
  expect_error_containing(
      [&] {
        DataLoader(probe, DataLoaderOptions(2).shuffle(true).sampler(
                              std::make_shared<data::SequentialSampler>(10)));
      },
      "expected shuffle or a sampler, found both");
  expect_error_containing([&] { DataLoader(data::DatasetPtr(), DataLoaderOptions(2)); },
                          "expected a dataset, found a null pointer");
  DataLoader loader(probe, DataLoaderOptions(2));
  expect_error_containing([&] { loader.load_state_dict({0, 6}); }, "batches_consumed in [0, 5]");
}

}  // namespace
}  // namespace accel
