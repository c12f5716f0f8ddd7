// Fuzz target: IDX data files, raw or gzip-compressed (accel::data::read_idx, what the MNIST
// dataset reads), through a file as a dataset would be read.
#include <cstddef>
#include <cstdint>

#include "accel/data/idx.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = accel::fuzz::scratch().file("input-idx");
  accel::fuzz::write_file(path, accel::fuzz::as_bytes(data, size));
  accel::fuzz::expect_accel_errors_only([&] { accel::data::read_idx(path); });
  return 0;
}
