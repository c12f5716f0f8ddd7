// in_file: the context a file reader adds to an error raised while checking what it read.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "accel/base/error.h"

namespace accel {

// Runs `f`, turning an accel::Error it raises into one from `op` that names the file it was
// about: "op: \"path\": <the error>".
template <typename F>
decltype(auto) in_file(std::string_view op, const std::string& path, F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const Error& error) {
    fail(op, "\"{}\": {}", path, error.what());
  }
}

}  // namespace accel
