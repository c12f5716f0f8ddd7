// Warnings: uses that PyTorch accepts with a UserWarning because they are legal but usually a
// mistake (a loss whose target broadcasts against an input of another shape). Each distinct
// message goes once per process to the warning handler: by default stderr, prefixed like an
// error with the op's name; set_warning_handler routes them elsewhere (a log, a test).
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <functional>
#include <string>
#include <string_view>

namespace accel {

using WarningHandler = std::function<void(const std::string& message)>;

// Installs `handler` (nullptr restores stderr) and returns the previous one.
WarningHandler set_warning_handler(WarningHandler handler);

// Passes "op: <message>" to the handler unless this message was already passed.
void warn_message(std::string_view op, const std::string& message);

template <typename... Args>
void warn(std::string_view op, fmt::format_string<Args...> format, Args&&... args) {
  warn_message(op, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace accel
