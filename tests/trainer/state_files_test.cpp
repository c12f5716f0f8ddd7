// Training states and checkpoints as hostile files: each crafted file (a field missing, of the
// wrong type or holding an absurd count, deep nesting, a directory in a file's place) is an
// accel::Error naming the file and the field, never a crash or another exception; and
// non-finite losses and metrics survive a save and a resume exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "support/expect_error.h"
#include "trainer/trainer_test_util.h"

namespace accel {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::shared_ptr<data::TensorDataset> float32_dataset() {
  auto data = testing::regression_dataset(16);
  return std::make_shared<data::TensorDataset>(data->data().to(kFloat32),
                                               data->target().to(kFloat32));
}

// A linear model trained on 16 samples in batches of 4 (4 updates per epoch) with an
// ExponentialLR; float32 with a float16 loss scaler when `fp16`.
struct TrainerSetup {
  bool fp16 = false;
  LossFunction loss = nn::MSELoss();
  std::vector<std::shared_ptr<Callback>> callbacks = {};

  std::unique_ptr<Trainer> trainer() const {
    nn::Linear model = testing::linear_model();
    if (fp16) model->to(kFloat32);
    auto accelerator = std::make_shared<Accelerator>(
        AcceleratorConfig{.mixed_precision = fp16 ? MixedPrecision::FP16 : MixedPrecision::No});
    return std::make_unique<Trainer>(model, loss, testing::sgd(*model, 0.05, 0.9), callbacks,
                                     std::make_shared<InMemoryRunHistory>(), accelerator);
  }
  void train(Trainer& trainer, int64_t num_epochs,
             std::optional<std::string> resume_from = std::nullopt) const {
    trainer.train({.train_dataset = fp16 ? float32_dataset() : testing::regression_dataset(16),
                   .num_epochs = num_epochs,
                   .per_device_batch_size = 4,
                   .create_scheduler_fn =
                       [](auto opt) { return std::make_shared<optim::ExponentialLR>(opt, 0.9); },
                   .resume_from = std::move(resume_from)});
  }
};

// A copy, in a fresh directory named `name`, of a training state saved after one epoch.
std::string fresh_state(const std::string& name, bool fp16 = false) {
  static const std::string saved[2] = {[] {
                                         const std::string dir = testing::temp_dir("files_state");
                                         TrainerSetup setup;
                                         auto trainer = setup.trainer();
                                         setup.train(*trainer, 1);
                                         trainer->save_training_state(dir);
                                         return dir;
                                       }(),
                                       [] {
                                         const std::string dir =
                                             testing::temp_dir("files_state_fp16");
                                         TrainerSetup setup{.fp16 = true};
                                         auto trainer = setup.trainer();
                                         setup.train(*trainer, 1);
                                         trainer->save_training_state(dir);
                                         return dir;
                                       }()};
  const std::string dir = testing::temp_dir(name);
  fs::copy(saved[fp16 ? 1 : 0], dir, fs::copy_options::recursive);
  return dir;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// `text` nested `depth` levels deep in arrays: [[[...text...]]].
std::string nested(int64_t depth, const std::string& text = "") {
  return std::string(static_cast<size_t>(depth), '[') + text +
         std::string(static_cast<size_t>(depth), ']');
}

// Resuming a run from `dir` fails with an accel::Error naming dir/file and containing `text`.
void expect_resume_error(const std::string& dir, const std::string& file, const std::string& text,
                         bool fp16 = false) {
  TrainerSetup setup{.fp16 = fp16};
  auto trainer = setup.trainer();
  const std::string message = testing::error_of([&] { setup.train(*trainer, 2, dir); });
  EXPECT_NE(message.find(dir + "/" + file), std::string::npos) << file << ": " << message;
  EXPECT_NE(message.find(text), std::string::npos) << file << ": " << message;
}

// The JSON file `file` of a fresh training state, changed by `edit`, fails the resume with an
// error naming the file and containing `text`.
void expect_edit_rejected(const std::string& file, const std::function<void(json&)>& edit,
                          const std::string& text, bool fp16 = false) {
  SCOPED_TRACE(file + ": " + text);
  const std::string dir = fresh_state("files_edited", fp16);
  json value = read_json(dir + "/" + file);
  edit(value);
  write_text(dir + "/" + file, value.dump());
  expect_resume_error(dir, file, text, fp16);
}

TEST(StateFiles, AnUneditedStateResumes) {
  const std::string dir = fresh_state("files_unedited");
  TrainerSetup setup;
  auto trainer = setup.trainer();
  setup.train(*trainer, 2, dir);
  EXPECT_EQ(trainer->global_step(), 8);
}

TEST(StateFiles, AMissingTrainerStateFieldIsAnErrorNamingIt) {
  for (const char* key : {"epoch_index", "epoch_step", "global_step", "rng", "run_history",
                          "train_loss", "has_gradients"}) {
    expect_edit_rejected(
        "trainer_state.json", [&](json& state) { state.erase(key); }, fmt::format("'{}'", key));
  }
  const std::pair<const char*, const char*> nested_keys[] = {{"rng", "seed"},
                                                             {"rng", "offset"},
                                                             {"run_history", "current_epoch"},
                                                             {"run_history", "metrics"},
                                                             {"train_loss", "weighted_sum"},
                                                             {"train_loss", "count"}};
  for (const auto& [outer, inner] : nested_keys) {
    // Copied into the lambda: clang 14 cannot capture structured bindings.
    expect_edit_rejected(
        "trainer_state.json",
        [outer = outer, inner = inner](json& state) { state[outer].erase(inner); },
        fmt::format("'{}.{}'", outer, inner));
  }
}

TEST(StateFiles, ATrainerStateFieldOfTheWrongTypeIsAnErrorNamingIt) {
  const std::string file = "trainer_state.json";
  expect_edit_rejected(
      file, [](json& s) { s = json::array(); }, "expected an object");
  expect_edit_rejected(
      file, [](json& s) { s["epoch_index"] = "1"; }, "'epoch_index': expected an integer");
  expect_edit_rejected(
      file, [](json& s) { s["global_step"] = 1.5; }, "'global_step': expected an integer");
  expect_edit_rejected(
      file, [](json& s) { s["rng"] = 7; }, "'rng': expected an object");
  expect_edit_rejected(
      file, [](json& s) { s["rng"]["seed"] = -1; }, "'rng.seed': expected an unsigned");
  expect_edit_rejected(
      file, [](json& s) { s["rng"]["offset"] = "0"; }, "'rng.offset': expected an unsigned");
  expect_edit_rejected(
      file,
      [](json& s) {
        s["run_history"]["metrics"] = {{"loss", 1}};
      },
      "'run_history.metrics': expected an array");
  expect_edit_rejected(
      file, [](json& s) { s["run_history"]["metrics"] = json::parse(R"([["loss"]])"); },
      "'run_history.metrics[0]': expected an array of 2");
  expect_edit_rejected(
      file, [](json& s) { s["run_history"]["metrics"] = json::parse(R"([[1, [0.5]]])"); },
      "'run_history.metrics[0][0]': expected a string");
  expect_edit_rejected(
      file, [](json& s) { s["run_history"]["metrics"] = json::parse(R"([["loss", [0.5, "x"]]])"); },
      "'run_history.metrics[0][1][1]': expected a number");
  expect_edit_rejected(
      file, [](json& s) { s["train_loss"]["weighted_sum"] = nullptr; },
      "'train_loss.weighted_sum': expected a number");
  expect_edit_rejected(
      file, [](json& s) { s["train_loss"]["count"] = true; }, "'train_loss.count'");
  expect_edit_rejected(
      file, [](json& s) { s["has_gradients"] = 1; }, "'has_gradients': expected true or false");
}

TEST(StateFiles, AbsurdCountsInTheTrainerStateAreErrors) {
  const std::string file = "trainer_state.json";
  const int64_t max = std::numeric_limits<int64_t>::max();
  // Counting on from INT64_MAX would overflow: the limit leaves room to count.
  expect_edit_rejected(
      file, [&](json& s) { s["global_step"] = max; }, "'global_step': expected an integer in");
  expect_edit_rejected(
      file, [&](json& s) { s["run_history"]["current_epoch"] = max; },
      "'run_history.current_epoch'");
  expect_edit_rejected(
      file, [](json& s) { s["run_history"]["current_epoch"] = 0; }, "'run_history.current_epoch'");
  expect_edit_rejected(
      file, [&](json& s) { s["epoch_index"] = max; }, "'epoch_index'");
  expect_edit_rejected(
      file, [](json& s) { s["epoch_index"] = -1; }, "'epoch_index'");
  expect_edit_rejected(
      file, [](json& s) { s["epoch_step"] = 5; }, "'epoch_step'");
  expect_edit_rejected(
      file, [](json& s) { s["global_step"] = json::parse("18446744073709551615"); },
      "'global_step'");
  expect_edit_rejected(
      file, [](json& s) { s["rng"]["seed"] = json::parse("18446744073709551616"); }, "'rng.seed'");
  expect_edit_rejected(
      file, [](json& s) { s["train_loss"]["count"] = -4; }, "'train_loss.count'");
  expect_edit_rejected(
      file, [](json& s) { s["train_loss"]["count"] = "NaN"; }, "'train_loss.count'");
  expect_edit_rejected(
      file,
      [](json& s) { s["run_history"]["metrics"] = json::parse(R"([["a", [1]], ["a", [2]]])"); },
      "'run_history.metrics[1][0]': metric 'a' appears twice");
}

TEST(StateFiles, BadLossScalerStateIsAnErrorNamingTheField) {
  const std::string file = "trainer_state.json";
  {
    const std::string dir = fresh_state("files_fp16", /*fp16=*/true);
    TrainerSetup setup{.fp16 = true};
    auto trainer = setup.trainer();
    setup.train(*trainer, 2, dir);  // the unedited state resumes
  }
  expect_edit_rejected(
      file, [](json& s) { s["grad_scaler"].erase("scale"); }, "'grad_scaler.scale'", true);
  expect_edit_rejected(
      file, [](json& s) { s["grad_scaler"]["scale"] = "NaN"; }, "'grad_scaler.scale'", true);
  expect_edit_rejected(
      file, [](json& s) { s["grad_scaler"]["scale"] = 0; }, "'grad_scaler.scale'", true);
  expect_edit_rejected(
      file, [](json& s) { s["grad_scaler"]["growth_tracker"] = -1; },
      "'grad_scaler.growth_tracker'", true);
  expect_edit_rejected(
      file, [](json& s) { s["grad_scaler"]["growth_tracker"] = 0.5; },
      "'grad_scaler.growth_tracker'", true);
  expect_edit_rejected(
      file, [](json& s) { s["grad_scaler"]["steps"] = -1; }, "'grad_scaler.steps'", true);
  expect_edit_rejected(
      file,
      [](json& s) {
        s["grad_scaler"]["skipped_in_a_row"] = s["grad_scaler"]["steps"].get<int>() + 1;
      },
      "'grad_scaler.skipped_in_a_row'", true);
  expect_edit_rejected(
      file, [](json& s) { s["grad_scaler"] = json::array(); }, "'grad_scaler'", true);
}

TEST(StateFiles, BadCheckpointMetadataIsAnErrorNamingTheField) {
  const std::string file = "checkpoint.json";
  for (const char* key : {"format", "version", "has_optimizer", "has_scheduler", "extras"}) {
    expect_edit_rejected(
        file, [&](json& info) { info.erase(key); }, fmt::format("'{}'", key));
  }
  expect_edit_rejected(
      file, [](json& info) { info["format"] = 5; }, "'format': expected a string");
  expect_edit_rejected(
      file, [](json& info) { info["format"] = "other"; }, "not an accel checkpoint");
  expect_edit_rejected(
      file, [](json& info) { info["version"] = "1"; }, "'version': expected an integer");
  expect_edit_rejected(
      file, [](json& info) { info["has_scheduler"] = "yes"; },
      "'has_scheduler': expected true or false");
  expect_edit_rejected(
      file, [](json& info) { info = "checkpoint"; }, "expected an object");

  // Through load_checkpoint too, where the extras are returned.
  const std::string dir = fresh_state("files_no_extras");
  json info = read_json(dir + "/checkpoint.json");
  info.erase("extras");
  write_text(dir + "/checkpoint.json", info.dump());
  TrainerSetup setup;
  auto trainer = setup.trainer();
  setup.train(*trainer, 1);
  testing::expect_error_containing([&] { trainer->load_checkpoint(dir); },
                                   dir + "/checkpoint.json\": field 'extras'");
}

TEST(StateFiles, BadSchedulerStateIsAnErrorNamingTheFile) {
  const std::string file = "scheduler.json";
  const int64_t max = std::numeric_limits<int64_t>::max();
  // Stepping on from INT64_MAX would overflow.
  expect_edit_rejected(
      file, [&](json& s) { s["last_epoch"] = max; }, "'last_epoch'");
  expect_edit_rejected(
      file, [](json& s) { s.erase("base_lrs"); }, "'base_lrs'");
  expect_edit_rejected(
      file,
      [](json& s) {
        s["last_lr"] = {0.1, 0.2};
      },
      "2 last rates");

  const std::string dir = fresh_state("files_scheduler_overflow");
  write_text(dir + "/" + file,
             R"({"last_epoch":4,"base_lrs":[0.05],"last_lr":[1e400],"values":{},"schedulers":[]})");
  expect_resume_error(dir, file, "number overflow");
}

// Deep nesting used to overflow the stack (a recursive parse, dump or walk per level).
TEST(StateFiles, DeeplyNestedJsonIsAnErrorNotACrash) {
  const int64_t depth = 1'000'000;  // 2 MB of brackets
  for (const char* file : {"checkpoint.json", "trainer_state.json", "scheduler.json"}) {
    const std::string dir = fresh_state("files_deep");
    write_text(dir + "/" + file, nested(depth));
    expect_resume_error(dir, file, "nested more than 128 deep");
  }
  const std::string dir = fresh_state("files_deep_extras");
  json info = read_json(dir + "/checkpoint.json");
  std::string text = info.dump();
  const std::string extras = "\"extras\":";
  text.replace(text.find(extras), extras.size() + 2, extras + nested(depth) + ",");
  write_text(dir + "/checkpoint.json", text);
  expect_resume_error(dir, "checkpoint.json", "nested more than 128 deep");
}

TEST(StateFiles, AFileThatIsADirectoryIsAnError) {
  for (const char* file : {"checkpoint.json", "trainer_state.json", "scheduler.json"}) {
    const std::string dir = fresh_state("files_directory");
    fs::remove(dir + "/" + file);
    fs::create_directory(dir + "/" + file);
    expect_resume_error(dir, file, "is a directory");
  }
}

// Returns NaN as the loss of every batch from the `from`-th on (counting from 0).
class NaNFrom {
 public:
  explicit NaNFrom(int from) : from_(from) {}
  Tensor operator()(const Tensor& outputs, const Tensor& targets) {
    const Tensor loss = nn::functional::mse_loss(outputs, targets);
    return batches_++ >= from_ ? loss * std::numeric_limits<double>::quiet_NaN() : loss;
  }

 private:
  int from_;
  int batches_ = 0;
};

// Records a NaN, +inf and -inf under "odd" at each train epoch's end.
class RecordNonFinite : public Callback {
 public:
  void on_train_epoch_end(Trainer& trainer) override {
    const double inf = std::numeric_limits<double>::infinity();
    for (double value : {std::numeric_limits<double>::quiet_NaN(), inf, -inf}) {
      trainer.run_history().update_metric("odd", value);
    }
  }
};

// Stops the run at the start of the step after the first non-finite loss: a point a state can
// be saved at (TerminateOnNaN stops inside the step, where none can).
class StopAfterNonFiniteLoss : public Callback {
 public:
  void on_train_step_end(Trainer& trainer, const BatchOutput&, const data::Example&,
                         int64_t) override {
    seen_ = seen_ || !std::isfinite(trainer.batch_loss_value());
  }
  void on_train_step_start(Trainer&) override {
    if (seen_) throw StopTrainingError("a non-finite loss");
  }

 private:
  bool seen_ = false;
};

// A NaN loss mid-epoch and non-finite metrics in the run history used to be written as null,
// which loading then rejected.
TEST(StateFiles, NonFiniteLossesAndMetricsRoundTripExactly) {
  const std::string dir = testing::temp_dir("files_non_finite");
  {
    // Batch 5 is the second of epoch 2: the epoch's loss sum is NaN from there on.
    TrainerSetup setup{.loss = NaNFrom(5),
                       .callbacks = {std::make_shared<RecordNonFinite>(),
                                     std::make_shared<StopAfterNonFiniteLoss>()}};
    auto trainer = setup.trainer();
    setup.train(*trainer, 2);
    ASSERT_EQ(trainer->epoch_step(), 2);
    trainer->save_training_state(dir);
  }
  const json state = read_json(dir + "/trainer_state.json");
  EXPECT_EQ(state["train_loss"]["weighted_sum"], "NaN");

  TrainerSetup setup;
  auto trainer = setup.trainer();
  setup.train(*trainer, 2, dir);
  const std::vector<double> odd = trainer->run_history().get_metric_values("odd");
  ASSERT_EQ(odd.size(), 3u);
  EXPECT_TRUE(std::isnan(odd[0]));
  EXPECT_EQ(odd[1], std::numeric_limits<double>::infinity());
  EXPECT_EQ(odd[2], -std::numeric_limits<double>::infinity());
  // Epoch 2's loss includes the NaN batch from before the save.
  const std::vector<double> losses = trainer->run_history().get_metric_values("train_loss_epoch");
  ASSERT_EQ(losses.size(), 2u);
  EXPECT_TRUE(std::isfinite(losses[0]));
  EXPECT_TRUE(std::isnan(losses[1]));
}

}  // namespace
}  // namespace accel
