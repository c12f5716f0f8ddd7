// CPU kernels that fill tensors with Philox samples. Value i of a draw lands in element i of
// the output (row-major order); elements are split across threads, and as a value depends
// only on (seed, offset, i) the result is the same bits for any thread count.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/backend.h"
#include "accel/kernels/cpu/loops.h"

namespace accel::cpu {

// out = from + (to - from) * U[0, 1), for a floating dtype.
void uniform(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double from,
             double to);
// out = mean + std * N(0, 1), for a floating dtype.
void normal(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double mean,
            double std);
// out = integers uniform in [low, low + range), for any dtype.
void random_integers(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve,
                     int64_t low, uint64_t range);
// out (operand 0) = 1 with probability p (operand 1, floating dtype p_type), else 0. A p
// outside [0, 1] is an error naming bernoulli.
void bernoulli(ScalarType out_type, ScalarType p_type, const Loop<2>& loop,
               const ReservePhilox& reserve);
// out[0, n) = a random permutation of 0..n-1 (Fisher-Yates), contiguous, of `dtype`.
void randperm(ScalarType dtype, void* out, int64_t n, const ReservePhilox& reserve);

}  // namespace accel::cpu
