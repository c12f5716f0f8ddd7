// Escaping and cutting names from files for error messages (see message_name.h).
#include "accel/core/io/message_name.h"

#include <fmt/format.h>

namespace accel::io {
namespace {

// The escaped first part of `name` and, when it was cut, the suffix giving its full length.
std::pair<std::string, std::string> escaped_prefix(std::string_view name) {
  std::string_view shown = name;
  if (name.size() > kMaxNameInMessage) {
    size_t cut = kMaxNameInMessage;
    // Never split a UTF-8 character: back off over continuation bytes (10xxxxxx).
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
    shown = name.substr(0, cut);
  }
  std::string out;
  out.reserve(shown.size());
  for (const char c : shown) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7F) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  std::string suffix;
  if (shown.size() < name.size()) {
    out += "...";
    suffix = fmt::format(" ({} bytes)", name.size());
  }
  return {std::move(out), std::move(suffix)};
}

}  // namespace

std::string shortened_for_message(std::string_view name) {
  auto [text, suffix] = escaped_prefix(name);
  return text + suffix;
}

std::string quoted_for_message(std::string_view name) {
  auto [text, suffix] = escaped_prefix(name);
  return "\"" + text + "\"" + suffix;
}

}  // namespace accel::io
