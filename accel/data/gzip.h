// Reading gzip-compressed data a piece at a time, so that a reader can inflate a file's header,
// learn from it how much data follows, and inflate no more than that: a small file that expands
// without end (a "gzip bomb") then costs only what its header announced.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace accel::data {

// Whether `bytes` start with the gzip magic 0x1f 0x8b.
bool is_gzip(std::string_view bytes);

// Inflates the gzip stream in `compressed` (which must outlive the reader) on demand.
// Concatenated members (what `cat a.gz b.gz` makes) decode as one stream, as with gunzip. A
// truncated or corrupt stream raises accel::Error naming `op` and `source`.
class GzipReader {
 public:
  GzipReader(std::string_view compressed, std::string source, const char* op);
  ~GzipReader();
  GzipReader(const GzipReader&) = delete;
  GzipReader& operator=(const GzipReader&) = delete;

  // Appends the next `count` decompressed bytes to `out` and returns how many it appended: fewer
  // than `count` only where the stream ends (every member complete and its checksum verified).
  // `out` grows with the bytes that actually arrive, never straight to `count`, so a stream
  // that announces more than it holds costs only what it holds.
  size_t read(size_t count, std::vector<char>& out);

 private:
  struct Inflater;
  std::unique_ptr<Inflater> inflater_;
  std::string_view unread_;  // compressed bytes not yet handed to zlib
  std::string source_;
  const char* op_;
  size_t produced_ = 0;  // decompressed bytes so far, for error messages
  bool ended_ = false;
};

}  // namespace accel::data
