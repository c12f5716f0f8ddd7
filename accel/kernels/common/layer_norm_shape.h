// The geometry both backends' layer normalization kernels share: `rows` contiguous rows of
// `cols` elements, each normalized on its own. The affine parameters' gradients sum columns
// over all rows: in blocks of rows_per_block() rows, each block's partial sums taken in row
// order, the blocks' sums then combined in block order. The blocks depend on the shape alone,
// so the gradients have the same bits for any number of threads or GPU blocks.
#pragma once

#include <cstdint>

#include "accel/base/macros.h"

namespace accel {

struct LayerNormShape {
  int64_t rows = 0;
  int64_t cols = 0;

  // At least 32 rows a block, and at most 64 blocks: their partial sums (blocks x cols) are
  // scratch memory.
  ACCEL_INLINE int64_t rows_per_block() const {
    const int64_t spread = (rows + 63) / 64;
    return spread > 32 ? spread : 32;
  }
  ACCEL_INLINE int64_t row_blocks() const {
    return (rows + rows_per_block() - 1) / rows_per_block();
  }
};

}  // namespace accel
