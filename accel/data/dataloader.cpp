// DataLoader: each begin() takes the epoch's batches from the BatchSampler and loads them
// on the calling thread or through BatchWorkers. A batch comes from the dataset's get_batch
// when it has one and no collate_fn is set, else from get() per sample and collation; each
// batch draws random numbers from its own generator, seeded from (seed, epoch, batch), and is
// pinned when asked (and a GPU is there to copy it to).
#include "accel/data/dataloader.h"

#include <algorithm>

#include "accel/core/cuda.h"
#include "accel/core/random.h"
#include "accel/data/batch_workers.h"

namespace accel::data {
namespace {

constexpr const char* kOp = "DataLoader";
// More worker threads than this is a typo, not a machine: refuse it rather than try to start
// a million threads.
constexpr int kMaxWorkers = 1024;

std::shared_ptr<Sampler> epoch_sampler(const DatasetPtr& dataset,
                                       const DataLoaderOptions& options) {
  ACCEL_CHECK(dataset != nullptr, kOp, "expected a dataset, found a null pointer");
  ACCEL_CHECK(options.batch_size() >= 1, kOp, "expected batch_size >= 1, found {}",
              options.batch_size());
  ACCEL_CHECK(options.num_workers() >= 0 && options.num_workers() <= kMaxWorkers, kOp,
              "expected num_workers in [0, {}], found {}", kMaxWorkers, options.num_workers());
  ACCEL_CHECK(options.num_workers() == 0 || options.prefetch_factor() >= 1, kOp,
              "expected prefetch_factor >= 1, found {}", options.prefetch_factor());
  ACCEL_CHECK(!(options.sampler() && options.shuffle()), kOp,
              "expected shuffle or a sampler, found both (the sampler decides the order)");
  if (options.sampler()) return options.sampler();
  if (options.shuffle()) return std::make_shared<RandomSampler>(dataset->size(), options.seed());
  return std::make_shared<SequentialSampler>(dataset->size());
}

// Batch number `batch` made of the samples at `indices`; errors name the batch and samples.
// The seed of batch `batch` of `epoch`: a splitmix64 mix, so neighbouring batches and epochs
// get unrelated streams.
uint64_t batch_seed(uint64_t seed, int64_t epoch, int64_t batch) {
  uint64_t x = seed ^ (static_cast<uint64_t>(epoch) << 32) ^ static_cast<uint64_t>(batch);
  for (int round = 0; round < 2; ++round) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    x ^= x >> 31;
  }
  return x;
}

// The batch in page-locked memory, from which a GPU copies asynchronously; as it is when there
// is no GPU to copy to, and for tensors already on a GPU (a dataset kept there).
Example pinned(Example example) {
  if (!cuda::is_available()) return example;
  for (Tensor* t : {&example.data, &example.target}) {
    if (t->defined() && t->is_cpu()) *t = t->pin_memory();
  }
  return example;
}

// Loads one batch with its own random stream (whatever thread runs it), so random transforms
// give the same batch for any worker count.
Example load_batch(const Dataset& dataset, const CollateFn& collate_fn,
                   std::span<const int64_t> indices, uint64_t seed, int64_t epoch, int64_t batch,
                   bool pin_memory) {
  Generator generator(batch_seed(seed, epoch, batch));
  GeneratorGuard use_batch_stream(generator);
  try {
    Example example;
    if (!collate_fn) {
      std::optional<Example> fast = dataset.get_batch(indices);
      example = fast ? std::move(*fast) : default_collate(get_samples(dataset, indices));
    } else {
      example = collate_fn(get_samples(dataset, indices));
    }
    return pin_memory ? pinned(std::move(example)) : example;
  } catch (const std::exception& e) {
    constexpr size_t kShown = 8;
    fail(kOp, "batch {} (samples {}{}) failed: {}", batch,
         indices.first(std::min(indices.size(), kShown)), indices.size() > kShown ? " ..." : "",
         e.what());
  }
}

}  // namespace

// One iteration: what it loads from (its own copies, so it outlives a moved or destroyed
// loader), its batches and where it stands.
struct DataLoader::Run {
  DatasetPtr dataset;
  CollateFn collate_fn;
  uint64_t seed = 0;
  bool pin_memory = false;
  int64_t epoch = 0;
  std::vector<std::vector<int64_t>> batches;
  int64_t next = 0;  // the next batch to load; batches before it count as consumed
  bool finished = false;
  Example current;
  std::unique_ptr<BatchWorkers> workers;  // declared last: stopped before `batches` dies

