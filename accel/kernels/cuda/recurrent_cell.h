// One step of an LSTM or GRU cell on the GPU, forward and backward (contracts in
// kernels/backend.h): the device twin of kernels/cpu/recurrent_cell.cpp, one thread per unit of
// a row, with the same math (kernels/common/recurrent_cell_math.h).
#pragma once

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/recurrent_cell_math.h"

namespace accel::cuda {

void lstm_cell(ScalarType type, const void* x, const void* h_proj, const void* bias,
               const void* c_prev, void* gates, void* c, void* tanh_c, void* h,
               RecurrentCellShape shape, const Stream& stream);
void lstm_cell_backward(ScalarType type, const void* grad_h, const void* grad_c, const void* gates,
                        const void* tanh_c, const void* c_prev, void* grad_gates, void* grad_c_prev,
                        RecurrentCellShape shape, const Stream& stream);
void gru_cell(ScalarType type, const void* x, const void* h_proj, const void* h_prev, void* gates,
              void* h, RecurrentCellShape shape, const Stream& stream);
void gru_cell_backward(ScalarType type, const void* grad_h, const void* gates, const void* h_proj,
                       const void* h_prev, void* grad_x, void* grad_h_proj, void* grad_h_prev,
                       RecurrentCellShape shape, const Stream& stream);

}  // namespace accel::cuda
