// Datasets and their wrappers: TensorDataset, Subset, ConcatDataset, transforms (per
// sample and per batch), and random_split's properties (disjoint, covering, reproducible).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using testing::expect_error_containing;

// 10 samples: data row i is [i, 10 + i] (float32), target i (int64).
std::shared_ptr<data::TensorDataset> pairs(int64_t n = 10) {
  const Tensor rows = arange(n, kFloat32);
  return std::make_shared<data::TensorDataset>(stack({rows, rows + 10}, 1), arange(n));
}

void expect_batch_equals_samples(const data::Dataset& dataset,
                                 const std::vector<int64_t>& indices) {
  const std::optional<data::Example> batch = dataset.get_batch(indices);
  ASSERT_TRUE(batch.has_value());
  const data::Example stacked = data::default_collate(data::get_samples(dataset, indices));
  EXPECT_TRUE(batch->data.equal(stacked.data));
  EXPECT_TRUE(batch->target.equal(stacked.target));
}

TEST(TensorDataset, SamplesAndBatchesAreRows) {
  const auto dataset = pairs();
  EXPECT_EQ(dataset->size(), 10);
  const data::Example sample = dataset->get(3);
  EXPECT_TRUE(sample.data.equal(tensor({3.f, 13.f})));
  EXPECT_EQ(sample.target.item<int64_t>(), 3);
  expect_batch_equals_samples(*dataset, {9, 0, 4, 4});
}

TEST(TensorDataset, BadInput) {
  expect_error_containing(
      [] {
        data::TensorDataset(zeros({3, 2}), zeros({4}));
      },
      "same size along dim 0, found [3, 2] and [4]");
  const auto dataset = pairs();
  expect_error_containing([&] { dataset->get(10); },
                          "TensorDataset.get: expected an index in [0, 10), found 10");
  expect_error_containing(
      [&] {
        dataset->get_batch(std::vector<int64_t>{0, -1});
      },
      "TensorDataset.get_batch: expected an index in [0, 10), found -1");
}

TEST(Subset, MapsIndicesAndForwardsTheBatchPath) {
  const data::Subset subset(pairs(), {7, 2, 5});
  EXPECT_EQ(subset.size(), 3);
  EXPECT_EQ(subset.get(1).target.item<int64_t>(), 2);
  const auto batch = subset.get_batch(std::vector<int64_t>{2, 0});
  ASSERT_TRUE(batch.has_value());
  EXPECT_TRUE(batch->target.equal(tensor({5, 7})));
  expect_error_containing(
      [] {
        data::Subset(pairs(), {1, 10});
      },
      "Subset: expected an index in [0, 10), found 10");
  expect_error_containing([&] { subset.get(3); }, "Subset.get: expected an index in [0, 3)");
}

// A dataset with no batched path, to check fallbacks.
class Squares : public data::Dataset {
 public:
  int64_t size() const override { return 6; }
  data::Example get(int64_t index) const override {
    data::check_index("Squares.get", index, size());
    return {full({2}, static_cast<float>(index * index)), scalar_tensor(index)};
  }
};

TEST(ConcatDataset, IndexesAcrossPartsAndReordersBatches) {
  const data::ConcatDataset concat({pairs(3), pairs(4)});
  EXPECT_EQ(concat.size(), 7);
  EXPECT_EQ(concat.get(2).target.item<int64_t>(), 2);
  EXPECT_EQ(concat.get(3).target.item<int64_t>(), 0);
  EXPECT_EQ(concat.get(6).target.item<int64_t>(), 3);
  expect_batch_equals_samples(concat, {5, 0, 6, 2, 3});
  const auto batch = concat.get_batch(std::vector<int64_t>{5, 0, 6});
  EXPECT_TRUE(batch->target.equal(tensor({2, 0, 3})));
  expect_error_containing([&] { concat.get(7); }, "ConcatDataset.get: expected an index in [0, 7)");
  const data::ConcatDataset mixed({pairs(3), std::make_shared<Squares>()});
  EXPECT_FALSE(mixed.get_batch(std::vector<int64_t>{0, 4}).has_value());
  EXPECT_TRUE(mixed.get_batch(std::vector<int64_t>{0, 2}).has_value());  // one part only
}

TEST(Transforms, NormalizeMatchesTheFormulaForSamplesAndBatches) {
  const Tensor image = rand({3, 4, 5});
  const data::Normalize normalize({0.1, 0.2, 0.3}, {0.5, 2.0, 4.0});
  const Tensor expected = (image - tensor({0.1f, 0.2f, 0.3f}).view({3, 1, 1})) /
                          tensor({0.5f, 2.0f, 4.0f}).view({3, 1, 1});
  EXPECT_TRUE(normalize({image, Tensor()}).data.allclose(expected));
  const Tensor batch = stack({image, image});
  EXPECT_TRUE(normalize({batch, Tensor()}).data.allclose(stack({expected, expected})));
  EXPECT_EQ(normalize({image.to(kFloat64), Tensor()}).data.dtype(), kFloat64);
  const data::Normalize scalar(0.5, 0.25);
  EXPECT_TRUE(scalar({image, Tensor()}).data.allclose((image - 0.5) / 0.25));
  expect_error_containing(
      [&] {
        normalize({zeros({2, 4, 5}), Tensor()});
      },
      "Normalize: expected data with 3 channels at dim -3, found shape [2, 4, 5]");
  expect_error_containing(
      [] {
        data::Normalize({0.0, 1.0}, {1.0, 0.0});
      },
      "expected non-zero std, found 0 for channel 1");
}

