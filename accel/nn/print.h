// Printing models as PyTorch does: `std::cout << model` shows the module tree, each module with
// its settings (extra_repr), and nn::summary(model) adds every module's parameter count and
// the totals.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "accel/nn/module.h"

namespace accel::nn {

// The tree, as PyTorch's repr:
//   MLP(
//     (main): Sequential(
//       (0): Linear(in_features=784, out_features=128, bias=true)
//       (1): ReLU()
//     ...
std::ostream& operator<<(std::ostream& out, const Module& module);
template <Holder H>
std::ostream& operator<<(std::ostream& out, const H& holder) {
  return out << *holder;
}

// The parameters of a module and its descendants: all of them, and those requiring gradients.
struct ParameterCounts {
  int64_t total = 0;
  int64_t trainable = 0;
};
ParameterCounts count_parameters(const Module& module);

// 109386 as "109,386".
std::string grouped_thousands(int64_t count);

// One row per module (dotted name, type, parameters of its subtree) and the totals:
//   module   type        parameters
//   (model)  MLP            109,386
//   main     Sequential     109,386
//   main.0   Linear         100,480
//   ...
//   109,386 parameters (109,386 trainable), 427.3 KiB
std::string summary(const Module& module);
template <Holder H>
std::string summary(const H& holder) {
  return summary(*holder);
}

}  // namespace accel::nn
