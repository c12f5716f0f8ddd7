// LossFunction: the Trainer's loss, built from any callable Tensor(outputs, targets) or from a
// loss module holder (nn::CrossEntropyLoss()). A module stays visible through module(), so
// MoveModulesToDevice moves its buffers (class weights) with the model.
#pragma once

#include <concepts>
#include <functional>
#include <memory>
#include <utility>

#include "accel/core/tensor.h"
#include "accel/nn/holder.h"
#include "accel/nn/module.h"

namespace accel {

class LossFunction {
 public:
  // No loss: the model computes its own in an overridden calculate_*_batch_loss.
  LossFunction() = default;

  // A loss module holder: calls its forward(outputs, targets).
  template <nn::Holder H>
  requires requires(typename H::ContainedType& m, const Tensor& t) {
    { m.forward(t, t) } -> std::convertible_to<Tensor>;
  }
  LossFunction(const H& holder)  // NOLINT: implicit, as the Trainer's argument
      : module_(holder.ptr()),
        function_([impl = holder.ptr()](const Tensor& outputs, const Tensor& targets) {
          return impl->forward(outputs, targets);
        }) {}

  // Any callable Tensor(const Tensor& outputs, const Tensor& targets).
  template <typename F>
  requires(!nn::Holder<std::decay_t<F>> && !std::same_as<std::decay_t<F>, LossFunction> &&
           std::is_invocable_r_v<Tensor, F, const Tensor&, const Tensor&>)
      LossFunction(F&& function)  // NOLINT: implicit, as the Trainer's argument
      : function_(std::forward<F>(function)) {}

  bool defined() const { return static_cast<bool>(function_); }
  explicit operator bool() const { return defined(); }
  // The loss; an error when none was given.
  Tensor operator()(const Tensor& outputs, const Tensor& targets) const;
  // The loss module, when built from one (else nullptr).
  const std::shared_ptr<nn::Module>& module() const { return module_; }

 private:
  std::shared_ptr<nn::Module> module_;
  std::function<Tensor(const Tensor&, const Tensor&)> function_;
};

}  // namespace accel
