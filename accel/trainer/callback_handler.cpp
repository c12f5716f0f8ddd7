// CallbackHandler: registration with the duplicate-class check, and user-named events.
#include "accel/trainer/callback_handler.h"

#include <typeinfo>

#include "accel/base/error.h"

namespace accel {

CallbackHandler::CallbackHandler(std::vector<std::shared_ptr<Callback>> callbacks) {
  add_callbacks(callbacks);
}

void CallbackHandler::add_callback(std::shared_ptr<Callback> callback) {
  ACCEL_CHECK(callback != nullptr, "CallbackHandler::add_callback",
              "expected a callback, got null");
  // typeid of references, not of the smart pointers' operator* (clang warns about those).
  const Callback& added = *callback;
  const auto& type = typeid(added);
  for (const auto& existing : callbacks_) {
    const Callback& other = *existing;
    ACCEL_CHECK(typeid(other) != type, "CallbackHandler::add_callback",
                "a callback of class {} is already registered; each class may appear once",
                type.name());
  }
  callbacks_.push_back(std::move(callback));
}

void CallbackHandler::add_callbacks(const std::vector<std::shared_ptr<Callback>>& callbacks) {
  for (const auto& callback : callbacks) add_callback(callback);
}

void CallbackHandler::call_event(const std::string& name, Trainer& trainer) const {
  for (const auto& cb : callbacks_) cb->on_event(name, trainer);
}

}  // namespace accel
