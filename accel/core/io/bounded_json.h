// JSON read from files accel does not control (checkpoints, training states, optimizer
// metadata): a JSON tree costs several times its text and a deeply nested one can exhaust the
// stack, so size and nesting are bounded before and while parsing. Internal to accel's .cpp
// files: nlohmann_json is a private dependency.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace accel::io {

struct JsonBounds {
  uint64_t max_bytes;
  int max_depth;  // 0: a single scalar; each array or object level adds one
};

// `text` parsed as JSON. Every problem (too large, too deep, not JSON, a number beyond double)
// is an accel::Error "op: <where>: ...", `where` saying what the text is (e.g. a quoted path).
nlohmann::json parse_bounded_json(std::string_view text, const JsonBounds& bounds, const char* op,
                                  const std::string& where);

// The regular file at `path` (io::read_file) parsed as JSON, errors naming the path.
nlohmann::json read_bounded_json(const std::string& path, const JsonBounds& bounds, const char* op);

}  // namespace accel::io
