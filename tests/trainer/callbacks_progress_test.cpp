// The console callbacks: ProgressDisplay's tqdm-like text fitted to a width, ProgressBar's
// silence outside a terminal and its plain lines when asked for them (few lines, the last at
// 100%), and PrintProgress's messages.
#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>

#include "accel/accel.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

std::vector<std::string> lines_containing(const std::string& text, const std::string& part) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    if (line.find(part) != std::string::npos) lines.push_back(line);
  }
  return lines;
}

TEST(ProgressDisplay, FormatsCountRateElapsedAndEta) {
  EXPECT_EQ(ProgressDisplay::format("train", 45, 100, 1.5, 30.0),
            "train:  45%|#########           | 45/100 [00:01<00:01, 30.00it/s]");
  EXPECT_EQ(ProgressDisplay::format("eval", 0, 10, 0.0, 0.0),
            "eval:   0%|                    | 0/10 [00:00<?, ?it/s]");
  EXPECT_EQ(ProgressDisplay::format("train", 7, 0, 3725.0, 2.0), "train: 7 [1:02:05, 2.00it/s]");
}

TEST(ProgressDisplay, PrintsAPlainLineEveryTenthOfTheTotal) {
  ::testing::internal::CaptureStdout();
  {
    ProgressDisplay display("steps", 100, 0, ProgressDisplay::Mode::Lines);
    for (int i = 0; i < 100; ++i) display.update();
    display.close();
  }
  const std::string output = ::testing::internal::GetCapturedStdout();
  const auto lines = lines_containing(output, "steps:");
  ASSERT_EQ(lines.size(), 11u) << output;  // 0%, 10%, ..., 100%
  EXPECT_NE(lines.back().find("100/100"), std::string::npos);
  EXPECT_EQ(output.find('\r'), std::string::npos);
}

TEST(ProgressDisplay, FitsTheWidthItIsGiven) {
  const std::string postfix = "loss 0.4123, 2345 samples/s";
  EXPECT_EQ(ProgressDisplay::format("train", 45, 100, 1.5, 30.0, postfix, 120),
            "train:  45%|#########           | 45/100 [00:01<00:01, 30.00it/s, loss 0.4123, 2345 "
            "samples/s]");
  // At 80 columns the bar shrinks; at 50 it goes and the line is cut: nothing wraps.
  const std::string at_80 = ProgressDisplay::format("train", 45, 100, 1.5, 30.0, postfix, 80);
  EXPECT_EQ(at_80,
            "train:  45%|##   | 45/100 [00:01<00:01, 30.00it/s, loss 0.4123, 2345 samples/s]");
  EXPECT_EQ(at_80.size(), 79u);
  const std::string at_50 = ProgressDisplay::format("train", 45, 100, 1.5, 30.0, postfix, 50);
  EXPECT_EQ(at_50, "train:  45% 45/100 [00:01<00:01, 30.00it/s, loss ");
  EXPECT_EQ(at_50.size(), 49u);
}

TEST(ProgressBar, ShowsNothingWhenStderrIsNotATerminal) {
  ASSERT_FALSE(isatty(fileno(stderr))) << "run the tests with stderr redirected";
  auto model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {std::make_shared<ProgressBar>()});
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  trainer.train({.train_dataset = testing::regression_dataset(32), .num_epochs = 1});
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST(ProgressBar, WritesPlainLinesWhenAskedToOutsideATerminal) {
  auto model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<ProgressBar>(/*when_not_a_terminal=*/true, stdout)});
  ::testing::internal::CaptureStdout();
  trainer.train({.train_dataset = testing::regression_dataset(160),
                 .num_epochs = 1,
                 .eval_dataset = testing::regression_dataset(16, 11),
                 .per_device_batch_size = 8});
  const std::string output = ::testing::internal::GetCapturedStdout();
  const auto train_lines = lines_containing(output, "train:");
  ASSERT_FALSE(train_lines.empty()) << output;
  EXPECT_LE(train_lines.size(), 12u) << output;
  EXPECT_NE(train_lines.back().find("20/20"), std::string::npos) << output;
  EXPECT_NE(train_lines.back().find("it/s, loss "), std::string::npos) << output;
  EXPECT_NE(train_lines.back().find(" samples/s]"), std::string::npos) << output;
  const auto eval_lines = lines_containing(output, "eval:");
  ASSERT_FALSE(eval_lines.empty()) << output;
  EXPECT_NE(eval_lines.back().find("2/2"), std::string::npos) << output;
  EXPECT_EQ(output.find('\r'), std::string::npos);
}

TEST(ProgressBar, TotalsFollowLimitBatches) {
  auto model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<LimitBatches>(4), std::make_shared<ProgressBar>(true, stdout)});
  ::testing::internal::CaptureStdout();
  trainer.train({.train_dataset = testing::regression_dataset(160), .num_epochs = 1});
  const std::string output = ::testing::internal::GetCapturedStdout();
  const auto train_lines = lines_containing(output, "train:");
  ASSERT_FALSE(train_lines.empty()) << output;
  EXPECT_NE(train_lines.back().find("4/4"), std::string::npos) << output;
}

TEST(PrintProgress, AnnouncesRunsAndEpochs) {
  auto model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model), {std::make_shared<PrintProgress>()});
  ::testing::internal::CaptureStdout();
  trainer.train({.train_dataset = testing::regression_dataset(16),
                 .num_epochs = 2,
                 .eval_dataset = testing::regression_dataset(8, 11)});
  trainer.evaluate();
  const std::string output = ::testing::internal::GetCapturedStdout();
  for (const char* message :
       {"Starting training run", "Starting epoch 1", "Starting epoch 2", "Starting eval epoch",
        "Finishing training run", "Starting evaluation run", "Finishing evaluation run"}) {
    EXPECT_NE(output.find(message), std::string::npos) << message << " missing from\n" << output;
  }
}

}  // namespace
}  // namespace accel
