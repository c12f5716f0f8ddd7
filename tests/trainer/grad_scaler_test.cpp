// The loss scaler through a long run of inf/NaN gradients: the scale stops at its floor and
// recovers once gradients are finite again, a warning names the stretch once, and a stretch of
// GradScaler::kMaxSkippedSteps stops training with an error.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using testing::expect_error_containing;

// One scaled step whose gradient is `grad_factor` per weight; returns whether it stepped.
bool scaled_step(GradScaler& scaler, optim::SGD& optimizer, const Tensor& w, double grad_factor) {
  optimizer.zero_grad();
  scaler.scale(sum(w * grad_factor)).backward();
  const bool stepped = scaler.step(optimizer);
  scaler.update();
  return stepped;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(GradScaler, ScaleStopsAtItsFloorAndRecovers) {
  Tensor w = ones({2}).requires_grad_();
  optim::SGD optimizer({w}, optim::SGDOptions(0.5));
  GradScaler scaler({.growth_interval = 2});
  // Without the floor 1100 halvings from 65536 reach 0, and a zero scale never recovers.
  for (int i = 0; i < 1100; ++i) ASSERT_FALSE(scaled_step(scaler, optimizer, w, kInf));
  EXPECT_EQ(scaler.get_scale(), GradScaler::kMinScale);
  EXPECT_TRUE(scaled_step(scaler, optimizer, w, 1.0));
  EXPECT_TRUE(equal(w, full({2}, 0.5))) << "the unscaled gradient is 1";
  EXPECT_TRUE(scaled_step(scaler, optimizer, w, 1.0));
  EXPECT_EQ(scaler.get_scale(), 2 * GradScaler::kMinScale);
}

TEST(GradScaler, WarnsOncePerStretchOfSkippedSteps) {
  Tensor w = ones({2}).requires_grad_();
  optim::SGD optimizer({w}, optim::SGDOptions(0.1));
  GradScaler scaler;
  ASSERT_TRUE(scaled_step(scaler, optimizer, w, 1.0));
  ASSERT_TRUE(scaled_step(scaler, optimizer, w, 1.0));
  ::testing::internal::CaptureStderr();
  for (int64_t i = 1; i < GradScaler::kWarnAfterSkippedSteps; ++i) {
    scaled_step(scaler, optimizer, w, kInf);
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");

  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 50; ++i) scaled_step(scaler, optimizer, w, kInf);
  std::string warned = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warned.find("warning: GradScaler: the last 100 optimizer steps (since step 3 of this "
                        "run) were skipped for inf or NaN gradients"),
            std::string::npos)
      << warned;
  EXPECT_EQ(warned.find("warning", 1), std::string::npos) << "one warning per stretch: " << warned;

  // A clean step ends the stretch; the next one warns again, naming where it began.
  ASSERT_TRUE(scaled_step(scaler, optimizer, w, 1.0));
  ::testing::internal::CaptureStderr();
  for (int64_t i = 0; i < GradScaler::kWarnAfterSkippedSteps; ++i) {
    scaled_step(scaler, optimizer, w, kInf);
  }
  warned = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warned.find("the last 100 optimizer steps (since step 153 of this run)"),
            std::string::npos)
      << warned;
}

// A stretch of skipped steps goes on counting in a scaler that loads the saved state (a resumed
// run), so resuming cannot hide a run that never updates.
TEST(GradScaler, TheStretchOfSkippedStepsSurvivesSavingAndLoading) {
  Tensor w = ones({2}).requires_grad_();
  optim::SGD optimizer({w}, optim::SGDOptions(0.1));
  GradScaler first;
  ASSERT_TRUE(scaled_step(first, optimizer, w, 1.0));
  for (int i = 0; i < 60; ++i) ASSERT_FALSE(scaled_step(first, optimizer, w, kInf));
  EXPECT_EQ(first.state().steps, 61);
  EXPECT_EQ(first.state().skipped_in_a_row, 60);

  GradScaler resumed;
  resumed.load_state(first.state());
  ::testing::internal::CaptureStderr();
  for (int i = 0; i < 40; ++i) ASSERT_FALSE(scaled_step(resumed, optimizer, w, kInf));
  const std::string warned = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warned.find("the last 100 optimizer steps (since step 2 of this run)"),
            std::string::npos)
      << warned;
  expect_error_containing([&] { resumed.load_state({.steps = 3, .skipped_in_a_row = 4}); },
                          "skipped_in_a_row must lie in [0, steps = 3], got 4");
}

TEST(GradScaler, StopsAfterTooManySkippedStepsInARow) {
  Tensor w = ones({2}).requires_grad_();
  optim::SGD optimizer({w}, optim::SGDOptions(0.1));
  GradScaler scaler;
  ASSERT_TRUE(scaled_step(scaler, optimizer, w, 1.0));
  ::testing::internal::CaptureStderr();
  for (int64_t i = 1; i < GradScaler::kMaxSkippedSteps; ++i) {
    ASSERT_FALSE(scaled_step(scaler, optimizer, w, kInf));
  }
  expect_error_containing([&] { scaled_step(scaler, optimizer, w, kInf); },
                          "GradScaler: no optimizer step succeeded for 2000 steps in a row (since "
                          "step 2 of this run)");
  ::testing::internal::GetCapturedStderr();
  // The scaler is ready for another step: a finite one goes through.
  EXPECT_TRUE(scaled_step(scaler, optimizer, w, 1.0));
}

}  // namespace
}  // namespace accel
