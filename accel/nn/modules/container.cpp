// Containers: registration under positional or keyed names, and Sequential's chain.
#include "accel/nn/modules/container.h"

namespace accel::nn {

void ModuleListImpl::push_back(std::shared_ptr<Module> module) {
  register_module(std::to_string(modules_.size()), module);
  modules_.push_back(std::move(module));
}

const std::shared_ptr<Module>& ModuleListImpl::operator[](size_t index) const {
  ACCEL_CHECK(index < modules_.size(), name(), "index {} is out of range for {} modules", index,
              modules_.size());
  return modules_[index];
}

Tensor SequentialImpl::forward(const Tensor& input) {
  ACCEL_CHECK(!is_empty(), "Sequential", "forward called on an empty Sequential");
  Tensor x = input;
  for (const std::shared_ptr<Module>& module : *this) x = module->forward(x);
  return x;
}

ModuleDictImpl::ModuleDictImpl(
    const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& items) {
  for (const auto& [key, module] : items) insert(key, module);
}

void ModuleDictImpl::insert(std::string key, std::shared_ptr<Module> module) {
  register_module(key, module);
  modules_.insert(std::move(key), std::move(module), "ModuleDict");
}

const std::shared_ptr<Module>& ModuleDictImpl::operator[](const std::string& key) const {
  const std::shared_ptr<Module>* module = modules_.find(key);
  ACCEL_CHECK(module != nullptr, "ModuleDict", "no module under key \"{}\"", key);
  return *module;
}

}  // namespace accel::nn
