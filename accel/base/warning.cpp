// The process's warning handler and the set of messages already shown.
#include "accel/base/warning.h"

#include <iostream>
#include <mutex>
#include <set>

namespace accel {
namespace {

std::mutex warnings_mutex;
WarningHandler installed;              // empty: stderr
std::set<std::string> shown_messages;  // grows by one string per distinct warning

}  // namespace

WarningHandler set_warning_handler(WarningHandler handler) {
  std::lock_guard lock(warnings_mutex);
  WarningHandler previous = std::move(installed);
  installed = std::move(handler);
  return previous;
}

void warn_message(std::string_view op, const std::string& message) {
  std::string line = fmt::format("{}: {}", op, message);
  WarningHandler handler;
  {
    std::lock_guard lock(warnings_mutex);
    if (!shown_messages.insert(line).second) return;
    handler = installed;
  }
  if (handler) {
    handler(line);
  } else {
    std::cerr << "accel warning: " << line << '\n';
  }
}

}  // namespace accel
