// SchedulerFactory: the call, checking the factory returned a scheduler.
#include "accel/trainer/scheduler_factory.h"

#include "accel/base/error.h"

namespace accel {

std::shared_ptr<optim::LRScheduler> SchedulerFactory::operator()(
    std::shared_ptr<optim::Optimizer> optimizer, const TrainerPlaceholderValues& values) const {
  ACCEL_CHECK(function_ != nullptr, "Trainer::create_scheduler", "no scheduler factory was given");
  auto scheduler = function_(std::move(optimizer), values);
  ACCEL_CHECK(scheduler != nullptr, "Trainer::create_scheduler",
              "the create_scheduler_fn factory returned a null scheduler");
  return scheduler;
}

}  // namespace accel
