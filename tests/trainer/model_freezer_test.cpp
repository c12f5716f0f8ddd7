// ModelFreezer tests: layer groups and flattened layers as the original's, freeze/unfreeze
// ranges (defaults, negative and swapped indices), eval/train modes (a defect of the original),
// BatchNorm handling, and unfrozen parameter groups added to an optimizer.
#include "accel/trainer/model_freezer.h"

#include <gtest/gtest.h>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

// The original's documentation example: input, a nested block, output.
struct FreezeModelImpl : nn::Module {
  nn::Linear input{nn::Linear(4, 4)};
  nn::Sequential block{nn::Linear(4, 4), nn::BatchNorm1d(4),
                       nn::Sequential(nn::Linear(4, 4), nn::BatchNorm1d(4), nn::ReLU())};
  nn::Linear output{nn::Linear(4, 2)};
  FreezeModelImpl() {
    register_module("input", input);
    register_module("block", block);
    register_module("output", output);
  }
  Tensor forward(const Tensor& x) override { return output(block(input(x))); }
};
ACCEL_MODULE(FreezeModel);

bool all_trainable(const nn::Module& module) {
  for (const Tensor& p : module.parameters()) {
    if (!p.requires_grad()) return false;
  }
  return true;
}

bool all_frozen(const nn::Module& module) {
  for (const Tensor& p : module.parameters()) {
    if (p.requires_grad()) return false;
  }
  return true;
}

const nn::Module& batch_norm(const FreezeModel& model) { return *(*model->block)[1]; }

TEST(ModelFreezer, LayerGroupsAreTopLevelChildrenAndLayersTheirLeaves) {
  FreezeModel model;
  ModelFreezer freezer(*model);
  const auto groups = freezer.get_layer_groups();
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[1].index, 1);
  EXPECT_EQ(groups[1].negative_index, -2);
  EXPECT_EQ(groups[1].module.get(), model->block.get());
  EXPECT_FALSE(groups[1].is_frozen);
  const auto layers = freezer.get_layers();
  ASSERT_EQ(layers.size(), 7u);  // input, 5 leaves of block, output
  EXPECT_EQ(layers[0].group_index, 0);
  for (size_t i = 1; i <= 5; ++i) EXPECT_EQ(layers[i].group_index, 1);
  EXPECT_EQ(layers[5].module->name(), "ReLU");
  EXPECT_EQ(layers[6].group_negative_index, -1);
}

TEST(ModelFreezer, ConstructionMakesEverythingTrainable) {
  FreezeModel model;
  for (Tensor& p : model->parameters()) p.requires_grad_(false);
  ModelFreezer freezer(*model);
  EXPECT_TRUE(all_trainable(*model));
  EXPECT_EQ(freezer.get_trainable_parameters().size(), model->parameters().size());
  EXPECT_TRUE(freezer.get_frozen_parameters().empty());
}

TEST(ModelFreezer, FreezeByDefaultFreezesAllButTheLastGroupAndLeavesBatchNorm) {
  FreezeModel model;
  ModelFreezer freezer(*model);
  freezer.freeze();
  EXPECT_TRUE(all_frozen(*model->input));
  EXPECT_TRUE(all_trainable(*model->output));
  EXPECT_TRUE(all_trainable(batch_norm(model)));
  EXPECT_TRUE(all_frozen(*(*model->block)[0]));
  EXPECT_TRUE(model->is_training());  // modes untouched by default
  const auto groups = freezer.get_layer_groups();
  EXPECT_TRUE(groups[0].is_frozen);
  EXPECT_TRUE(groups[1].is_frozen);
  EXPECT_FALSE(groups[2].is_frozen);
  // input (2) + block's two linears (4) frozen; batch norms (4) and output (2) trainable.
  EXPECT_EQ(freezer.get_frozen_parameters().size(), 6u);
  EXPECT_EQ(freezer.get_trainable_parameters().size(), 6u);
}

// The original passed its arguments swapped: set_modules_as_eval = true froze nothing.
TEST(ModelFreezer, FreezeWithEvalFreezesAndSetsEvalMode) {
  FreezeModel model;
  ModelFreezer freezer(*model);
  freezer.freeze(0, 0, /*set_modules_as_eval=*/true);
  EXPECT_TRUE(all_frozen(*model->input));
  EXPECT_FALSE(model->input->is_training());
  EXPECT_TRUE(all_trainable(*model->block));
  EXPECT_TRUE(model->block->is_training());
}

TEST(ModelFreezer, FreezeBatchNormsWhenAsked) {
  FreezeModel model;
  ModelFreezer freezer(*model, /*freeze_batch_norms=*/true);
  freezer.freeze(-2, -2, /*set_modules_as_eval=*/true);
  EXPECT_TRUE(all_frozen(*model->block));
  EXPECT_FALSE(batch_norm(model).is_training());
  EXPECT_TRUE(all_trainable(*model->input));
}

TEST(ModelFreezer, UnfreezeReturnsNewlyTrainableParametersPerGroup) {
  FreezeModel model;
  ModelFreezer freezer(*model);
  freezer.freeze(0, -1, /*set_modules_as_eval=*/true);
  EXPECT_EQ(freezer.get_trainable_parameters().size(), 4u);  // the batch norms
  // Swapped indices mean the same range: groups 1 and 2.
  const auto groups = freezer.unfreeze(-1, 1);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].params().size(), 4u);  // block's two linears
  EXPECT_EQ(groups[1].params().size(), 2u);  // output
  EXPECT_TRUE(groups[1].params()[0].is_same(model->output->weight));
  EXPECT_TRUE(model->output->is_training());
  EXPECT_TRUE(all_frozen(*model->input));
  EXPECT_FALSE(model->input->is_training());
  // Unfreezing again returns nothing new.
  EXPECT_TRUE(freezer.unfreeze(-1, 1).empty());
}

TEST(ModelFreezer, UnfrozenGroupsJoinAnOptimizer) {
  FreezeModel model;
  ModelFreezer freezer(*model);
  freezer.freeze();
  optim::SGD optimizer(freezer.get_trainable_parameters(), optim::SGDOptions(0.1));
  for (const auto& group : freezer.unfreeze()) optimizer.add_param_group(group);
  EXPECT_EQ(optimizer.param_groups().size(), 3u);
  EXPECT_TRUE(all_trainable(*model));
}

TEST(ModelFreezer, RejectsIndicesOutsideTheGroups) {
  FreezeModel model;
  ModelFreezer freezer(*model);
  testing::expect_error_containing([&] { freezer.freeze(0, 3); },
                                   "ModelFreezer::freeze: expected a layer group index in [-3, 3)");
  testing::expect_error_containing([&] { freezer.unfreeze(-4); }, "found -4");
}

}  // namespace
}  // namespace accel
