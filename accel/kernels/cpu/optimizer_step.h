// CPU kernels applying one optimizer update to a contiguous parameter, its gradient and its
// state buffers (all of the parameter's dtype and length), element by element with the rules
// of kernels/common/optimizer_math.h. Optional state (nullptr) is unused by the options given.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/optimizer_math.h"

namespace accel::cpu {

void sgd_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* momentum_buffer,
              const math::SgdScalars<double>& s);
void adam_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* exp_avg,
               void* exp_avg_sq, void* max_exp_avg_sq, const math::AdamScalars<double>& s);
void rmsprop_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* square_avg,
                  void* grad_avg, void* momentum_buffer, const math::RmspropScalars<double>& s);
void adagrad_step(ScalarType dtype, int64_t n, void* param, const void* grad, void* sum,
                  const math::AdagradScalars<double>& s);

}  // namespace accel::cpu
