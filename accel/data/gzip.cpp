// gzip reading through zlib's inflate (gzip framing only). Output goes straight into the
// caller's buffer, which grows geometrically with the bytes that arrive and never past what was
// asked; input is handed to zlib in pieces, since zlib counts bytes in 32 bits.
#include "accel/data/gzip.h"

#include <zlib.h>

#include <algorithm>

#include "accel/base/error.h"

namespace accel::data {
namespace {

// The most bytes handed to zlib in one call, in either direction (its counters are uInt).
constexpr size_t kMaxPiece = size_t{1} << 30;
// The first step by which a read's buffer grows; later steps double what has arrived.
constexpr size_t kFirstGrowth = size_t{1} << 16;

}  // namespace

// Owns a zlib inflate stream that expects gzip framing.
struct GzipReader::Inflater {
  explicit Inflater(const char* op) {
    ACCEL_CHECK(inflateInit2(&stream, 15 + 16) == Z_OK, op, "zlib failed to initialize");
  }
  ~Inflater() { inflateEnd(&stream); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream stream{};
};

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

GzipReader::GzipReader(std::string_view compressed, std::string source, const char* op)
    : inflater_(std::make_unique<Inflater>(op)),
      unread_(compressed),
      source_(std::move(source)),
      op_(op) {}

GzipReader::~GzipReader() = default;

size_t GzipReader::read(size_t count, std::vector<char>& out) {
  z_stream& stream = inflater_->stream;
  const size_t start = out.size();
  size_t filled = start;
  while (filled - start < count && !ended_) {
    if (filled == out.size()) {
      const size_t step =
          std::min(count - (filled - start), std::max(filled - start, kFirstGrowth));
      out.reserve(filled + step);  // exactly: resize alone may overshoot what was asked
      out.resize(filled + step);
    }
    if (stream.avail_in == 0 && !unread_.empty()) {
      const size_t piece = std::min(unread_.size(), kMaxPiece);
      stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(unread_.data()));
      stream.avail_in = static_cast<uInt>(piece);
      unread_.remove_prefix(piece);
    }
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + filled);
    stream.avail_out = static_cast<uInt>(std::min(out.size() - filled, kMaxPiece));
    const uInt room = stream.avail_out;
    const int status = inflate(&stream, Z_NO_FLUSH);
    filled += room - stream.avail_out;
    produced_ += room - stream.avail_out;
    if (status == Z_STREAM_END) {
      // Input left over after a member is the next member (concatenated gzip files).
      ended_ = stream.avail_in == 0 && unread_.empty();
      if (!ended_) {
        ACCEL_CHECK(inflateReset(&stream) == Z_OK, op_, "\"{}\": zlib reset failed", source_);
      }
    } else if (status != Z_OK) {
      // Z_BUF_ERROR: all input is consumed mid-stream; anything else: the data is not deflate.
      const std::string found =
          status == Z_BUF_ERROR
              ? "a truncated one"
              : fmt::format("corrupt data ({})", stream.msg != nullptr ? stream.msg : "zlib error");
      fail(op_, "\"{}\": expected a complete gzip stream, found {} after {} decompressed bytes",
           source_, found, produced_);
    }
  }
  out.resize(filled);
  return filled - start;
}

}  // namespace accel::data