  // Batch number `batch` of this iteration (on the calling thread or a worker).
  Example load(int64_t batch) const {
    return load_batch(*dataset, collate_fn, batches[static_cast<size_t>(batch)], seed, epoch, batch,
                      pin_memory);
  }

  // Loads the next batch into `current`, or marks the iteration finished.
  void advance() {
    if (finished) return;
    if (next >= std::ssize(batches)) {
      finished = true;
      current = {};
      return;
    }
    try {
      current = workers ? workers->next() : load(next);
    } catch (...) {
      finished = true;  // the iteration ends at a failed batch
      current = {};
      throw;
    }
    ++next;
  }
};

DataLoader::DataLoader(DatasetPtr dataset, DataLoaderOptions options)
    : dataset_(std::move(dataset)),
      options_(std::move(options)),
      batch_sampler_(epoch_sampler(dataset_, options_), options_.batch_size(),
                     options_.drop_last()) {}

DataLoader::~DataLoader() = default;
DataLoader::DataLoader(DataLoader&&) noexcept = default;
DataLoader& DataLoader::operator=(DataLoader&&) noexcept = default;

int64_t DataLoader::size() const { return batch_sampler_.size(); }

void DataLoader::set_epoch(int64_t epoch) {
  ACCEL_CHECK(epoch >= 0, "DataLoader.set_epoch", "expected epoch >= 0, found {}", epoch);
  next_epoch_ = epoch;
}

LoaderState DataLoader::state_dict() const {
  if (resume_) return *resume_;
  if (latest_) return {latest_->epoch, latest_->next};
  return {next_epoch_, 0};
}

void DataLoader::load_state_dict(const LoaderState& state) {
  ACCEL_CHECK(state.epoch >= 0 && state.batches_consumed >= 0 && state.batches_consumed <= size(),
              "DataLoader.load_state_dict",
              "expected epoch >= 0 and batches_consumed in [0, {}], found epoch {} and {}", size(),
              state.epoch, state.batches_consumed);
  latest_.reset();
  next_epoch_ = state.epoch;
  resume_ = state;
}

DataLoader::Iterator DataLoader::begin() {
  latest_.reset();  // stops the previous iteration's workers unless an iterator still uses it
  auto run = std::make_shared<Run>();
  run->dataset = dataset_;
  run->collate_fn = options_.collate_fn();
  run->seed = options_.seed();
  run->pin_memory = options_.pin_memory();
  run->epoch = next_epoch_;
  next_epoch_ = run->epoch + 1;
  if (resume_ && resume_->epoch == run->epoch) run->next = resume_->batches_consumed;
  resume_.reset();
  batch_sampler_.set_epoch(run->epoch);
  run->batches = batch_sampler_.batches();
  const auto count = std::ssize(run->batches);
  run->next = std::min(run->next, count);
  const int64_t remaining = count - run->next;
  if (options_.num_workers() > 0 && remaining > 0) {
    // The workers read the iteration they belong to, which stops them before it dies.
    auto load = [iteration = run.get()](int64_t batch) { return iteration->load(batch); };
    // No more threads or prefetch slots than the epoch has batches left: the slots are
    // reserved up front, so a huge prefetch_factor would otherwise cost memory for nothing.
    const int64_t workers = std::min<int64_t>(options_.num_workers(), remaining);
    const int64_t capacity = std::min(
        static_cast<int64_t>(options_.num_workers()) * options_.prefetch_factor(), remaining);
    run->workers = std::make_unique<BatchWorkers>(std::move(load), run->next, count,
                                                  static_cast<int>(workers), capacity);
  }
  latest_ = run;
  run->advance();
  return Iterator(std::move(run));
}

DataLoader::Iterator DataLoader::end() { return Iterator(nullptr); }

const Example& DataLoader::Iterator::operator*() const {
  ACCEL_CHECK(!at_end(), kOp, "dereferenced an iterator past the last batch");
  return run_->current;
}

DataLoader::Iterator& DataLoader::Iterator::operator++() {
  if (run_) run_->advance();
  return *this;
}

bool DataLoader::Iterator::at_end() const { return run_ == nullptr || run_->finished; }

}  // namespace accel::data
