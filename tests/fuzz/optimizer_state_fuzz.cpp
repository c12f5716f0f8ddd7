// Fuzz target: optimizer state files (accel::optim::load, what checkpoints restore), loaded
// into an optimizer of every kind; a state that loads must also survive an update.
#include <cstddef>
#include <cstdint>

#include "accel/optim/serialize.h"
#include "fuzz_support.h"
#include "optimizers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = accel::fuzz::scratch().file("optimizer.safetensors");
  accel::fuzz::write_file(path, accel::fuzz::as_bytes(data, size));
  for (const accel::fuzz::NamedOptimizer& named : accel::fuzz::fresh_optimizers()) {
    accel::fuzz::expect_accel_errors_only([&] {
      accel::optim::load(*named.optimizer, path);
      accel::fuzz::step_with_unit_gradients(*named.optimizer);
    });
  }
  return 0;
}
