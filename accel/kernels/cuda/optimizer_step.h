// CUDA kernels applying one optimizer update to a contiguous parameter, and the loss scaler's
// unscale-and-check, element by element with the rules of kernels/common (contracts in
// kernels/backend.h).
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/optimizer_math.h"

namespace accel::cuda {

void sgd_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* momentum_buffer,
              const math::SgdScalars<double>& s, const Stream& stream);
void adam_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* exp_avg,
               void* exp_avg_sq, void* max_exp_avg_sq, const math::AdamScalars<double>& s,
               const Stream& stream);
void rmsprop_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* square_avg,
                  void* grad_avg, void* momentum_buffer, const math::RmspropScalars<double>& s,
                  const Stream& stream);
void adagrad_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* sum,
                  const math::AdagradScalars<double>& s, const Stream& stream);
void unscale_gradient(ScalarType dtype, int64_t n, void* grad, double inv_scale, float* found_inf,
                      const Stream& stream);

}  // namespace accel::cuda
