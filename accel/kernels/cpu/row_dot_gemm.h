// A matrix product whose operands both run along the depth in memory — x · Wᵀ, a linear layer's
// forward pass, with W [out_features, in_features] as stored. Every output element is the dot
// product of a row of each operand, read in place: no packing, so it pays even when each
// operand is used once. Each dot product is summed lane-wise along the depth, then across the
// lanes in a fixed order, so results depend only on the operands, never on how callers split
// the output between threads.
#pragma once

#include <cstdint>

namespace accel::cpu {

// rows x depth matrix; element (i, d) at data[i * row_stride + d].
template <typename T>
struct DepthRows {
  const T* data;
  int64_t rows, row_stride;
};

// out[i * out_stride + j] = Σ_d a(i, d) · b(j, d) for i < a.rows, j < b.rows. T: float or double.
template <typename T>
void row_dot_gemm(const DepthRows<T>& a, const DepthRows<T>& b, int64_t depth, T* out,
                  int64_t out_stride);

}  // namespace accel::cpu
