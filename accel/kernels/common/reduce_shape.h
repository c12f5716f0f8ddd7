// The geometry every reduction kernel works in: a contiguous input viewed as [outer, reduced,
// inner], each output element (o, i) combining the `reduced` elements input[o, r, i]
// (softmax-style kernels normalize along r instead). core/ops/reduce_plan.h maps a tensor
// and its reduced dims onto it.
#pragma once

#include <cstdint>

namespace accel {

struct ReduceShape {
  int64_t outer = 1;
  int64_t reduced = 1;
  int64_t inner = 1;
};

enum class Extremum : int8_t { Max, Min };

}  // namespace accel
