// The optimizers the optimizer-state and scheduler-state targets load into, shared with the
// corpus generator so that the seeds are exactly what these optimizers save: every kind the
// state files can name, over two parameter groups of small float32 tensors (one group for
// LBFGS, which takes one).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "accel/accel.h"

namespace accel::fuzz {

struct NamedOptimizer {
  std::string name;
  std::shared_ptr<optim::Optimizer> optimizer;
};

// Fresh parameters for one optimizer: a [3, 2] weight and a [3] bias, in separate groups.
inline std::vector<Tensor> fresh_parameters() {
  Tensor weight = arange(6, kFloat32).reshape({3, 2});
  Tensor bias = full({3}, 0.5, kFloat32);
  weight.requires_grad_();
  bias.requires_grad_();
  return {weight, bias};
}

template <typename Optimizer, typename Options>
std::shared_ptr<optim::Optimizer> two_groups(const Options& first, const Options& second) {
  const std::vector<Tensor> params = fresh_parameters();
  return std::make_shared<Optimizer>(
      std::vector<optim::OptimizerParamGroup>{{{params[0]}, first}, {{params[1]}, second}}, first);
}

template <typename Optimizer, typename Options>
std::shared_ptr<optim::Optimizer> one_group(const Options& options) {
  return std::make_shared<Optimizer>(fresh_parameters(), options);
}

// One optimizer of each kind, freshly built (no state yet).
inline std::vector<NamedOptimizer> fresh_optimizers() {
  using namespace optim;
  return {
      {"sgd", two_groups<SGD>(SGDOptions(0.1).momentum(0.9),
                              SGDOptions(0.05).nesterov(true).momentum(0.5))},
      {"adam", two_groups<Adam>(AdamOptions(1e-2).amsgrad(true), AdamOptions(1e-3))},
      {"adamw", two_groups<AdamW>(AdamWOptions(1e-2), AdamWOptions(1e-3).weight_decay(0))},
      {"rmsprop", two_groups<RMSprop>(RMSpropOptions(1e-2).centered(true).momentum(0.5),
                                      RMSpropOptions(1e-3))},
      {"adagrad", two_groups<Adagrad>(AdagradOptions(1e-2), AdagradOptions(1e-1).lr_decay(0.1))},
      {"adamax", two_groups<Adamax>(AdamaxOptions(), AdamaxOptions(1e-1).maximize(true))},
      {"nadam",
       two_groups<NAdam>(NAdamOptions(),
                         NAdamOptions(1e-1).weight_decay(0.1).decoupled_weight_decay(true))},
      {"radam", two_groups<RAdam>(RAdamOptions(), RAdamOptions(1e-2).betas({0.8, 0.9}))},
      {"adadelta", two_groups<Adadelta>(AdadeltaOptions(), AdadeltaOptions(0.5).rho(0.8))},
      {"rprop", two_groups<Rprop>(RpropOptions(), RpropOptions(0.1).etas({0.3, 1.5}))},
      {"asgd", two_groups<ASGD>(ASGDOptions().t0(1), ASGDOptions(0.1).weight_decay(0.1))},
      {"lbfgs", one_group<LBFGS>(LBFGSOptions(0.1).max_iter(3).history_size(2))},
  };
}

// Takes one update on the loss "sum of every parameter element", whose gradients are ones.
inline void step_with_unit_gradients(optim::Optimizer& optimizer) {
  optimizer.step([&] {
    optimizer.zero_grad();
    Tensor loss = zeros({});
    for (auto& group : optimizer.param_groups()) {
      for (Tensor& param : group.params()) loss = loss + param.sum();
    }
    loss.backward();
    return loss;
  });
}

}  // namespace accel::fuzz
