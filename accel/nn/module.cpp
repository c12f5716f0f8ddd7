// nn::Module: registration, tree walks, in-place dtype/device moves and state_dict loading.
// The tree is walked pre-order (own entries first, then children), the order PyTorch's
// named_parameters and state_dict use, so names and orders match a PyTorch model's.
#include "accel/nn/module.h"

#include <cxxabi.h>

#include <cstdlib>
#include <typeinfo>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/io/message_name.h"
#include "accel/core/ops.h"

namespace accel::nn {
namespace {

// How many unexpected names a load_state_dict error lists.
constexpr size_t kMaxListedKeys = 20;

void check_entry_name(const std::string& name, const char* op) {
  ACCEL_CHECK(!name.empty(), op, "the name must not be empty");
  ACCEL_CHECK(name.find('.') == std::string::npos, op,
              "the name \"{}\" must not contain a dot (dots separate nested names)", name);
}

std::string join_name(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

// Makes `tensor` hold `converted`'s data, dtype and geometry, keeping its identity (the impl
// that optimizers and user code hold) and its autograd leaf status.
void replace_data(const Tensor& tensor, const Tensor& converted) {
  if (converted.is_same(tensor)) return;
  TensorImpl& impl = *tensor.impl();
  const TensorImpl& source = *converted.impl();
  impl.storage = source.storage;
  impl.dtype = source.dtype;
  impl.set_geometry(source.sizes, source.strides, source.storage_offset);
}

}  // namespace

Tensor Module::forward(const Tensor&) {
  fail(name(),
       "forward not implemented for {}: Sequential, the Trainer and other generic callers "
       "call `Tensor forward(const Tensor&) override`; a forward taking its input by value or with "
       "other arguments hides this one instead of overriding it",
       name());
}

std::string Module::name() const {
  const char* mangled = typeid(*this).name();
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string full = status == 0 && demangled ? demangled : mangled;
  std::free(demangled);
  if (size_t colon = full.rfind("::"); colon != std::string::npos) full = full.substr(colon + 2);
  constexpr std::string_view kImpl = "Impl";
  if (full.size() > kImpl.size() && full.ends_with(kImpl)) full.resize(full.size() - kImpl.size());
  return full;
}

Tensor& Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  check_entry_name(name, "register_parameter");
  ACCEL_CHECK(tensor.defined(), "register_parameter", "parameter \"{}\" is an undefined tensor",
              name);
  ACCEL_CHECK(!buffers_.contains(name) && !children_.contains(name), "register_parameter",
              "\"{}\" is already registered as a buffer or module of {}", name, this->name());
  ACCEL_CHECK(!requires_grad || tensor.is_floating_point(), "register_parameter",
              "parameter \"{}\" requires grad but has non-floating dtype {}", name, tensor.dtype());
  tensor.requires_grad_(requires_grad);
  return parameters_.insert(std::move(name), std::move(tensor), "register_parameter");
}

Tensor& Module::register_buffer(std::string name, Tensor tensor) {
  check_entry_name(name, "register_buffer");
  ACCEL_CHECK(tensor.defined(), "register_buffer", "buffer \"{}\" is an undefined tensor", name);
  ACCEL_CHECK(!parameters_.contains(name) && !children_.contains(name), "register_buffer",
              "\"{}\" is already registered as a parameter or module of {}", name, this->name());
  return buffers_.insert(std::move(name), std::move(tensor), "register_buffer");
}

void Module::add_child(std::string name, std::shared_ptr<Module> child) {
  check_entry_name(name, "register_module");
  ACCEL_CHECK(child != nullptr, "register_module", "module \"{}\" is empty", name);
  ACCEL_CHECK(child.get() != this, "register_module", "a module cannot be its own child");
  ACCEL_CHECK(!parameters_.contains(name) && !buffers_.contains(name), "register_module",
              "\"{}\" is already registered as a parameter or buffer of {}", name, this->name());
  children_.insert(std::move(name), std::move(child), "register_module");
}

void Module::replace_child(const std::string& name, std::shared_ptr<Module> child) {
  std::shared_ptr<Module>* slot = children_.find(name);
  ACCEL_CHECK(slot != nullptr, "replace_module", "{} has no submodule \"{}\"", this->name(), name);
  ACCEL_CHECK(child != nullptr, "replace_module", "module \"{}\" is empty", name);
  *slot = std::move(child);
}

void Module::visit_tensors(bool parameters, bool buffers, bool recurse, const std::string& prefix,
                           const std::function<void(const std::string&, const Tensor&)>& fn) const {
  if (parameters) {
    for (const auto& [name, tensor] : parameters_) fn(join_name(prefix, name), tensor);
  }
  if (buffers) {
    for (const auto& [name, tensor] : buffers_) fn(join_name(prefix, name), tensor);
  }
  if (!recurse) return;
  for (const auto& [name, child] : children_) {
    child->visit_tensors(parameters, buffers, true, join_name(prefix, name), fn);
  }
}

std::vector<Tensor> Module::parameters(bool recurse) const {
  std::vector<Tensor> out;
  visit_tensors(true, false, recurse, "",
                [&](const std::string&, const Tensor& t) { out.push_back(t); });
  return out;
}

OrderedDict<Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<Tensor> out;
  visit_tensors(true, false, recurse, "",
                [&](const std::string& name, const Tensor& t) { out.insert(name, t); });
  return out;
}

