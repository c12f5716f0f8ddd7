// The Event protobuf's few fields encoded by hand (field numbers from TensorFlow's event.proto
// and summary.proto): Event{1: wall_time double, 2: step int64, 3: file_version string,
// 5: summary Summary}, Summary{1: repeated Value}, Value{1: tag string, 2: simple_value float}.
#include "accel/trainer/callbacks/tensorboard_events.h"

#include <array>
#include <bit>
#include <cstring>

namespace accel::tensorboard {
namespace {

static_assert(std::endian::native == std::endian::little, "the record format is little-endian");

constexpr std::array<uint32_t, 256> kCrc32cTable = [] {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (crc & 1 ? 0x82F63B78u : 0u);
    table[i] = crc;
  }
  return table;
}();

// TFRecord's masking, so that a CRC of data holding CRCs stays strong.
uint32_t masked_crc(std::string_view bytes) {
  const uint32_t crc = crc32c(bytes);
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

template <typename T>
void append_raw(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

void append_varint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out += static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  out += static_cast<char>(value);
}

// A field's key: its number and wire type (0 varint, 1 64-bit, 2 length-delimited, 5 32-bit).
void append_key(std::string& out, int field, int wire_type) {
  append_varint(out, static_cast<uint64_t>(field << 3 | wire_type));
}

void append_bytes_field(std::string& out, int field, std::string_view bytes) {
  append_key(out, field, 2);
  append_varint(out, bytes.size());
  out.append(bytes);
}

void append_wall_time(std::string& event, double wall_time) {
  append_key(event, 1, 1);
  append_raw(event, wall_time);
}

}  // namespace

uint32_t crc32c(std::string_view bytes) {
  uint32_t crc = 0xffffffffu;
  for (const char c : bytes)
    crc = kCrc32cTable[(crc ^ static_cast<uint8_t>(c)) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

std::string record(std::string_view event) {
  std::string length;
  append_raw(length, static_cast<uint64_t>(event.size()));
  std::string out = length;
  append_raw(out, masked_crc(length));
  out.append(event);
  append_raw(out, masked_crc(event));
  return out;
}

std::string file_version_event(double wall_time) {
  std::string event;
  append_wall_time(event, wall_time);
  append_bytes_field(event, 3, "brain.Event:2");
  return event;
}

std::string scalar_event(double wall_time, int64_t step, std::string_view tag, float value) {
  std::string scalar;
  append_bytes_field(scalar, 1, tag);
  append_key(scalar, 2, 5);
  append_raw(scalar, value);
  std::string summary;
  append_bytes_field(summary, 1, scalar);
  std::string event;
  append_wall_time(event, wall_time);
  append_key(event, 2, 0);
  append_varint(event, static_cast<uint64_t>(step));
  append_bytes_field(event, 5, summary);
  return event;
}

}  // namespace accel::tensorboard
