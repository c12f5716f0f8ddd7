// Instantiates the selection kernels for every dtype; the contiguous paths vectorize as
// branch-free selects.
#include "accel/kernels/cpu/where.h"

#include "accel/base/dispatch.h"

namespace accel::cpu {

void where(ScalarType dtype, const Loop<4>& loop) {
  dispatch_all(dtype, "where", [&]<typename T>() {
    map_elements<T, bool, T, T>(loop, [](bool c, T a, T b) { return c ? a : b; });
  });
}

void fill_where(ScalarType dtype, const Loop<3>& loop, const void* value, bool fill_when) {
  dispatch_all(dtype, "where", [&]<typename T>() {
    const T v = *static_cast<const T*>(value);
    map_elements<T, bool, T>(loop, [v, fill_when](bool c, T x) { return c == fill_when ? v : x; });
  });
}

}  // namespace accel::cpu
