// Reading data files that may be gzip-compressed: the bytes of a file, inflated when they
// start with the gzip magic (so "x.gz" and "x" read alike, whatever their names say).
#pragma once

#include <string>
#include <string_view>

namespace accel::data {

// Whether `bytes` start with the gzip magic 0x1f 0x8b.
bool is_gzip(std::string_view bytes);

// The decompressed contents of a gzip stream (concatenated members decode as one, as with
// gunzip). A truncated or corrupt stream raises accel::Error naming `op` and `source`.
std::string gunzip(std::string_view compressed, const std::string& source, const char* op);

// The file's contents, gunzipped if gzip-compressed. Errors (missing file, truncated or
// corrupt gzip) name `op` and the path.
std::string read_maybe_gzipped(const std::string& path, const char* op);

}  // namespace accel::data
