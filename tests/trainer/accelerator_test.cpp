// The Accelerator and callback plumbing with one process: collectives, padding, printing,
// the CallbackHandler's order, duplicate check and user-named events, and RunHistory.
#include <gtest/gtest.h>

#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

using testing::expect_error_containing;

TEST(Accelerator, SingleProcessCollectives) {
  Accelerator accelerator({.mixed_precision = MixedPrecision::No});
  EXPECT_TRUE(accelerator.is_main_process());
  EXPECT_TRUE(accelerator.is_local_main_process());
  EXPECT_EQ(accelerator.num_processes(), 1);
  EXPECT_EQ(accelerator.process_index(), 0);
  EXPECT_FALSE(accelerator.is_distributed());
  Tensor t = tensor({1.0, 2.0, 3.0});
  EXPECT_TRUE(equal(accelerator.gather(t), t));
  EXPECT_TRUE(equal(accelerator.gather(scalar_tensor(4.0, kFloat64)), tensor({4.0})));
  EXPECT_TRUE(equal(accelerator.reduce(t), t));
  EXPECT_TRUE(equal(accelerator.pad_across_processes(t, 0, -1), t));
  accelerator.wait_for_everyone();
  expect_error_containing([&] { accelerator.pad_across_processes(t, 3); },
                          "dim 3 out of range for a tensor of 1 dimensions");
  distributed::SingleProcessGroup group;
  expect_error_containing([&] { group.broadcast(t, 1); }, "root must be a rank of the group");
}

class Named : public Callback {
 public:
  Named(std::vector<std::string>& log, std::string name) : log_(log), name_(std::move(name)) {}
  void on_event(const std::string& event, Trainer&) override {
    log_.push_back(name_ + ":" + event);
  }

 private:
  std::vector<std::string>& log_;
  std::string name_;
};
class Other : public Named {
 public:
  using Named::Named;
};

TEST(CallbackHandler, KeepsOrderRejectsDuplicatesAndFiresNamedEvents) {
  std::vector<std::string> log;
  nn::Linear model = testing::linear_model();
  Trainer trainer(model, nn::MSELoss(), testing::sgd(*model),
                  {std::make_shared<Named>(log, "a"), std::make_shared<Other>(log, "b")});
  trainer.callback_handler().call_event("my_event", trainer);
  EXPECT_EQ(log, (std::vector<std::string>{"a:my_event", "b:my_event"}));
  expect_error_containing(
      [&] { trainer.callback_handler().add_callback(std::make_shared<Named>(log, "c")); },
      "is already registered");
  EXPECT_NE(trainer.callback_handler().get_callback<Other>(), nullptr);
}

TEST(RunHistory, RecordsMetricsWithPrefixAndEpochs) {
  InMemoryRunHistory history;
  EXPECT_EQ(history.current_epoch(), 1);
  history.update_metric("loss", 1.0);
  history.update_metric("loss", 0.5);
  history.set_metric_name_prefix("ema_model_");
  history.update_metric("loss", 0.7);
  history.set_metric_name_prefix("");
  EXPECT_EQ(history.get_metric_names(), (std::vector<std::string>{"loss", "ema_model_loss"}));
  EXPECT_EQ(history.get_metric_values("loss"), (std::vector<double>{1.0, 0.5}));
  EXPECT_EQ(history.get_latest_metric("ema_model_loss"), 0.7);
  expect_error_containing([&] { history.get_latest_metric("accuracy"); },
                          "no value recorded for metric 'accuracy'");
  history.increment_epoch();
  EXPECT_EQ(history.current_epoch(), 2);
  history.delete_metric("loss");
  EXPECT_EQ(history.get_metric_names(), (std::vector<std::string>{"ema_model_loss"}));
  history.reset();
  EXPECT_TRUE(history.get_metric_names().empty());
  EXPECT_EQ(history.current_epoch(), 1);
}

}  // namespace
}  // namespace accel
