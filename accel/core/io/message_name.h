// Names read from files (tensor names, option keys, dtype strings) echoed in error messages:
// a hostile file could otherwise make a message megabytes long or fill it with control bytes.
// Every reader quotes such names through these helpers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace accel::io {

// Longest part of a name a message shows.
inline constexpr size_t kMaxNameInMessage = 200;

// `name` made safe to print: quotes, backslashes and control bytes escaped, and beyond
// kMaxNameInMessage bytes cut (at a UTF-8 character boundary) with "... (N bytes)" after.
std::string shortened_for_message(std::string_view name);
// The same in double quotes: "name", or "first 200 bytes..." (5000000 bytes).
std::string quoted_for_message(std::string_view name);

}  // namespace accel::io
