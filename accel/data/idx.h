// The IDX format of MNIST-style datasets (big-endian; magic 0x0000, a type code, the number
// of dims, each dim as uint32, then the data). The reader checks header, dims and data size
// against each other, so a corrupt or truncated file raises accel::Error naming it.
#pragma once

#include <string>
#include <string_view>

#include "accel/core/tensor.h"

namespace accel::data {

// Type codes 0x08 uint8 -> kUInt8, 0x0C int32 -> kInt32, 0x0D float32 -> kFloat32,
// 0x0E float64 -> kFloat64; 0x09 int8 and 0x0B int16 widen to kInt32 (accel has no
// narrower signed types). `source` names the bytes' origin in errors.
Tensor parse_idx(std::string_view bytes, const std::string& source);

// Reads an IDX file, raw or gzip-compressed.
Tensor read_idx(const std::string& path);

}  // namespace accel::data
