// The IDX format of MNIST-style datasets (big-endian; magic 0x0000, a type code, the number
// of dims, each dim as uint32, then the data). The reader checks header, dims and data size
// against each other, so a corrupt or truncated file raises accel::Error naming it.
//
// Memory: a header may announce at most kMaxIdxDataBytes of data, checked before anything is
// allocated. Besides the file's own bytes, reading allocates the tensor and, for gzip, the
// inflated data, which grows with the bytes that arrive and stops one byte past what the header
// announced. So no file costs more than twice what its header announces, however far it would
// inflate, and a header that overstates what the file holds costs only what it holds.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "accel/core/tensor.h"

namespace accel::data {

// The most data an IDX header may announce: its dims, zeros skipped, times the bytes per
// element (4 GiB; the largest MNIST-style files, EMNIST's, hold 0.55 GB). Skipping zeros also
// bounds every stride of an empty tensor such as [0, 2^32-1, 2^32-1].
inline constexpr uint64_t kMaxIdxDataBytes = uint64_t{1} << 32;

// The largest IDX file read_idx opens: the data limit plus room for the header and for gzip's
// framing of incompressible data.
inline constexpr uint64_t kMaxIdxFileBytes = kMaxIdxDataBytes + (uint64_t{1} << 20);

// The tensor an IDX file's contents (raw or gzip-compressed) hold. Type codes 0x08 uint8 ->
// kUInt8, 0x0C int32 -> kInt32, 0x0D float32 -> kFloat32, 0x0E float64 -> kFloat64; 0x09 int8
// and 0x0B int16 widen to kInt32 (accel has no narrower signed types). `source` names the
// bytes' origin in errors.
Tensor parse_idx(std::string_view bytes, const std::string& source);

// Reads an IDX file, raw or gzip-compressed. Only a regular file of at most kMaxIdxFileBytes is
// read: a directory, named pipe or device is an error, never a hang.
Tensor read_idx(const std::string& path);

}  // namespace accel::data
