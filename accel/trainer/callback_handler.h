// CallbackHandler: the Trainer's ordered list of callbacks. Events reach the callbacks in
// list order; two callbacks of the same class are an error (as in the Python original).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "accel/trainer/callback.h"

namespace accel {

class CallbackHandler {
 public:
  explicit CallbackHandler(std::vector<std::shared_ptr<Callback>> callbacks = {});

  // Appends `callback`; an error if one of the same class is already registered.
  void add_callback(std::shared_ptr<Callback> callback);
  void add_callbacks(const std::vector<std::shared_ptr<Callback>>& callbacks);
  // Removes the callback of class C, if any.
  template <typename C>
  void remove_callback() {
    std::erase_if(callbacks_, [](const auto& cb) { return dynamic_cast<C*>(cb.get()) != nullptr; });
  }
  // The registered callback of class C, or nullptr.
  template <typename C>
  std::shared_ptr<C> get_callback() const {
    for (const auto& cb : callbacks_) {
      if (auto typed = std::dynamic_pointer_cast<C>(cb)) return typed;
    }
    return nullptr;
  }
  const std::vector<std::shared_ptr<Callback>>& callbacks() const { return callbacks_; }

  // Calls `event` (&Callback::on_train_step_end, ...) on every callback in order.
  template <typename... Params, typename... Args>
  void call_event(void (Callback::*event)(Params...), Args&&... args) const {
    for (const auto& cb : callbacks_) ((*cb).*event)(args...);
  }
  // Fires the user-named event `name` (Callback::on_event) on every callback in order.
  void call_event(const std::string& name, Trainer& trainer) const;

 private:
  std::vector<std::shared_ptr<Callback>> callbacks_;
};

}  // namespace accel
