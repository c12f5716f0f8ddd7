// gzip reading through zlib's inflate with automatic header detection. Concatenated gzip
// members (what `cat a.gz b.gz` makes) decode as one stream, as gunzip does.
#include "accel/data/gzip.h"

#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "accel/base/error.h"

namespace accel::data {
namespace {

// Owns a zlib inflate stream.
class Inflater {
 public:
  Inflater() {
    if (inflateInit2(&stream_, 15 + 16) != Z_OK) fail("gunzip", "zlib failed to initialize");
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream* operator->() { return &stream_; }
  z_stream* get() { return &stream_; }

 private:
  z_stream stream_{};
};

}  // namespace

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip(std::string_view compressed, const std::string& source, const char* op) {
  Inflater inflater;
  inflater->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  inflater->avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  out.resize(std::max<size_t>(compressed.size() * 2, 1 << 16));
  size_t produced = 0;
  while (true) {
    if (produced == out.size()) out.resize(out.size() * 2);
    inflater->next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    inflater->avail_out = static_cast<uInt>(std::min<size_t>(out.size() - produced, 1u << 30));
    const uInt room = inflater->avail_out;
    const int status = inflate(inflater.get(), Z_NO_FLUSH);
    produced += room - inflater->avail_out;
    if (status == Z_STREAM_END) {
      if (inflater->avail_in == 0) break;
      ACCEL_CHECK(inflateReset(inflater.get()) == Z_OK, op, "\"{}\": zlib reset failed", source);
      continue;
    }
    if (status != Z_OK) {
      // Z_BUF_ERROR: the input ended mid-stream; anything else: the data is not deflate.
      const std::string found =
          status == Z_BUF_ERROR
              ? "a truncated one"
              : fmt::format("corrupt data ({})",
                            inflater->msg != nullptr ? inflater->msg : "zlib error");
      fail(op, "\"{}\": expected a complete gzip stream, found {} after {} decompressed bytes",
           source, found, produced);
    }
  }
  out.resize(produced);
  return out;
}

std::string read_maybe_gzipped(const std::string& path, const char* op) {
  ACCEL_CHECK(!std::filesystem::is_directory(path), op, "\"{}\" is a directory, not a file", path);
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  ACCEL_CHECK(file.is_open(), op, "cannot open \"{}\" (no such file, or no permission)", path);
  const std::streamoff size = file.tellg();
  ACCEL_CHECK(size >= 0, op, "cannot read \"{}\"", path);
  std::string bytes(static_cast<size_t>(size), '\0');
  file.seekg(0);
  file.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ACCEL_CHECK(file.good(), op, "error reading \"{}\"", path);
  return is_gzip(bytes) ? gunzip(bytes, path, op) : bytes;
}

}  // namespace accel::data
