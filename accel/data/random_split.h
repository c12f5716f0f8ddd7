// random_split: disjoint subsets that together cover a dataset, drawn from one seeded
// permutation (torch.utils.data.random_split). N lengths give a std::array of N subsets,
// so `auto [train, val] = random_split(dataset, {55000, 5000});` works.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "accel/data/subset.h"

namespace accel::data {

// Subsets of the given lengths, which must sum to dataset->size().
std::vector<std::shared_ptr<Subset>> random_split_lengths(DatasetPtr dataset,
                                                          std::span<const int64_t> lengths,
                                                          uint64_t seed = kDefaultSeed);

template <typename D, size_t N>
std::array<std::shared_ptr<Subset>, N> random_split(D&& dataset, const int64_t (&lengths)[N],
                                                    uint64_t seed = kDefaultSeed) {
  std::vector<std::shared_ptr<Subset>> parts =
      random_split_lengths(share(std::forward<D>(dataset)), lengths, seed);
  std::array<std::shared_ptr<Subset>, N> out;
  std::move(parts.begin(), parts.end(), out.begin());
  return out;
}

// Fractions that sum to 1: each subset gets floor(fraction * size), and the remainder is
// dealt one sample at a time to the subsets in order, as PyTorch does.
std::vector<std::shared_ptr<Subset>> random_split_fractions(DatasetPtr dataset,
                                                            const std::vector<double>& fractions,
                                                            uint64_t seed = kDefaultSeed);

}  // namespace accel::data