std::vector<Tensor> Module::buffers(bool recurse) const {
  std::vector<Tensor> out;
  visit_tensors(false, true, recurse, "",
                [&](const std::string&, const Tensor& t) { out.push_back(t); });
  return out;
}

OrderedDict<Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<Tensor> out;
  visit_tensors(false, true, recurse, "",
                [&](const std::string& name, const Tensor& t) { out.insert(name, t); });
  return out;
}

std::vector<std::shared_ptr<Module>> Module::children() const { return children_.values(); }

OrderedDict<std::shared_ptr<Module>> Module::named_children() const { return children_; }

OrderedDict<std::shared_ptr<Module>> Module::named_modules(const std::string& prefix,
                                                           bool include_self) {
  OrderedDict<std::shared_ptr<Module>> out;
  if (include_self) {
    std::shared_ptr<Module> self = weak_from_this().lock();
    ACCEL_CHECK(self != nullptr, "modules",
                "{} is not owned by a shared_ptr or holder, so it cannot list itself; "
                "pass include_self = false",
                name());
    out.insert(prefix, self);
  }
  for (const auto& [name, child] : children_) {
    for (auto& [child_name, module] : child->named_modules(join_name(prefix, name), true)) {
      out.insert(child_name, module);
    }
  }
  return out;
}

std::vector<std::shared_ptr<Module>> Module::modules(bool include_self) {
  return named_modules("", include_self).values();
}

void Module::train(bool on) {
  is_training_ = on;
  for (const auto& [name, child] : children_) child->train(on);
}

void Module::convert_tensors(const std::function<Tensor(const Tensor&)>& convert) {
  NoGradGuard no_grad;
  visit_tensors(true, true, true, "", [&](const std::string&, const Tensor& t) {
    replace_data(t, convert(t));
    if (t.grad().defined()) replace_data(t.grad(), convert(t.grad()));
  });
}

void Module::to(ScalarType dtype) {
  convert_tensors([dtype](const Tensor& t) { return t.is_floating_point() ? t.to(dtype) : t; });
}

void Module::to(Device device) {
  convert_tensors([device](const Tensor& t) { return t.to(device); });
}

void Module::to(Device device, ScalarType dtype) {
  convert_tensors([device, dtype](const Tensor& t) {
    Tensor moved = t.to(device);
    return moved.is_floating_point() ? moved.to(dtype) : moved;
  });
}

void Module::zero_grad(bool set_to_none) {
  for (Tensor& p : parameters()) {
    if (!p.grad().defined()) continue;
    if (set_to_none) {
      p.set_grad(Tensor());
    } else {
      NoGradGuard no_grad;
      p.mutable_grad().zero_();
    }
  }
}

void Module::apply(const std::function<void(Module&)>& fn) {
  for (const auto& [name, child] : children_) child->apply(fn);
  fn(*this);
}

OrderedDict<Tensor> Module::state_dict() const {
  OrderedDict<Tensor> out;
  visit_tensors(true, true, true, "",
                [&](const std::string& name, const Tensor& t) { out.insert(name, t.detach()); });
  return out;
}

void Module::check_state_dict(const OrderedDict<Tensor>& state_dict, bool strict) const {
  const OrderedDict<Tensor> own = this->state_dict();
  std::vector<std::string> missing, unexpected, mismatched;
  for (const auto& [key, tensor] : own) {
    const Tensor* given = state_dict.find(key);
    if (given == nullptr) {
      missing.push_back(key);
    } else if (given->sizes() != tensor.sizes()) {
      mismatched.push_back(
          fmt::format("{} (expected {}, got {})", key, tensor.sizes(), given->sizes()));
    }
  }
  // The state dict may come from a file holding any number of names of any length: the error
  // lists a few, shortened.
  size_t unexpected_count = 0;
  for (const auto& [key, tensor] : state_dict) {
    if (own.contains(key)) continue;
    if (unexpected_count++ < kMaxListedKeys) unexpected.push_back(io::shortened_for_message(key));
  }
  std::vector<std::string> problems;
  if (!mismatched.empty()) {
    problems.push_back(fmt::format("size mismatch for {}", fmt::join(mismatched, ", ")));
  }
  if (strict && !missing.empty()) {
    problems.push_back(fmt::format("missing keys [{}]", fmt::join(missing, ", ")));
  }
  if (strict && !unexpected.empty()) {
    const std::string more = unexpected_count > unexpected.size()
                                 ? fmt::format(", ... ({} in all)", unexpected_count)
                                 : "";
    problems.push_back(fmt::format("unexpected keys [{}{}]", fmt::join(unexpected, ", "), more));
  }
  ACCEL_CHECK(problems.empty(), "load_state_dict", "error(s) loading into {}: {}", name(),
              fmt::join(problems, "; "));
}

void Module::load_state_dict(const OrderedDict<Tensor>& state_dict, bool strict) {
  check_state_dict(state_dict, strict);
  OrderedDict<Tensor> own = this->state_dict();
  NoGradGuard no_grad;
  for (auto& [key, tensor] : own) {
    if (const Tensor* given = state_dict.find(key)) tensor.copy_(*given);
  }
}

}  // namespace accel::nn
