// How an op records itself for autograd. An op computes its result, then, if any input
// requires grad, calls record() with a backward lambda written right beside the forward:
//
//   Tensor out = ...forward...;
//   if (autograd::should_record(a, b)) {
//     autograd::record("mul", {a, b}, out,
//         [sa = SavedTensor(a), sb = SavedTensor(b)](const Tensor& grad, GradInputs& in) {
//           if (in.needs(0)) in[0] = grad * sb.get();
//           if (in.needs(1)) in[1] = grad * sa.get();
//         });
//   }
//
// Backward lambdas run with grad mode off and may call any op. A lambda taking
// (const Tensor&, GradInputs&) serves single-output ops; one taking (GradVector&,
// GradInputs&) receives the gradients of all outputs (undefined where none flowed).
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <type_traits>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/autograd/node.h"
#include "accel/core/autograd/saved_tensor.h"
#include "accel/core/object_pool.h"

namespace accel::autograd {

template <typename F>
class FunctionNode final : public Node {
 public:
  FunctionNode(const char* name, F&& backward) : Node(name), backward_(std::move(backward)) {}

  void apply(GradVector& grad_outputs, GradInputs& grad_inputs) override {
    if (!backward_) [[unlikely]]
      fail_released();
    if constexpr (std::is_invocable_v<F&, const Tensor&, GradInputs&>) {
      (*backward_)(grad_outputs[0], grad_inputs);
    } else {
      (*backward_)(grad_outputs, grad_inputs);
    }
  }
  void release_saved() override { backward_.reset(); }

 private:
  [[noreturn]] void fail_released() const {
    fail(name(),
         "trying to backward through the graph a second time (its saved tensors were freed "
         "after the first backward); pass retain_graph=true to the first backward call");
  }
  std::optional<F> backward_;
};

inline bool requires_grad(const Tensor& t) { return t.defined() && t.requires_grad(); }

// Whether an op with these inputs must record a node.
template <typename... Ts>
bool should_record(const Ts&... inputs) {
  return GradMode::is_enabled() && (requires_grad(inputs) || ...);
}
bool should_record(TensorList inputs);

// The edge that gradients for `t` flow along (null when t does not require grad).
Edge gradient_edge(const Tensor& t);
// Makes `node` (output `output_nr`) the grad_fn of `output`.
void set_history(const Tensor& output, std::shared_ptr<Node> node, uint32_t output_nr = 0);

template <typename F>
std::shared_ptr<Node> make_node(const char* name, F&& backward) {
  using NodeType = FunctionNode<std::decay_t<F>>;
  return make_pooled<NodeType>(name, std::decay_t<F>(std::forward<F>(backward)));
}

using InputRefs = std::initializer_list<std::reference_wrapper<const Tensor>>;

template <typename F>
void record(const char* name, InputRefs inputs, const Tensor& output, F&& backward) {
  auto node = make_node(name, std::forward<F>(backward));
  node->next_edges.resize(inputs.size());
  size_t i = 0;
  for (const Tensor& input : inputs) node->next_edges[i++] = gradient_edge(input);
  set_history(output, std::move(node));
}

template <typename F>
void record(const char* name, TensorList inputs, std::span<const Tensor> outputs, F&& backward) {
  auto node = make_node(name, std::forward<F>(backward));
  node->next_edges.resize(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) node->next_edges[i] = gradient_edge(inputs[i]);
  node->num_outputs = static_cast<uint32_t>(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    set_history(outputs[i], node, static_cast<uint32_t>(i));
  }
}

// What a backward function needs to know about an input it did not save: its shape and
// dtype, to sum a broadcast gradient back down and return it in the input's type.
struct InputInfo {
  DimVector sizes;
  ScalarType dtype = kFloat32;
  InputInfo() = default;
  explicit InputInfo(const Tensor& t) : sizes(t.sizes()), dtype(t.dtype()) {}
  Tensor reduce(const Tensor& grad) const;
};

// Checks before an in-place op changes `self` while grad mode is on: a leaf that requires
// grad may not be modified, and a view may not take part in differentiation in place
// (its base would not see the new history).
void check_inplace(const Tensor& self, bool other_requires_grad, const char* op);

}  // namespace accel::autograd
