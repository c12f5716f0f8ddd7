// parse_bounded_json: nlohmann's parser with a callback that stops it past the depth bound
// (its own parse is iterative, but the tree it builds is walked recursively afterwards).
#include "accel/core/io/bounded_json.h"

#include "accel/base/error.h"
#include "accel/core/io/message_name.h"
#include "accel/core/io/read_file.h"

namespace accel::io {

nlohmann::json parse_bounded_json(std::string_view text, const JsonBounds& bounds, const char* op,
                                  const std::string& where) {
  ACCEL_CHECK(text.size() <= bounds.max_bytes, op,
              "{}: the JSON takes {} bytes, more than the {} this reader accepts", where,
              text.size(), bounds.max_bytes);
  const nlohmann::json::parser_callback_t bounded = [&](int depth, nlohmann::json::parse_event_t,
                                                        nlohmann::json&) {
    ACCEL_CHECK(depth <= bounds.max_depth, op, "{}: the JSON is nested more than {} deep", where,
                bounds.max_depth);
    return true;
  };
  try {
    return nlohmann::json::parse(text, bounded);
  } catch (const nlohmann::json::exception& error) {
    fail(op, "{} is not valid JSON: {}", where, shortened_for_message(error.what()));
  }
}

nlohmann::json read_bounded_json(const std::string& path, const JsonBounds& bounds,
                                 const char* op) {
  return parse_bounded_json(read_file(path, op, bounds.max_bytes), bounds, op,
                            fmt::format("\"{}\"", path));
}

}  // namespace accel::io
