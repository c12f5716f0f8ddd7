// The geometry of an element-wise loop over N strided operands of one shape (operand 0 is
// the output), shared by the CPU runner (kernels/cpu/loops.h) and the CUDA launcher. Strides
// are in bytes, so the walk is independent of dtype. Dimensions are coalesced (merged where
// memory allows) so the innermost dim is the longest run every operand steps through
// evenly. A Loop is a plain value, small enough to pass to a CUDA kernel as an argument.
#pragma once

#include <array>
#include <cstdint>

#include "accel/base/int_array_ref.h"
#include "accel/base/macros.h"

namespace accel {

inline constexpr int kMaxLoopDims = 16;

template <int N>
struct Loop {
  // Only the first ndim entries of sizes and strides are set: the arrays are left
  // uninitialized, since clearing them costs a small op as much as its arithmetic.
  int ndim = 0;
  int64_t sizes[kMaxLoopDims];       // innermost first
  int64_t strides[N][kMaxLoopDims];  // bytes, innermost first
  std::array<char*, N> data = {};
  int64_t numel = 1;

  // sizes: the common shape; strides[k]: operand k's element strides for that shape (0 on
  // broadcast dims); element_sizes[k]: its bytes per element.
  Loop(IntArrayRef shape, std::array<char*, N> data_, std::array<IntArrayRef, N> element_strides,
       std::array<int64_t, N> element_sizes)
      : data(data_) {
    const int nd = static_cast<int>(shape.size());
    // Reverse into innermost-first order, dropping size-1 dims.
    for (int d = nd - 1; d >= 0; --d) {
      if (shape[d] == 1) continue;
      sizes[ndim] = shape[d];
      for (int k = 0; k < N; ++k) strides[k][ndim] = element_strides[k][d] * element_sizes[k];
      ++ndim;
    }
    for (int d = 0; d < ndim; ++d) numel *= sizes[d];
    coalesce();
  }

  // Merges dim d+1 into d where every operand steps through them as one.
  void coalesce() {
    if (ndim < 2) return;
    int out = 0;
    for (int d = 1; d < ndim; ++d) {
      bool mergeable = true;
      for (int k = 0; k < N; ++k) {
        if (strides[k][d] != strides[k][out] * sizes[out]) mergeable = false;
      }
      if (mergeable) {
        sizes[out] *= sizes[d];
      } else {
        ++out;
        sizes[out] = sizes[d];
        for (int k = 0; k < N; ++k) strides[k][out] = strides[k][d];
      }
    }
    ndim = out + 1;
  }

  ACCEL_INLINE int64_t inner_size() const { return ndim == 0 ? 1 : sizes[0]; }
  ACCEL_INLINE int64_t inner_stride(int k) const { return ndim == 0 ? 0 : strides[k][0]; }

  // The byte offset of operand k's element at linear (row-major) index i.
  ACCEL_INLINE int64_t offset(int k, int64_t i) const {
    int64_t offset = 0;
    for (int d = 0; d < ndim; ++d) {
      offset += (i % sizes[d]) * strides[k][d];
      i /= sizes[d];
    }
    return offset;
  }
};

}  // namespace accel
