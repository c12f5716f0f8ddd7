// Instantiates the selection kernels for every dtype; the contiguous paths vectorize as
// branch-free selects. The condition is read as bytes (a bool is one byte, 0 or 1): read as
// bool, GCC keeps a branch per element, which mispredicts on a random mask.
#include "accel/kernels/cpu/where.h"

#include <cstdint>

#include "accel/base/dispatch.h"

namespace accel::cpu {

void where(ScalarType dtype, const Loop<4>& loop) {
  dispatch_all(dtype, "where", [&]<typename T>() {
    map_elements<T, uint8_t, T, T>(loop, [](uint8_t c, T a, T b) { return c != 0 ? a : b; });
  });
}

void fill_where(ScalarType dtype, const Loop<3>& loop, const void* value, bool fill_when) {
  dispatch_all(dtype, "where", [&]<typename T>() {
    const T v = *static_cast<const T*>(value);
    if (fill_when) {
      map_elements<T, uint8_t, T>(loop, [v](uint8_t c, T x) { return c != 0 ? v : x; });
    } else {
      map_elements<T, uint8_t, T>(loop, [v](uint8_t c, T x) { return c == 0 ? v : x; });
    }
  });
}

}  // namespace accel::cpu
