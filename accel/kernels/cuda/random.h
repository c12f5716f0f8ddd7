// CUDA kernels that fill tensors with Philox samples: value i of a draw is the CPU's value i
// for the same generator state (kernels/common/philox.h), so both devices draw the same
// numbers (contracts in kernels/backend.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/backend.h"

namespace accel::cuda {

void uniform(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double from,
             double to, const Stream& stream);
void normal(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double mean,
            double std, const Stream& stream);
void random_integers(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve,
                     int64_t low, uint64_t range, const Stream& stream);
void bernoulli(ScalarType out_type, ScalarType p_type, const Loop<2>& loop,
               const ReservePhilox& reserve, const Stream& stream);
void randperm(ScalarType dtype, void* out, int64_t n, const ReservePhilox& reserve,
              const Stream& stream);

}  // namespace accel::cuda
