// Fuzz target: safetensors files (accel::io::parse_safetensors, what load_safetensors and
// Module::load read). A parsed file must also serialize again, and its tensors be readable.
#include <cstddef>
#include <cstdint>

#include "accel/core/io/safetensors.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  accel::fuzz::expect_accel_errors_only([&] {
    const accel::io::SafetensorsContents contents =
        accel::io::parse_safetensors(accel::fuzz::as_bytes(data, size), "fuzz input");
    // Reads every element back through the file format (AddressSanitizer checks the bytes).
    accel::io::serialize_safetensors(contents.tensors, contents.metadata);
  });
  return 0;
}
