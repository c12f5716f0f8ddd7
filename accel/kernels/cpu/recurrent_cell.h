// One step of an LSTM or GRU cell on the CPU, forward and backward (contracts in
// kernels/backend.h, math in kernels/common/recurrent_cell_math.h): each row's units run on
// SLEEF's vectors, rows split across threads.
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/kernels/common/recurrent_cell_math.h"

namespace accel::cpu {

void lstm_cell(ScalarType type, const void* x, const void* h_proj, const void* bias,
               const void* c_prev, void* gates, void* c, void* tanh_c, void* h,
               RecurrentCellShape shape);
void lstm_cell_backward(ScalarType type, const void* grad_h, const void* grad_c, const void* gates,
                        const void* tanh_c, const void* c_prev, void* grad_gates, void* grad_c_prev,
                        RecurrentCellShape shape);
void gru_cell(ScalarType type, const void* x, const void* h_proj, const void* h_prev, void* gates,
              void* h, RecurrentCellShape shape);
void gru_cell_backward(ScalarType type, const void* grad_h, const void* gates, const void* h_proj,
                       const void* h_prev, void* grad_x, void* grad_h_proj, void* grad_h_prev,
                       RecurrentCellShape shape);

}  // namespace accel::cpu
