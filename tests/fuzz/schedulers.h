// The learning-rate schedulers the scheduler-state target loads into, shared with the corpus
// generator: every kind with state of its own (SequentialLR's children, ReduceLROnPlateau's
// best metric, the step-count schedulers), each over a fresh two-group SGD.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "accel/accel.h"

namespace accel::fuzz {

// One scheduler behind a uniform face: load a state, take a step, save the state.
struct SchedulerUnderTest {
  std::string name;
  std::function<void(const optim::LRSchedulerState&)> load;
  std::function<void()> step;
  std::function<optim::LRSchedulerState()> save;
};

inline std::shared_ptr<optim::Optimizer> scheduled_sgd() {
  Tensor weight = ones({2, 2}, kFloat32).requires_grad_();
  Tensor bias = zeros({2}, kFloat32).requires_grad_();
  return std::make_shared<optim::SGD>(
      std::vector<optim::OptimizerParamGroup>{{{weight}, optim::SGDOptions(0.1).momentum(0.9)},
                                              {{bias}, optim::SGDOptions(0.02).momentum(0.9)}},
      optim::SGDOptions(0.1).momentum(0.9));
}

template <typename Scheduler>
SchedulerUnderTest epoch_scheduler(std::string name, std::shared_ptr<Scheduler> scheduler) {
  return {std::move(name), [scheduler](const auto& state) { scheduler->load_state_dict(state); },
          [scheduler] { scheduler->step(); }, [scheduler] { return scheduler->state_dict(); }};
}

// One scheduler of each kind, freshly built.
inline std::vector<SchedulerUnderTest> fresh_schedulers() {
  using namespace optim;
  std::vector<SchedulerUnderTest> out;
  out.push_back(epoch_scheduler("step_lr", std::make_shared<StepLR>(scheduled_sgd(), 2, 0.5)));
  out.push_back(epoch_scheduler(
      "multi_step_lr", std::make_shared<MultiStepLR>(scheduled_sgd(), std::vector<int64_t>{1, 3})));
  out.push_back(epoch_scheduler("cosine_annealing_lr",
                                std::make_shared<CosineAnnealingLR>(scheduled_sgd(), 4, 1e-3)));
  out.push_back(
      epoch_scheduler("one_cycle_lr", std::make_shared<OneCycleLR>(scheduled_sgd(), 0.5, 10)));
  {
    auto optimizer = scheduled_sgd();
    out.push_back(epoch_scheduler(
        "sequential_lr",
        std::make_shared<SequentialLR>(optimizer,
                                       std::vector<std::shared_ptr<LRScheduler>>{
                                           std::make_shared<LinearLR>(optimizer, 0.25, 1.0, 2),
                                           std::make_shared<ExponentialLR>(optimizer, 0.9)},
                                       std::vector<int64_t>{2})));
  }
  out.push_back(
      epoch_scheduler("cosine_lr_scheduler",
                      std::make_shared<CosineLrScheduler>(
                          scheduled_sgd(), 4, 2,
                          CosineLrSchedulerOptions().num_warmup_epochs(2).num_cooldown_epochs(1))));
  out.push_back(epoch_scheduler(
      "wsd_lr_scheduler",
      std::make_shared<WSDLrScheduler>(
          scheduled_sgd(), 20, WSDLrSchedulerOptions().num_warmup_steps(2).num_checkpoints(2))));
  auto plateau = std::make_shared<ReduceLROnPlateau>(
      scheduled_sgd(), ReduceLROnPlateauOptions().patience(1).cooldown(1));
  out.push_back({"reduce_lr_on_plateau",
                 [plateau](const auto& state) { plateau->load_state_dict(state); },
                 [plateau] { plateau->step(1.0); }, [plateau] { return plateau->state_dict(); }});
  return out;
}

}  // namespace accel::fuzz
