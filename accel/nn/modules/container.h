// Containers: Sequential (chains forward through its modules), ModuleList and ModuleDict
// (hold modules so their parameters join the tree). Children are named by position ("0", "1",
// ...) or key, as in PyTorch, so state_dict names match ("main.0.weight").
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "accel/nn/module.h"

namespace accel::nn {

template <typename T>
concept ModuleLike = std::is_convertible_v<T, std::shared_ptr<Module>>;

// Holds modules by position; the base of Sequential.
class ModuleListImpl : public Module {
 public:
  ModuleListImpl() = default;
  template <ModuleLike... Ms>
  explicit ModuleListImpl(Ms&&... modules) {
    (push_back(std::forward<Ms>(modules)), ...);
  }
  void push_back(std::shared_ptr<Module> module);
  size_t size() const { return modules_.size(); }
  bool is_empty() const { return modules_.empty(); }
  const std::shared_ptr<Module>& operator[](size_t index) const;
  // The module at `index` as its concrete type (an error if it is not one).
  template <typename M>
  std::shared_ptr<M> at(size_t index) const {
    auto typed = std::dynamic_pointer_cast<M>((*this)[index]);
    ACCEL_CHECK(typed != nullptr, name(), "module {} is a {}, not the requested type", index,
                (*this)[index]->name());
    return typed;
  }
  auto begin() const { return modules_.begin(); }
  auto end() const { return modules_.end(); }

 private:
  std::vector<std::shared_ptr<Module>> modules_;
};
ACCEL_MODULE(ModuleList);

// Runs its modules in order, each one's output the next one's input.
class SequentialImpl : public ModuleListImpl {
 public:
  using ModuleListImpl::ModuleListImpl;
  Tensor forward(const Tensor& input) override;
};
ACCEL_MODULE(Sequential);

// Holds modules by name, in insertion order.
class ModuleDictImpl : public Module {
 public:
  ModuleDictImpl() = default;
  explicit ModuleDictImpl(
      const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& items);
  void insert(std::string key, std::shared_ptr<Module> module);
  size_t size() const { return modules_.size(); }
  bool contains(const std::string& key) const { return modules_.contains(key); }
  const std::shared_ptr<Module>& operator[](const std::string& key) const;
  std::vector<std::string> keys() const { return modules_.keys(); }
  auto begin() const { return modules_.begin(); }
  auto end() const { return modules_.end(); }

 private:
  OrderedDict<std::shared_ptr<Module>> modules_;
};
ACCEL_MODULE(ModuleDict);

}  // namespace accel::nn
