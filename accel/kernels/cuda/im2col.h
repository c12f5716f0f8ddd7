// CUDA im2col / col2im for 2-D convolution by unfolding (contracts in kernels/backend.h).
// col2im gathers each pixel's column entries in tap order (no atomics): the same bits as the
// CPU's sum order, on every run.
#pragma once

#include <cstdint>

#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/conv_geometry.h"

namespace accel::cuda {

void im2col(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* images,
            void* columns, const Stream& stream);
void col2im(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* columns,
            void* images, const Stream& stream);

}  // namespace accel::cuda
