// Shared fixtures of the Trainer tests: a small regression problem (y = x·w + b + noise) in
// float64, a linear model and optimizer over it, a model with dropout, and a callback that
// saves a training state at a given step.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "accel/accel.h"

namespace accel::testing {

// n samples of 4 features; targets [n, 1].
inline std::shared_ptr<data::TensorDataset> regression_dataset(int64_t n, uint64_t seed = 7) {
  Generator generator(seed);
  Tensor x = randn({n, 4}, kFloat64, &generator);
  Tensor w = tensor({0.5, -1.0, 2.0, 0.25}).reshape({4, 1});
  Tensor y = matmul(x, w) + 0.3 + 0.01 * randn({n, 1}, kFloat64, &generator);
  return std::make_shared<data::TensorDataset>(x, y);
}

inline nn::Linear linear_model(uint64_t seed = 1) {
  manual_seed(seed);
  nn::Linear model(4, 1);
  model->to(kFloat64);
  return model;
}

inline std::shared_ptr<optim::SGD> sgd(const nn::Module& model, double lr = 0.05,
                                       double momentum = 0.0) {
  return std::make_shared<optim::SGD>(model.parameters(), optim::SGDOptions(lr).momentum(momentum));
}

inline DataLoaderKwargs in_order() { return {.shuffle = false}; }

// The tensors of a module's state_dict, cloned.
inline std::vector<Tensor> snapshot(const nn::Module& model) {
  std::vector<Tensor> values;
  const auto state = model.state_dict();
  for (const auto& item : state.items()) values.push_back(item.second.clone());
  return values;
}

inline bool bit_identical(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!equal(a[i], b[i])) return false;
  }
  return true;
}

// A fresh empty directory under the test temp dir, named after the running test too: CTest
// runs tests in parallel processes, which must not share a directory.
inline std::string temp_dir(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string dir = ::testing::TempDir() + "accel_trainer_" +
                    (test != nullptr ? std::string(test->name()) + "_" : "") + name;
  std::filesystem::remove_all(dir);
  return dir;
}

// A small regression model with dropout, so that a resumed run must restore the random state.
struct DropoutModelImpl : nn::Module {
  nn::Sequential body{nn::Linear(4, 16), nn::ReLU(), nn::Dropout(0.3), nn::Linear(16, 1)};
  DropoutModelImpl() { register_module("body", body); }
  Tensor forward(const Tensor& x) override { return body->forward(x); }
};
ACCEL_MODULE(DropoutModel);

// Saves a training state once, at the start of the train step after `global_step` updates.
class SaveAtStep : public Callback {
 public:
  SaveAtStep(int64_t global_step, std::string dir) : step_(global_step), dir_(std::move(dir)) {}
  void on_train_step_start(Trainer& trainer) override {
    if (!saved_ && trainer.global_step() == step_) {
      trainer.save_training_state(dir_);
      saved_ = true;
    }
  }

 private:
  int64_t step_;
  std::string dir_;
  bool saved_ = false;
};

}  // namespace accel::testing
