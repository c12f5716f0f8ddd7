// Module holders built from braced lists of sizes, as PyTorch users write them:
// nn::MaxPool2d({2, 2}), nn::AdaptiveAvgPool2d({3, 2}), nn::Conv2d(1, 32, {3, 5}). These are
// compile checks first; running them checks the lists reached the modules intact.
#include <gtest/gtest.h>

#include <type_traits>

#include "accel/accel.h"

namespace accel {
namespace {

TEST(ModuleHolder, BracedSizesAsTheFirstArgument) {
  nn::AdaptiveAvgPool2d adaptive({3, 2});
  EXPECT_EQ(adaptive->output_size, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(adaptive(ones({1, 2, 6, 6})).sizes(), IntArrayRef({1, 2, 3, 2}));

  nn::MaxPool2d max_pool({2, 3});
  EXPECT_EQ(max_pool->options.kernel_size_, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(max_pool(ones({1, 1, 6, 6})).sizes(), IntArrayRef({1, 1, 3, 2}));

  nn::AvgPool2d avg_pool({2});
  EXPECT_EQ(avg_pool(ones({1, 1, 4, 6})).sizes(), IntArrayRef({1, 1, 2, 3}));

  nn::LayerNorm layer_norm({4, 5});
  EXPECT_EQ(layer_norm->weight.sizes(), IntArrayRef({4, 5}));
}

TEST(ModuleHolder, BracedKernelSizeAfterTheChannels) {
  nn::Conv2d conv(1, 8, {3, 5});
  EXPECT_EQ(conv->weight.sizes(), IntArrayRef({8, 1, 3, 5}));
  EXPECT_EQ(conv(ones({2, 1, 7, 9})).sizes(), IntArrayRef({2, 8, 5, 5}));

  nn::Conv2d from_options(nn::Conv2dOptions(1, 8, {3, 3}).stride({2, 1}).padding({1, 0}));
  EXPECT_EQ(from_options(ones({1, 1, 8, 8})).sizes(), IntArrayRef({1, 8, 4, 6}));
}

TEST(ModuleHolder, BracedListsOnlyWhereTheModuleTakesSizes) {
  EXPECT_FALSE((std::is_constructible_v<nn::Linear, std::initializer_list<int64_t>>));
  EXPECT_FALSE((std::is_constructible_v<nn::ReLU, std::initializer_list<int64_t>>));
  EXPECT_TRUE((std::is_constructible_v<nn::MaxPool2d, std::initializer_list<int64_t>>));
  // Holders still copy, and hold nothing when built from nullptr.
  nn::MaxPool2d pool({2, 2});
  nn::MaxPool2d copy(pool);
  EXPECT_EQ(copy.get(), pool.get());
  EXPECT_TRUE(nn::MaxPool2d(nullptr).is_empty());
}

}  // namespace
}  // namespace accel
