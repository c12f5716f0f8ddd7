// TensorBoard's event-file format, written without TensorFlow or protobuf: each record is
// [uint64 length][masked CRC-32C of the length][an Event protobuf][masked CRC-32C of it], and
// the Events used here are the file-version header and a scalar summary (tag, float value).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace accel::tensorboard {

// CRC-32C (Castagnoli), as TFRecord files use.
uint32_t crc32c(std::string_view bytes);

// `event` framed as one TFRecord record.
std::string record(std::string_view event);

// The first Event of every file: its wall time and file_version "brain.Event:2".
std::string file_version_event(double wall_time);

// An Event holding one scalar: `tag` = `value` at `step`.
std::string scalar_event(double wall_time, int64_t step, std::string_view tag, float value);

}  // namespace accel::tensorboard
