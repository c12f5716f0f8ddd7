// CUDA reductions and softmax over [outer, reduced, inner] inputs (contracts in
// kernels/backend.h). Each output's terms are combined in a fixed tree order (long reductions:
// fixed chunks folded by separate blocks, their partial results combined by a second pass),
// with no atomics, so a run gives the same bits every time.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/reduce_shape.h"

namespace accel::cuda {

void sum(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape,
         const Stream& stream);
void two_norm(ScalarType type, const void* in, void* out, ReduceShape shape, const Stream& stream);
void prod(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape,
          const Stream& stream);
void prod_backward(ScalarType type, const void* in, const void* grad, void* grad_in,
                   ReduceShape shape, const Stream& stream);
void extremum(Extremum kind, ScalarType type, const void* in, void* values, int64_t* indices,
              ReduceShape shape, const Stream& stream);
void scatter_reduced(ScalarType type, const void* grad, const int64_t* indices, void* grad_in,
                     ReduceShape shape, const Stream& stream);
void moments(ScalarType type, const void* in, void* out, void* mean, ReduceShape shape,
             int64_t correction, bool take_sqrt, const Stream& stream);
void logsumexp(ScalarType type, const void* in, void* out, ReduceShape shape, const Stream& stream);
void softmax(ScalarType type, const void* in, void* out, ReduceShape shape, bool log,
             const Stream& stream);
void softmax_backward(ScalarType type, const void* grad, const void* out, void* grad_in,
                      ReduceShape shape, bool log, const Stream& stream);

}  // namespace accel::cuda
