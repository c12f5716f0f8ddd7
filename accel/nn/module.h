// nn::Module: the base of every layer and model. A module owns named parameters, buffers and
// child modules; the tree gives dotted names in PyTorch's order ("main.0.weight"), moves
// between dtypes and devices in place, and saves/restores through state_dict.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "accel/core/tensor.h"
#include "accel/nn/holder.h"
#include "accel/nn/ordered_dict.h"

namespace accel::nn {

class Module : public std::enable_shared_from_this<Module> {
 public:
  Module() = default;
  virtual ~Module() = default;
  // Modules are shared through holders and shared_ptr; copying one would alias its tensors.
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // The computation. Modules with other signatures add their own overloads.
  virtual Tensor forward(const Tensor& input);

  // The module's type name for messages: "Linear" for nn::LinearImpl, "MNISTModel" for a user's
  // MNISTModelImpl (namespaces and the Impl suffix dropped).
  std::string name() const;
  // What this module shows between the parentheses when printed (std::cout << model), as
  // PyTorch's extra_repr: "in_features=784, out_features=128, bias=true" for a Linear. Empty
  // by default; a user's module may override it.
  virtual std::string extra_repr() const { return {}; }

  // ---- building the tree ----
  // Registers `tensor` as a parameter (requires_grad set as given) and returns it.
  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor& register_buffer(std::string name, Tensor tensor);
  template <typename M>
  std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module) {
    add_child(std::move(name), module);
    return module;
  }
  template <Holder H>
  H register_module(std::string name, H holder) {
    add_child(std::move(name), holder.ptr());
    return holder;
  }
  // Swaps the child registered as `name` for `module` (the caller updates its own member).
  template <typename M>
  std::shared_ptr<M> replace_module(const std::string& name, std::shared_ptr<M> module) {
    replace_child(name, module);
    return module;
  }
  template <Holder H>
  H replace_module(const std::string& name, H holder) {
    replace_child(name, holder.ptr());
    return holder;
  }

  // ---- walking the tree (pre-order: a module's own entries, then its children's) ----
  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<Tensor> named_buffers(bool recurse = true) const;
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::shared_ptr<Module>> named_children() const;
  // This module (which must be owned by a shared_ptr or holder) and all its descendants.
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true);
  OrderedDict<std::shared_ptr<Module>> named_modules(const std::string& prefix = "",
                                                     bool include_self = true);

  // ---- modes and state ----
  virtual void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const { return is_training_; }
  // Converts floating-point parameters and buffers (and their gradients) in place: the same
  // Tensor objects then hold the new data, so optimizers built earlier stay valid.
  void to(ScalarType dtype);
  void to(Device device);
  void to(Device device, ScalarType dtype);
  // Drops the gradients (set_to_none) or zeroes them in place.
  void zero_grad(bool set_to_none = true);
  // Calls fn on every descendant, then on this module (torch.nn.Module.apply's order).
  void apply(const std::function<void(Module&)>& fn);

  // Parameters then buffers of each module, in pre-order, under dotted names; the tensors
  // share memory with the module's (detached).
  OrderedDict<Tensor> state_dict() const;
  // Copies values into the existing tensors. A shape mismatch is always an error; missing and
  // unexpected keys are errors when strict. One error lists every problem found, and on an
  // error nothing is copied.
  void load_state_dict(const OrderedDict<Tensor>& state_dict, bool strict = true);
  // The error load_state_dict would raise, without copying anything (for loaders that check
  // several parts of a checkpoint before applying any).
  void check_state_dict(const OrderedDict<Tensor>& state_dict, bool strict = true) const;
  // state_dict() to a safetensors file (written atomically) and back through load_state_dict.
  void save(const std::string& path) const;
  void load(const std::string& path, bool strict = true);
  // The state dict a file written by save() holds, not yet loaded into any module.
  static OrderedDict<Tensor> read_state_dict(const std::string& path);

 private:
  void add_child(std::string name, std::shared_ptr<Module> child);
  void replace_child(const std::string& name, std::shared_ptr<Module> child);
  // Visits (dotted name, tensor) of this module's and its descendants' parameters or buffers.
  void visit_tensors(bool parameters, bool buffers, bool recurse, const std::string& prefix,
                     const std::function<void(const std::string&, const Tensor&)>& fn) const;
  // Replaces every parameter's and buffer's data (and gradient) by convert(tensor), in place.
  void convert_tensors(const std::function<Tensor(const Tensor&)>& convert);

  OrderedDict<Tensor> parameters_;
  OrderedDict<Tensor> buffers_;
  OrderedDict<std::shared_ptr<Module>> children_;
  bool is_training_ = true;
};

}  // namespace accel::nn
