// random_split: one randperm from a Generator seeded with `seed` (never the global
// generator), cut into consecutive runs of the requested lengths.
#include "accel/data/random_split.h"

#include <cmath>
#include <numeric>

#include "accel/core/random.h"

namespace accel::data {

std::vector<std::shared_ptr<Subset>> random_split_lengths(DatasetPtr dataset,
                                                          std::span<const int64_t> lengths,
                                                          uint64_t seed) {
  ACCEL_CHECK(dataset != nullptr, "random_split", "expected a dataset, found a null pointer");
  const int64_t total = std::accumulate(lengths.begin(), lengths.end(), int64_t{0});
  const bool non_negative =
      std::all_of(lengths.begin(), lengths.end(), [](int64_t n) { return n >= 0; });
  ACCEL_CHECK(non_negative && total == dataset->size(), "random_split",
              "expected non-negative lengths that sum to the dataset's size {}, found {} (sum {})",
              dataset->size(), lengths, total);
  Generator generator(seed);
  const Tensor permutation = randperm(total, kInt64, &generator);
  const int64_t* order = permutation.data_ptr<int64_t>();
  std::vector<std::shared_ptr<Subset>> out;
  int64_t start = 0;
  for (int64_t length : lengths) {
    out.push_back(std::make_shared<Subset>(
        dataset, std::vector<int64_t>(order + start, order + start + length)));
    start += length;
  }
  return out;
}

std::vector<std::shared_ptr<Subset>> random_split_fractions(DatasetPtr dataset,
                                                            const std::vector<double>& fractions,
                                                            uint64_t seed) {
  ACCEL_CHECK(dataset != nullptr, "random_split_fractions",
              "expected a dataset, found a null pointer");
  const double sum = std::accumulate(fractions.begin(), fractions.end(), 0.0);
  const bool in_range =
      std::all_of(fractions.begin(), fractions.end(), [](double f) { return f >= 0 && f <= 1; });
  ACCEL_CHECK(!fractions.empty() && in_range && std::abs(sum - 1) < 1e-6, "random_split_fractions",
              "expected fractions in [0, 1] that sum to 1, found {} (sum {})", fractions, sum);
  const int64_t size = dataset->size();
  std::vector<int64_t> lengths;
  for (double fraction : fractions) {
    lengths.push_back(static_cast<int64_t>(std::floor(fraction * static_cast<double>(size))));
  }
  const int64_t remainder = size - std::accumulate(lengths.begin(), lengths.end(), int64_t{0});
  for (int64_t i = 0; i < remainder; ++i) lengths[i % lengths.size()] += 1;
  return random_split_lengths(std::move(dataset), lengths, seed);
}

}  // namespace accel::data
