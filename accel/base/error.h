// accel::Error and the checks that raise it.
// Every user mistake surfaces as accel::Error whose message starts with the op's name and
// shows the offending shapes or values, so the message alone says what to fix.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>
#include <string>

namespace accel {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws accel::Error("op: <formatted message>").
template <typename... Args>
[[noreturn]] void fail(std::string_view op, fmt::format_string<Args...> format, Args&&... args) {
  throw Error(fmt::format("{}: {}", op, fmt::format(format, std::forward<Args>(args)...)));
}

}  // namespace accel

// ACCEL_CHECK(cond, "op", "expected {}, got {}", a, b): the message is only built on failure.
#define ACCEL_CHECK(cond, op, ...)    \
  do {                                \
    if (!(cond)) [[unlikely]] {       \
      ::accel::fail(op, __VA_ARGS__); \
    }                                 \
  } while (false)
