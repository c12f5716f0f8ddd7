// How a scatter combines each source element with the element it lands on: plain assignment
// (torch.scatter) or one of torch.scatter_reduce's reductions, written once for the CPU and
// CUDA kernels, in the accumulate type.
#pragma once

#include <cstdint>
#include <type_traits>

#include "accel/base/macros.h"
#include "accel/kernels/common/binary_math.h"

namespace accel::math {

enum class ScatterReduce : int8_t { Assign, Sum, Prod, Amax, Amin };

// The op name a kernel's errors give.
constexpr const char* scatter_name(ScatterReduce op) {
  return op == ScatterReduce::Assign ? "scatter"
         : op == ScatterReduce::Sum  ? "scatter_add"
                                     : "scatter_reduce";
}

// The new value of a destination holding `current` when `value` lands on it (NaN wins a max or
// min, as torch.maximum).
template <ScatterReduce Op, typename A>
ACCEL_INLINE A scatter_combine(A current, A value) {
  if constexpr (Op == ScatterReduce::Assign) {
    return value;
  } else if constexpr (Op == ScatterReduce::Sum) {
    return current + value;
  } else if constexpr (Op == ScatterReduce::Prod && std::is_same_v<A, bool>) {
    return current && value;  // a product of bools, without int arithmetic
  } else if constexpr (Op == ScatterReduce::Prod) {
    return current * value;
  } else if constexpr (Op == ScatterReduce::Amax) {
    return maximum_value(current, value);
  } else {
    return minimum_value(current, value);
  }
}

// Calls f.template operator()<Op>() for the runtime op.
template <typename F>
decltype(auto) visit(ScatterReduce op, F&& f) {
  switch (op) {
    case ScatterReduce::Assign:
      return f.template operator()<ScatterReduce::Assign>();
    case ScatterReduce::Sum:
      return f.template operator()<ScatterReduce::Sum>();
    case ScatterReduce::Prod:
      return f.template operator()<ScatterReduce::Prod>();
    case ScatterReduce::Amax:
      return f.template operator()<ScatterReduce::Amax>();
    case ScatterReduce::Amin:
      return f.template operator()<ScatterReduce::Amin>();
  }
  __builtin_unreachable();  // every enumerator is handled above
}

}  // namespace accel::math
