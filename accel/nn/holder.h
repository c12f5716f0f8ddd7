// ModuleHolder: the value type users hold (nn::Linear) around a shared module implementation
// (nn::LinearImpl), as LibTorch's TORCH_MODULE. Copies share the module; `->` reaches it; a
// holder converts to std::shared_ptr<nn::Module>. ACCEL_MODULE(Name) makes Name for NameImpl.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <type_traits>
#include <utility>

#include "accel/base/error.h"

namespace accel::nn {

class Module;

template <typename Impl>
class ModuleHolder {
  // Arguments for Impl's constructor, as opposed to another holder, a shared_ptr or nullptr.
  template <typename Head, typename... Tail>
  static constexpr bool kBuildsImpl = !std::is_base_of_v<ModuleHolder, std::decay_t<Head>> &&
                                      !std::is_same_v<std::decay_t<Head>, std::shared_ptr<Impl>> &&
                                      !std::is_same_v<std::decay_t<Head>, std::nullptr_t> &&
                                      std::is_constructible_v<Impl, Head, Tail...>;

 public:
  using ContainedType = Impl;

  // A default-constructed holder owns a default-constructed module.
  ModuleHolder() requires std::is_default_constructible_v<Impl> : impl_(std::make_shared<Impl>()) {}
  // An empty holder, to be assigned later (nn::Linear layer{nullptr}).
  ModuleHolder(std::nullptr_t) {}
  ModuleHolder(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  // Constructs the module from the arguments (nn::Linear(784, 128)).
  template <typename Head, typename... Tail>
  requires kBuildsImpl<Head, Tail...>
  explicit ModuleHolder(Head&& head, Tail&&... tail)
      : impl_(std::make_shared<Impl>(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}
  // A braced list of sizes cannot be deduced by the constructor above, so sizes get their own
  // overloads: first (nn::MaxPool2d({2, 2}), nn::LayerNorm({4, 5})) or third
  // (nn::Conv2d(1, 32, {3, 5})), where Impl takes IntArrayRef-like sizes there.
  template <typename... Tail>
  requires std::is_constructible_v<Impl, std::initializer_list<int64_t>, Tail...>
  explicit ModuleHolder(std::initializer_list<int64_t> sizes, Tail&&... tail)
      : impl_(std::make_shared<Impl>(sizes, std::forward<Tail>(tail)...)) {}
  template <typename A, typename B>
  requires std::is_constructible_v<Impl, A, B, std::initializer_list<int64_t>>
  explicit ModuleHolder(A&& a, B&& b, std::initializer_list<int64_t> sizes)
      : impl_(std::make_shared<Impl>(std::forward<A>(a), std::forward<B>(b), sizes)) {}

  Impl* operator->() const { return &checked(); }
  Impl& operator*() const { return checked(); }
  Impl* get() const { return impl_.get(); }
  const std::shared_ptr<Impl>& ptr() const { return impl_; }
  bool is_empty() const { return impl_ == nullptr; }

  template <typename M>
  requires std::is_base_of_v<M, Impl>
  operator std::shared_ptr<M>() const { return impl_; }

  // model(x) calls model->forward(x).
  template <typename... Args>
  decltype(auto) operator()(Args&&... args) const {
    return checked().forward(std::forward<Args>(args)...);
  }

 private:
  Impl& checked() const {
    ACCEL_CHECK(impl_ != nullptr, "ModuleHolder", "accessing an empty module holder");
    return *impl_;
  }

  std::shared_ptr<Impl> impl_;
};

// A ModuleHolder or a holder type derived from one (nn::Linear, a user's ACCEL_MODULE).
template <typename H>
concept Holder = std::is_base_of_v<ModuleHolder<typename H::ContainedType>, H>;

}  // namespace accel::nn

// Defines the holder `Name` for the module class `NameImpl` (like TORCH_MODULE).
#define ACCEL_MODULE(Name)                                     \
  class Name : public ::accel::nn::ModuleHolder<Name##Impl> {  \
   public:                                                     \
    using ::accel::nn::ModuleHolder<Name##Impl>::ModuleHolder; \
  }
