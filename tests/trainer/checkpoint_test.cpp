// Trainer checkpoints: round trips of weights, optimizer and scheduler state and user extras;
// errors for state the file lacks or the trainer cannot take; atomic replacement.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

using testing::expect_error_containing;

std::unique_ptr<Trainer> trained(nn::Linear model, bool with_scheduler) {
  auto trainer = std::make_unique<Trainer>(model, nn::MSELoss(), testing::sgd(*model, 0.05, 0.9),
                                           std::vector<std::shared_ptr<Callback>>{});
  TrainArgs args{.train_dataset = testing::regression_dataset(16),
                 .num_epochs = 1,
                 .per_device_batch_size = 4};
  if (with_scheduler) {
    args.create_scheduler_fn = [](auto opt) {
      return std::make_shared<optim::ExponentialLR>(opt, 0.9);
    };
  }
  trainer->train(args);
  return trainer;
}

TEST(Checkpoint, RoundTripsWeightsOptimizerSchedulerAndExtras) {
  const std::string dir = testing::temp_dir("checkpoint_round_trip");
  nn::Linear model = testing::linear_model();
  auto trainer = trained(model, true);
  trainer->save_checkpoint(dir, R"({"best_metric": 0.25})");
  const auto saved = testing::snapshot(*model);
  const auto saved_lr = trainer->scheduler()->get_last_lr();
  const auto saved_momentum =
      trainer->optimizer()->state(model->weight).at("momentum_buffer").clone();

  trainer->train({.train_dataset = testing::regression_dataset(16),
                  .num_epochs = 1,
                  .per_device_batch_size = 4,
                  .create_scheduler_fn = [](auto opt) {
                    return std::make_shared<optim::ExponentialLR>(opt, 0.9);
                  }});
  ASSERT_FALSE(testing::bit_identical(testing::snapshot(*model), saved));

  const std::string extras = trainer->load_checkpoint(dir);
  EXPECT_EQ(extras, R"({"best_metric":0.25})");
  EXPECT_TRUE(testing::bit_identical(testing::snapshot(*model), saved));
  EXPECT_TRUE(
      equal(trainer->optimizer()->state(model->weight).at("momentum_buffer"), saved_momentum));
  EXPECT_EQ(trainer->scheduler()->get_last_lr(), saved_lr);
  EXPECT_TRUE(std::filesystem::exists(dir + "/model.safetensors"));
}

TEST(Checkpoint, StateTheFileLacksOrTheTrainerCannotTakeIsAnError) {
  const std::string weights_only = testing::temp_dir("checkpoint_weights_only");
  nn::Linear model = testing::linear_model();
  auto trainer = trained(model, false);
  trainer->save_checkpoint(weights_only, "{}", /*save_optimizer=*/false);
  expect_error_containing([&] { trainer->load_checkpoint(weights_only); },
                          "holds no optimizer state");
  trainer->load_checkpoint(weights_only, /*load_optimizer=*/false);

  const std::string with_scheduler = testing::temp_dir("checkpoint_with_scheduler");
  trained(testing::linear_model(), true)->save_checkpoint(with_scheduler);
  expect_error_containing([&] { trainer->load_checkpoint(with_scheduler); },
                          "the Trainer has no scheduler to load it into");
  trainer->load_checkpoint(with_scheduler, true, /*load_scheduler=*/false);
}

TEST(Checkpoint, AModelOfAnotherShapeIsAnErrorNamingTheKeys) {
  const std::string dir = testing::temp_dir("checkpoint_other_model");
  // With scheduler state, which the new Trainer cannot take either: the model's mismatch is
  // the one reported.
  trained(testing::linear_model(), true)->save_checkpoint(dir);
  manual_seed(0);
  nn::Linear wider(4, 3);
  wider->to(kFloat64);
  Trainer trainer(wider, nn::MSELoss(), testing::sgd(*wider), {});
  const std::string message = testing::error_of([&] { trainer.load_checkpoint(dir); });
  EXPECT_NE(message.find("weight"), std::string::npos) << message;
  EXPECT_NE(message.find("[3, 4]"), std::string::npos) << message;
}

// Every file of a checkpoint is checked before any is applied: an optimizer or scheduler file
// the Trainer cannot take leaves the model, the optimizer and the scheduler as they were.
TEST(Checkpoint, AFileTheTrainerCannotTakeChangesNothing) {
  const std::string saved = testing::temp_dir("checkpoint_all_or_nothing");
  nn::Linear model = testing::linear_model();
  auto trainer = trained(model, true);
  trainer->save_checkpoint(saved);
  trainer->train({.train_dataset = testing::regression_dataset(16),
                  .num_epochs = 1,
                  .per_device_batch_size = 4,
                  .create_scheduler_fn = [](auto opt) {
                    return std::make_shared<optim::ExponentialLR>(opt, 0.9);
                  }});
  const auto weights = testing::snapshot(*model);
  const auto momentum = trainer->optimizer()->state(model->weight).at("momentum_buffer").clone();
  const auto lr = trainer->scheduler()->get_last_lr();
  const auto expect_unchanged = [&] {
    EXPECT_TRUE(testing::bit_identical(testing::snapshot(*model), weights));
    EXPECT_TRUE(equal(trainer->optimizer()->state(model->weight).at("momentum_buffer"), momentum));
    EXPECT_EQ(trainer->scheduler()->get_last_lr(), lr);
  };

  const std::string bad_scheduler = testing::temp_dir("checkpoint_bad_scheduler");
  std::filesystem::copy(saved, bad_scheduler);
  {
    std::ifstream in(bad_scheduler + "/scheduler.json");
    nlohmann::json state = nlohmann::json::parse(in);
    state["base_lrs"].push_back(0.5);  // one more rate than the optimizer has groups
    std::ofstream(bad_scheduler + "/scheduler.json") << state.dump();
  }
  expect_error_containing([&] { trainer->load_checkpoint(bad_scheduler); },
                          "scheduler.json\": ExponentialLR: the state has 2 base rates");
  expect_unchanged();

  const std::string bad_optimizer = testing::temp_dir("checkpoint_bad_optimizer");
  std::filesystem::copy(saved, bad_optimizer);
  optim::save(optim::Adam(model->parameters(), optim::AdamOptions(0.1)),
              bad_optimizer + "/optimizer.safetensors");
  expect_error_containing([&] { trainer->load_checkpoint(bad_optimizer); },
                          "expected the state of a SGD optimizer, found the state of Adam");
  expect_unchanged();

  trainer->load_checkpoint(saved);
  EXPECT_FALSE(testing::bit_identical(testing::snapshot(*model), weights));
}

TEST(Checkpoint, AFailedSaveLeavesThePreviousCheckpointIntact) {
  const std::string dir = testing::temp_dir("checkpoint_atomic");
  nn::Linear model = testing::linear_model();
  auto trainer = trained(model, false);
  trainer->save_checkpoint(dir, R"({"version": 1})");
  expect_error_containing([&] { trainer->save_checkpoint(dir, "{not json"); },
                          "the extras must be valid JSON");
  EXPECT_EQ(trainer->load_checkpoint(dir), R"({"version":1})");
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(dir).parent_path())) {
    EXPECT_EQ(entry.path().string().find("checkpoint_atomic.tmp"), std::string::npos);
  }
  expect_error_containing([&] { trainer->load_checkpoint(testing::temp_dir("checkpoint_none")); },
                          "is not a checkpoint directory");
}

}  // namespace
}  // namespace accel
