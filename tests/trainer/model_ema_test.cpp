// ModelEma tests: the EMA formula on parameters and floating buffers, copied integer buffers,
// Swap lending the average and restoring the model, and the errors for a different model.
#include "accel/trainer/model_ema.h"

#include <gtest/gtest.h>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

// A linear layer followed by a batch norm: parameters, float buffers and an int64 counter.
nn::Sequential make_model() { return nn::Sequential(nn::Linear(3, 2), nn::BatchNorm1d(2)); }

// Adds `delta` to every floating entry and 1 to every integer one, in place.
void shift_state(nn::Module& model, double delta) {
  NoGradGuard no_grad;
  for (auto& [name, value] : model.state_dict()) {
    if (value.is_floating_point()) {
      value.add_(delta);
    } else {
      value.add_(1);
    }
  }
}

TEST(ModelEma, StartsAtTheModelsState) {
  auto model = make_model();
  ModelEma ema(*model, 0.9);
  const auto state = model->state_dict();
  ASSERT_EQ(ema.state_dict().keys(), state.keys());
  for (const auto& [name, value] : state) {
    EXPECT_TRUE(ema.state_dict()[name].equal(value)) << name;
    EXPECT_FALSE(ema.state_dict()[name].is_same(value)) << name << " must be a copy";
  }
}

TEST(ModelEma, UpdateAveragesFloatingEntriesAndCopiesOthers) {
  auto model = make_model();
  const auto before = ModelEma(*model, 0).state_dict();
  ModelEma ema(*model, 0.9);
  shift_state(*model, 1.0);
  ema.update(*model);
  for (const auto& [name, value] : before) {
    const Tensor& average = ema.state_dict()[name];
    if (value.is_floating_point()) {
      // 0.9 * old + 0.1 * (old + 1) = old + 0.1
      EXPECT_TRUE(average.allclose(value + 0.1, 1e-6, 1e-6)) << name;
    } else {
      EXPECT_TRUE(average.equal(model->state_dict()[name])) << name;
    }
  }
}

TEST(ModelEma, CopyToWritesTheAverageInPlace) {
  auto model = make_model();
  ModelEma ema(*model, 0.5);
  const Tensor weight = model->named_parameters()["0.weight"];
  const Tensor expected = ema.state_dict()["0.weight"].clone();
  shift_state(*model, 2.0);
  ema.copy_to(*model);
  EXPECT_TRUE(model->named_parameters()["0.weight"].is_same(weight));
  EXPECT_TRUE(weight.equal(expected));
}

TEST(ModelEma, SwapLendsTheAverageAndRestoresTheModel) {
  auto model = make_model();
  ModelEma ema(*model, 0.5);
  shift_state(*model, 4.0);
  ema.update(*model);  // average = original + 2
  const auto own = ModelEma(*model, 0).state_dict();
  {
    ModelEma::Swap swap(ema, *model);
    for (const auto& [name, value] : model->state_dict()) {
      EXPECT_TRUE(value.equal(ema.state_dict()[name])) << name;
    }
  }
  for (const auto& [name, value] : model->state_dict()) {
    EXPECT_TRUE(value.equal(own[name])) << name;
  }
}

TEST(ModelEma, RejectsBadDecayAndOtherModels) {
  auto model = make_model();
  testing::expect_error_containing([&] { ModelEma(*model, 1.5); }, "expected decay in [0, 1]");
  ModelEma ema(*model);
  nn::Linear other(3, 2);
  testing::expect_error_containing([&] { ema.update(*other); }, "ModelEma::update");
  nn::Sequential wider(nn::Linear(4, 2), nn::BatchNorm1d(2));
  testing::expect_error_containing([&] { ema.update(*wider); }, "'0.weight' of shape");
}

}  // namespace
}  // namespace accel
