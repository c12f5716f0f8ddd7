// optim::LRScheduler: the base of the epoch-indexed learning-rate schedulers, as PyTorch's.
// Construction records each group's rate as its base rate and takes the initial step
// (last_epoch 0); every step() advances last_epoch and writes the rates get_lr() computes
// (PyTorch's recursive forms, which scale the groups' current rates) into the optimizer.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "accel/optim/optimizer.h"

namespace accel::optim {

// A scheduler's state: numbers only, so it serializes as JSON. `values` holds what a
// particular scheduler adds (ReduceLROnPlateau's best metric, ...).
struct LRSchedulerState {
  int64_t last_epoch = -1;
  std::vector<double> base_lrs;
  std::vector<double> last_lr;
  std::map<std::string, double> values;
  std::vector<LRSchedulerState> schedulers;  // a SequentialLR's or ChainedScheduler's children
};

// The largest step count a loaded state may hold: far beyond any run, so stepping on from it
// cannot overflow, and doubles still count exactly up to it.
inline constexpr int64_t kMaxLastEpoch = int64_t{1} << 53;

// Checks a loaded state's step count: an accel::Error from `op` naming 'last_epoch' unless it
// lies in [-1, kMaxLastEpoch] (-1: not stepped yet).
void check_loaded_last_epoch(std::string_view op, int64_t last_epoch);

// What a scheduler is given its optimizer as: a shared_ptr (shared ownership, as the Trainer
// passes it) or, as in LibTorch, the optimizer itself (StepLR scheduler(optimizer, 10)), which
// the caller then keeps alive as long as the scheduler.
class OptimizerRef {
 public:
  template <std::derived_from<Optimizer> O>
  OptimizerRef(std::shared_ptr<O> optimizer) : optimizer_(std::move(optimizer)) {}
  OptimizerRef(Optimizer& optimizer) : optimizer_(std::shared_ptr<Optimizer>(), &optimizer) {}
  OptimizerRef(std::nullptr_t) {}
  // Shares ownership when given a shared_ptr, else owns nothing.
  const std::shared_ptr<Optimizer>& shared() const { return optimizer_; }

 private:
  std::shared_ptr<Optimizer> optimizer_;
};

class LRScheduler {
 public:
  virtual ~LRScheduler() = default;
  LRScheduler(const LRScheduler&) = delete;
  LRScheduler& operator=(const LRScheduler&) = delete;

  virtual void step();
  // The rates of the last step, one per parameter group.
  const std::vector<double>& get_last_lr() const { return last_lr_; }
  int64_t last_epoch() const { return last_epoch_; }
  const std::vector<double>& base_lrs() const { return base_lrs_; }

  virtual LRSchedulerState state_dict() const;
  // Installs a state from a scheduler of the same kind; on an error nothing changes.
  virtual void load_state_dict(const LRSchedulerState& state);
  // The error load_state_dict would raise, without changing anything (for loaders that check
  // several parts of a checkpoint before applying any).
  virtual void check_state(const LRSchedulerState& state) const;

 protected:
  LRScheduler(std::string name, OptimizerRef optimizer);
  // Called at the end of each subclass constructor (get_lr needs the subclass's members).
  void initial_step();
  // The rates for last_epoch(); `initial` during the constructor's step.
  virtual std::vector<double> get_lr(bool initial) = 0;
  // The groups' current rates.
  std::vector<double> group_lrs() const;
  const std::string& name() const { return name_; }
  Optimizer& optimizer() { return *optimizer_; }
  // Takes the step that brings last_epoch to `last_epoch` (schedulers whose rates are a
  // function of the step count can jump there).
  void step_to(int64_t last_epoch);
  // For schedulers that cycle the momentum (OneCycleLR, CyclicLR): an accel::Error unless every
  // group has one (SGD's or RMSprop's momentum, Adam's beta1).
  void check_has_momentum() const;
  // Sets every group's momentum (or beta1).
  void set_momentum(double momentum);
  // Sets the rates back to the base rates and takes the initial step again (SequentialLR
  // starting this scheduler at a milestone, a WSD continuation starting afresh).
  void restart();

 private:
  // Composed schedulers check their parts' optimizers and step or restart them.
  friend class ChainedScheduler;
  friend class ComposedLRScheduler;
  friend class SequentialLR;
  void update_lr(bool initial);

  std::string name_;
  std::shared_ptr<Optimizer> optimizer_;
  std::vector<double> base_lrs_;
  std::vector<double> last_lr_;
  int64_t last_epoch_ = -1;
};

}  // namespace accel::optim
