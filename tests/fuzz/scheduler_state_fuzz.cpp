// Fuzz target: learning-rate scheduler state as checkpoints hold it (scheduler.json, read by
// lr_scheduler_state_from_json), loaded into a scheduler of every kind; a state that loads
// must also survive the steps training goes on with.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.h"
#include "schedulers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  accel::fuzz::expect_accel_errors_only([&] {
    const accel::optim::LRSchedulerState state =
        accel::optim::lr_scheduler_state_from_json(accel::fuzz::as_bytes(data, size));
    for (const accel::fuzz::SchedulerUnderTest& scheduler : accel::fuzz::fresh_schedulers()) {
      accel::fuzz::expect_accel_errors_only([&] {
        scheduler.load(state);
        scheduler.step();
        scheduler.step();
      });
    }
  });
  return 0;
}
