// IDX parsing: the header is validated byte by byte, the element count against the bytes
// present (with overflow checks, since dims come from the file), then each big-endian value
// is converted to the host's order.
#include "accel/data/idx.h"

#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

#include "accel/core/factories.h"
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

}  // namespace

Tensor parse_idx(std::string_view bytes, const std::string& source) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  ACCEL_CHECK(bytes.size() >= 4, kOp, "\"{}\": expected a 4-byte IDX header, found {} bytes",
              source, bytes.size());
  ACCEL_CHECK(data[0] == 0 && data[1] == 0, kOp,
              "\"{}\": expected the IDX magic 0x0000 in bytes 0-1, found 0x{:02x}{:02x} (not an "
              "IDX file, or compressed with something other than gzip)",
              source, data[0], data[1]);
  const std::optional<IdxType> type = idx_type(data[2]);
  ACCEL_CHECK(type.has_value(), kOp,
              "\"{}\": expected an IDX type code (0x08, 0x09, 0x0B, 0x0C, 0x0D or 0x0E) in byte "
              "2, found 0x{:02x}",
              source, data[2]);
  const int64_t ndims = data[3];
  const uint64_t header = 4 + 4 * static_cast<uint64_t>(ndims);
  ACCEL_CHECK(bytes.size() >= header, kOp,
              "\"{}\": expected {} dims of 4 bytes after the magic, found a {}-byte file", source,
              ndims, bytes.size());
  std::vector<int64_t> shape;
  uint64_t count = 1;
  bool too_many = false;
  for (int64_t d = 0; d < ndims; ++d) {
    const uint64_t size = big_endian(data + 4 + 4 * d, 4);
    if (size != 0 && count > std::numeric_limits<uint64_t>::max() / 8 / size) too_many = true;
    count *= size;
    shape.push_back(static_cast<int64_t>(size));
  }
  const uint64_t present = bytes.size() - header;
  ACCEL_CHECK(!too_many && count * type->bytes == present, kOp,
              "\"{}\": expected {} bytes of {} data for shape {}, found {} bytes{}", source,
              too_many ? std::string("more than 2^61") : std::to_string(count * type->bytes),
              type->name, shape, present,
              present < count * type->bytes || too_many ? " (truncated file?)" : "");
  Tensor out = empty(shape, type->dtype);
  convert_data(*type, data + header, out);
  return out;
}

Tensor read_idx(const std::string& path) { return parse_idx(read_maybe_gzipped(path, kOp), path); }

}  // namespace accel::data
