// IDX parsing: the header is read and validated first, the data size it implies is computed
// with overflow checks (dims come from the file) and bounded, then exactly that much data is
// read (inflated, for gzip) and each big-endian value converted to the host's order.
#include "accel/data/idx.h"

#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "accel/core/factories.h"
#include "accel/core/io/read_file.h"
#include "accel/data/gzip.h"

namespace accel::data {
namespace {

constexpr const char* kOp = "read_idx";

struct IdxType {
  unsigned char code;
  const char* name;
  int64_t bytes;     // per element in the file
  ScalarType dtype;  // in memory
};

constexpr IdxType kIdxTypes[] = {
    {0x08, "uint8", 1, kUInt8}, {0x09, "int8", 1, kInt32},      {0x0B, "int16", 2, kInt32},
    {0x0C, "int32", 4, kInt32}, {0x0D, "float32", 4, kFloat32}, {0x0E, "float64", 8, kFloat64},
};

std::optional<IdxType> idx_type(unsigned char code) {
  for (const IdxType& type : kIdxTypes) {
    if (type.code == code) return type;
  }
  return std::nullopt;
}

uint64_t big_endian(const unsigned char* p, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = (value << 8) | p[i];
  return value;
}

template <size_t N>
using UnsignedOfSize = std::conditional_t<
    N == 1, uint8_t,
    std::conditional_t<N == 2, uint16_t, std::conditional_t<N == 4, uint32_t, uint64_t>>>;

// The file's `Stored` values (bytes of big-endian data) as `Out` values.
template <typename Stored, typename Out>
void convert(const unsigned char* in, Out* out, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    const auto narrow = static_cast<UnsignedOfSize<sizeof(Stored)>>(
        big_endian(in + i * sizeof(Stored), sizeof(Stored)));
    Stored value;
    std::memcpy(&value, &narrow, sizeof(Stored));
    out[i] = static_cast<Out>(value);
  }
}

void convert_data(const IdxType& type, const unsigned char* in, const Tensor& out) {
  const int64_t n = out.numel();
  switch (type.code) {
    case 0x08:
      if (n > 0) std::memcpy(out.data_ptr(), in, n);  // an empty tensor has no data pointer
      break;
    case 0x09:
      convert<int8_t>(in, out.data_ptr<int32_t>(), n);
      break;
    case 0x0B:
      convert<int16_t>(in, out.data_ptr<int32_t>(), n);
      break;
    case 0x0C:
      convert<int32_t>(in, out.data_ptr<int32_t>(), n);
      break;
    case 0x0D:
      convert<float>(in, out.data_ptr<float>(), n);
      break;
    default:
      convert<double>(in, out.data_ptr<double>(), n);
      break;
  }
}

// The decompressed bytes of an IDX file in order: raw bytes are viewed where they lie, gzip is
// inflated only as far as asked.
class IdxInput {
 public:
  IdxInput(std::string_view bytes, const std::string& source) : raw_(bytes) {
    if (is_gzip(bytes)) gzip_.emplace(bytes, source, kOp);
  }

  // The next `count` bytes, fewer where the file ends; valid until the next call.
  std::string_view next(size_t count) {
    if (!gzip_) {
      const std::string_view piece = raw_.substr(0, count);
      raw_.remove_prefix(piece.size());
      return piece;
    }
    inflated_.clear();
    gzip_->read(count, inflated_);
    return {inflated_.data(), inflated_.size()};
  }

  // Whether the file holds no more bytes (inflating at most one more to find out).
  bool at_end() {
    if (!gzip_) return raw_.empty();
    std::vector<char> probe;
    return gzip_->read(1, probe) == 0;
  }

 private:
  std::string_view raw_;
  std::optional<GzipReader> gzip_;
  std::vector<char> inflated_;
};

}  // namespace

Tensor parse_idx(std::string_view bytes, const std::string& source) {
  IdxInput input(bytes, source);
  const std::string_view head = input.next(4);
  ACCEL_CHECK(head.size() == 4, kOp, "\"{}\": expected a 4-byte IDX header, found {} bytes", source,
              head.size());
  const auto* magic = reinterpret_cast<const unsigned char*>(head.data());
  ACCEL_CHECK(magic[0] == 0 && magic[1] == 0, kOp,
              "\"{}\": expected the IDX magic 0x0000 in bytes 0-1, found 0x{:02x}{:02x} (not an "
              "IDX file, or compressed with something other than gzip)",
              source, magic[0], magic[1]);
  const std::optional<IdxType> type = idx_type(magic[2]);
  ACCEL_CHECK(type.has_value(), kOp,
              "\"{}\": expected an IDX type code (0x08, 0x09, 0x0B, 0x0C, 0x0D or 0x0E) in byte "
              "2, found 0x{:02x}",
              source, magic[2]);
  const int ndims = magic[3];
  const std::string_view dims = input.next(4 * static_cast<size_t>(ndims));
  ACCEL_CHECK(dims.size() == 4 * static_cast<size_t>(ndims), kOp,
              "\"{}\": expected {} dims of 4 bytes after the magic, found a {}-byte file", source,
              ndims, head.size() + dims.size());
  // The bytes of data the nonzero dims describe bound the element count and every stride of
  // the tensor, so checking them keeps all of its size arithmetic in range.
  std::vector<int64_t> shape;
  uint64_t extent = type->bytes;
  bool has_zero = false, too_large = false;
  for (int d = 0; d < ndims; ++d) {
    const uint64_t size =
        big_endian(reinterpret_cast<const unsigned char*>(dims.data()) + 4 * d, 4);
    shape.push_back(static_cast<int64_t>(size));
    if (size == 0) {
      has_zero = true;
    } else {
      too_large =
          too_large || __builtin_mul_overflow(extent, size, &extent) || extent > kMaxIdxDataBytes;
    }
  }
  ACCEL_CHECK(!too_large, kOp,
              "\"{}\": expected dims that (zeros aside) describe at most {} bytes of data, found "
              "shape {} of {} (corrupt header?)",
              source, kMaxIdxDataBytes, shape, type->name);
  const uint64_t expected = has_zero ? 0 : extent;
  const std::string_view data = input.next(expected);
  ACCEL_CHECK(data.size() == expected, kOp,
              "\"{}\": expected {} bytes of {} data for shape {}, found {} bytes (truncated file?)",
              source, expected, type->name, shape, data.size());
  ACCEL_CHECK(input.at_end(), kOp,
              "\"{}\": expected {} bytes of {} data for shape {}, found more after them (trailing "
              "data, or a header whose dims are too small?)",
              source, expected, type->name, shape);
  Tensor out = empty(shape, type->dtype);
  convert_data(*type, reinterpret_cast<const unsigned char*>(data.data()), out);
  return out;
}

Tensor read_idx(const std::string& path) {
  return parse_idx(io::read_file(path, kOp, kMaxIdxFileBytes), path);
}

}  // namespace accel::data