TEST(Transforms, LambdaAndComposeApplyInOrder) {
  const data::Compose compose({data::Lambda([](Tensor x) { return x + 1; }),
                               data::Normalize(2.0, 4.0), [](data::Example e) {
                                 e.target = e.target * 10;
                                 return e;
                               }});
  const data::Example out = compose({tensor({3.f, 5.f}), tensor({1, 2})});
  EXPECT_TRUE(out.data.equal(tensor({0.5f, 1.0f})));
  EXPECT_TRUE(out.target.equal(tensor({10, 20})));
}

TEST(TransformedDataset, PerSampleAndPerBatchGiveTheSameBatches) {
  const auto base = pairs();
  const data::Normalize normalize(1.0, 2.0);
  const auto per_sample = data::map(base, normalize);
  const auto per_batch = data::map(base, normalize, data::TransformMode::PerBatch);
  const std::vector<int64_t> indices = {4, 1, 8};
  EXPECT_FALSE(per_sample->get_batch(indices).has_value());  // the loader goes per sample
  const data::Example samples = data::default_collate(data::get_samples(*per_sample, indices));
  const auto batch = per_batch->get_batch(indices);
  ASSERT_TRUE(batch.has_value());
  EXPECT_TRUE(batch->data.equal(samples.data));
  EXPECT_TRUE(batch->target.equal(samples.target));
  // Without a parent fast path, PerBatch stacks the parent's samples first.
  const auto squares = data::map(Squares(), data::Lambda([](Tensor x) { return x.sqrt(); }),
                                 data::TransformMode::PerBatch);
  EXPECT_TRUE(squares->get_batch(std::vector<int64_t>{4, 1, 5})
                  ->data.equal(tensor({4.f, 4.f, 1.f, 1.f, 5.f, 5.f}).view({3, 2})));
}

TEST(RandomSplit, SubsetsAreDisjointCoveringAndReproducible) {
  const auto dataset = pairs(100);
  auto [a, b, c] = data::random_split(dataset, {50, 30, 20});
  EXPECT_EQ(a->size(), 50);
  EXPECT_EQ(b->size(), 30);
  EXPECT_EQ(c->size(), 20);
  std::set<int64_t> seen;
  for (const auto& part : {a, b, c}) seen.insert(part->indices().begin(), part->indices().end());
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(*seen.rbegin(), 99);
  auto [a2, b2, c2] = data::random_split(dataset, {50, 30, 20});
  EXPECT_EQ(a->indices(), a2->indices());
  auto [a3, b3, c3] = data::random_split(dataset, {50, 30, 20}, 7);
  EXPECT_NE(a->indices(), a3->indices());
  EXPECT_FALSE(std::is_sorted(a->indices().begin(), a->indices().end()));
}

TEST(RandomSplit, AcceptsValuesAndPointersAndLeavesTheGlobalGeneratorAlone) {
  manual_seed(5);
  const Tensor before = rand({3});
  manual_seed(5);
  Squares squares;
  auto [train, val] = data::random_split(squares, {4, 2});
  const data::DatasetPtr as_base = train;  // each part converts to DatasetPtr
  EXPECT_EQ(as_base->size(), 4);
  auto [x, y] = data::random_split(data::DatasetPtr(pairs()), {5, 5});
  EXPECT_EQ(y->size(), 5);
  EXPECT_TRUE(rand({3}).equal(before));
}

TEST(RandomSplit, LengthsMustSumToTheSize) {
  const auto dataset = pairs(100);
  expect_error_containing(
      [&] {
        data::random_split(dataset, {50, 40});
      },
      "random_split: expected non-negative lengths that sum to the dataset's "
      "size 100, found [50, 40] (sum 90)");
  expect_error_containing([&] { data::random_split(dataset, {110, -10}); }, "[110, -10]");
}

TEST(RandomSplit, FractionsDealTheRemainderInOrder) {
  const auto parts = data::random_split_fractions(pairs(10), {0.33, 0.33, 0.34});
  ASSERT_EQ(parts.size(), 3u);
  // floor: 3, 3, 3; the remaining sample goes to the first subset (torch.utils.data).
  EXPECT_EQ(parts[0]->size(), 4);
  EXPECT_EQ(parts[1]->size(), 3);
  EXPECT_EQ(parts[2]->size(), 3);
  expect_error_containing(
      [] {
        data::random_split_fractions(pairs(10), {0.5, 0.6});
      },
      "expected fractions in [0, 1] that sum to 1, found [0.5, 0.6]");
}

}  // namespace
}  // namespace accel
