// Instantiates all_close for every dtype. Floating types compare in their accumulate type,
// as torch.isclose does; integers and bool compare in double. Chunks stop early once any
// chunk has found a pair that is not close.
#include "accel/kernels/cpu/allclose.h"

#include <atomic>
#include <type_traits>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/isclose.h"

namespace accel::cpu {

bool all_close(ScalarType dtype, const Loop<2>& loop, double rtol, double atol, bool equal_nan) {
  std::atomic<bool> close{true};
  dispatch_all(dtype, "allclose", [&]<typename T>() {
    using C = std::conditional_t<std::is_floating_point_v<acc_t<T>>, acc_t<T>, double>;
    const C r = static_cast<C>(rtol), a_tol = static_cast<C>(atol);
    run(loop,
        [&](const std::array<char*, 2>& ptrs, const std::array<int64_t, 2>& strides, int64_t n) {
          if (!close.load(std::memory_order_relaxed)) return;
          bool chunk_close = true;
          for (int64_t i = 0; i < n; ++i) {
            const C a = static_cast<C>(*reinterpret_cast<const T*>(ptrs[0] + i * strides[0]));
            const C b = static_cast<C>(*reinterpret_cast<const T*>(ptrs[1] + i * strides[1]));
            chunk_close &= math::is_close(a, b, r, a_tol, equal_nan);
          }
          if (!chunk_close) close.store(false, std::memory_order_relaxed);
        });
  });
  return close.load();
}

}  // namespace accel::cpu
