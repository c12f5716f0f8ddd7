// Samplers: sequential order, seeded per-epoch permutations, distributed sharding (the
// union of ranks covers the dataset; padding, dropping and keeping the remainder), and
// batching with and without drop_last.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using testing::expect_error_containing;

std::vector<int64_t> sorted(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<int64_t> iota(int64_t n) {
  std::vector<int64_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

TEST(Sampler, SequentialVisitsInOrder) {
  data::SequentialSampler sampler(5);
  EXPECT_EQ(sampler.size(), 5);
  EXPECT_EQ(sampler.indices(), iota(5));
}

TEST(Sampler, RandomIsAPermutationFixedBySeedAndEpoch) {
  data::RandomSampler sampler(50, 3);
  const std::vector<int64_t> epoch0 = sampler.indices();
  EXPECT_EQ(sorted(epoch0), iota(50));
  EXPECT_NE(epoch0, iota(50));
  EXPECT_EQ(sampler.indices(), epoch0);
  sampler.set_epoch(1);
  const std::vector<int64_t> epoch1 = sampler.indices();
  EXPECT_NE(epoch1, epoch0);
  EXPECT_EQ(sorted(epoch1), iota(50));
  data::RandomSampler same_seed(50, 3);
  same_seed.set_epoch(1);
  EXPECT_EQ(same_seed.indices(), epoch1);
  EXPECT_NE(data::RandomSampler(50, 4).indices(), epoch0);
}

TEST(Sampler, RandomLeavesTheGlobalGeneratorAlone) {
  manual_seed(11);
  const Tensor expected = rand({4});
  manual_seed(11);
  data::RandomSampler(1000).indices();
  EXPECT_TRUE(rand({4}).equal(expected));
}

TEST(Sampler, DistributedShardsCoverTheDatasetDisjointly) {
  for (bool shuffle : {false, true}) {
    std::vector<int64_t> all;
    for (int64_t rank = 0; rank < 4; ++rank) {
      data::DistributedSampler sampler(20, 4, rank, shuffle, 9);
      sampler.set_epoch(2);
      EXPECT_EQ(sampler.size(), 5);
      const std::vector<int64_t> part = sampler.indices();
      EXPECT_EQ(std::ssize(part), 5);
      all.insert(all.end(), part.begin(), part.end());
    }
    EXPECT_EQ(sorted(all), iota(20)) << "shuffle " << shuffle;
  }
}

TEST(Sampler, DistributedPadsDropsOrKeepsTheRemainder) {
  using Remainder = data::DistributedSampler::Remainder;
  // 10 samples on 4 ranks, no shuffle: padding wraps to the start (0, 1).
  std::vector<std::vector<int64_t>> padded;
  for (int64_t rank = 0; rank < 4; ++rank) {
    padded.push_back(data::DistributedSampler(10, 4, rank, false).indices());
  }
  EXPECT_EQ(padded[0], (std::vector<int64_t>{0, 4, 8}));
  EXPECT_EQ(padded[1], (std::vector<int64_t>{1, 5, 9}));
  EXPECT_EQ(padded[2], (std::vector<int64_t>{2, 6, 0}));
  EXPECT_EQ(padded[3], (std::vector<int64_t>{3, 7, 1}));
  EXPECT_EQ(data::DistributedSampler(10, 4, 3, false, 0, Remainder::Drop).indices(),
            (std::vector<int64_t>{3, 7}));
  std::vector<int64_t> kept;
  for (int64_t rank = 0; rank < 4; ++rank) {
    data::DistributedSampler sampler(10, 4, rank, true, 0, Remainder::Keep);
    const std::vector<int64_t> part = sampler.indices();
    EXPECT_EQ(std::ssize(part), sampler.size());
    EXPECT_EQ(sampler.size(), rank < 2 ? 3 : 2);
    kept.insert(kept.end(), part.begin(), part.end());
  }
  EXPECT_EQ(sorted(kept), iota(10));  // each sample exactly once
  // More ranks than samples: padding repeats the dataset.
  EXPECT_EQ(data::DistributedSampler(2, 5, 4, false).indices(), (std::vector<int64_t>{0}));
}

TEST(Sampler, DistributedRanksShareOnePermutation) {
  data::RandomSampler whole(12, 5);
  whole.set_epoch(3);
  const std::vector<int64_t> order = whole.indices();
  data::DistributedSampler rank1(12, 3, 1, true, 5);
  rank1.set_epoch(3);
  EXPECT_EQ(rank1.indices(), (std::vector<int64_t>{order[1], order[4], order[7], order[10]}));
}

TEST(Sampler, DistributedBadInput) {
  expect_error_containing([] { data::DistributedSampler(10, 2, 2); },
                          "DistributedSampler: expected a rank in [0, 2), found 2");
  expect_error_containing([] { data::DistributedSampler(10, 0, 0); }, "num_replicas >= 1");
}

TEST(Sampler, BatchSamplerKeepsOrDropsTheShortLastBatch) {
  auto sequential = std::make_shared<data::SequentialSampler>(7);
  const data::BatchSampler keep(sequential, 3, false);
  EXPECT_EQ(keep.size(), 3);
  EXPECT_EQ(keep.batches(), (std::vector<std::vector<int64_t>>{{0, 1, 2}, {3, 4, 5}, {6}}));
  const data::BatchSampler drop(sequential, 3, true);
  EXPECT_EQ(drop.size(), 2);
  EXPECT_EQ(drop.batches(), (std::vector<std::vector<int64_t>>{{0, 1, 2}, {3, 4, 5}}));
  expect_error_containing([&] { data::BatchSampler(sequential, 0, false); },
                          "BatchSampler: expected batch_size >= 1, found 0");
}

}  // namespace
}  // namespace accel
