// The safetensors format (Hugging Face's; what PyTorch's safetensors.torch reads and writes):
// an 8-byte little-endian header length, a JSON header {name: {dtype, shape, data_offsets}}
// with an optional "__metadata__" string map, then the tensors' raw little-endian bytes.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "accel/core/tensor.h"

namespace accel::io {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

struct SafetensorsContents {
  NamedTensors tensors;  // in the order of their data in the file
  std::map<std::string, std::string> metadata;
};

// The file's bytes for `tensors` (any dtype and device; copied to contiguous CPU memory).
// Names must be unique and must not be "__metadata__".
std::string serialize_safetensors(const NamedTensors& tensors,
                                  const std::map<std::string, std::string>& metadata = {});
// Parses a whole file's bytes; `source` names it in error messages. Every malformed input
// raises accel::Error; the tensors are fresh CPU tensors owning copies of the data.
SafetensorsContents parse_safetensors(std::string_view bytes, const std::string& source);

// Writes atomically: an error midway (or a crash) leaves any previous file at `path` intact.
void save_safetensors(const std::string& path, const NamedTensors& tensors,
                      const std::map<std::string, std::string>& metadata = {});
SafetensorsContents load_safetensors(const std::string& path);

}  // namespace accel::io
