// ChainedScheduler: each step steps every scheduler in order; the rates are what the last
// one leaves in the optimizer.
#include "accel/optim/schedulers/chained_scheduler.h"

namespace accel::optim {

OptimizerRef ChainedScheduler::chain_optimizer(
    const std::vector<std::shared_ptr<LRScheduler>>& schedulers, OptimizerRef optimizer) {
  ACCEL_CHECK(!schedulers.empty(), "ChainedScheduler", "expected at least one scheduler");
  if (optimizer.shared() || !schedulers[0]) return optimizer;
  return schedulers[0]->optimizer_;
}

// The schedulers are copied (not moved) as the optimizer is found from them in the same call.
ChainedScheduler::ChainedScheduler(std::vector<std::shared_ptr<LRScheduler>> schedulers,
                                   OptimizerRef optimizer)
    : ComposedLRScheduler("ChainedScheduler", chain_optimizer(schedulers, std::move(optimizer)),
                          schedulers) {
  initial_step();
}

std::vector<double> ChainedScheduler::get_lr(bool initial) {
  if (!initial) {
    for (const auto& scheduler : schedulers()) scheduler->step();
  }
  return group_lrs();
}

}  // namespace accel::optim
