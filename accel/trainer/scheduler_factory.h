// SchedulerFactory: how a train() run builds its LR scheduler once the run's sizes are known
// (the Python original's create_scheduler_fn with placeholders). Accepts a callable taking the
// optimizer and the resolved TrainerPlaceholderValues, or one taking only the optimizer.
#pragma once

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "accel/optim/optimizer.h"
#include "accel/optim/schedulers/lr_scheduler.h"
#include "accel/trainer/run_config.h"

namespace accel {

class SchedulerFactory {
 public:
  using Function = std::function<std::shared_ptr<optim::LRScheduler>(
      std::shared_ptr<optim::Optimizer>, const TrainerPlaceholderValues&)>;

  SchedulerFactory() = default;
  template <typename F>
  requires std::is_invocable_v < F, std::shared_ptr<optim::Optimizer>,
  const TrainerPlaceholderValues& >
      SchedulerFactory(F function)  // NOLINT: implicit, for TrainArgs' designated initializers
      : function_(
            [f = std::move(function)](
                std::shared_ptr<optim::Optimizer> optimizer,
                const TrainerPlaceholderValues& values) -> std::shared_ptr<optim::LRScheduler> {
              return f(std::move(optimizer), values);
            }) {}
  template <typename F>
  requires(
      std::is_invocable_v<F, std::shared_ptr<optim::Optimizer>> &&
      !std::is_invocable_v<F, std::shared_ptr<optim::Optimizer>, const TrainerPlaceholderValues&>)
      SchedulerFactory(F function)  // NOLINT: implicit, for TrainArgs' designated initializers
      : function_([f = std::move(function)](
                      std::shared_ptr<optim::Optimizer> optimizer,
                      const TrainerPlaceholderValues&) -> std::shared_ptr<optim::LRScheduler> {
          return f(std::move(optimizer));
        }) {}

  explicit operator bool() const { return static_cast<bool>(function_); }
  // The factory's scheduler; an error when it returns null.
  std::shared_ptr<optim::LRScheduler> operator()(std::shared_ptr<optim::Optimizer> optimizer,
                                                 const TrainerPlaceholderValues& values) const;

 private:
  Function function_;
};

}  // namespace accel
