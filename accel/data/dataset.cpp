// The Dataset defaults: no batched fast path, and the index check every dataset shares.
#include "accel/data/dataset.h"

namespace accel::data {

std::optional<Example> Dataset::get_batch(std::span<const int64_t>) const { return std::nullopt; }

void check_index(const char* op, int64_t index, int64_t size) {
  ACCEL_CHECK(index >= 0 && index < size, op, "expected an index in [0, {}), found {}", size,
              index);
}

}  // namespace accel::data
