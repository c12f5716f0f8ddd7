// What op implementations share: type promotion, output allocation, broadcast strides,
// element-wise loop set-up and the way to a device's kernels. Internal to accel's ops (not
// part of the public headers).
#pragma once

#include <array>

#include "accel/core/autograd/function.h"
#include "accel/core/backend.h"
#include "accel/core/factories.h"
#include "accel/core/ops.h"
#include "accel/core/stream.h"
#include "accel/kernels/common/loop.h"

namespace accel {

// torch.result_type: dimensioned tensors outrank 0-dim tensors, which outrank C++ numbers;
// a lower-ranked operand only promotes the result when it is of a higher category
// (bool < integer < floating).
ScalarType result_type(const Tensor& a, const Tensor& b);
ScalarType result_type(const Tensor& a, const Scalar& b);
// The default float type for integer inputs of ops that always produce floats (div, exp).
inline ScalarType to_floating(ScalarType t) { return is_floating_point(t) ? t : kDefaultFloat; }

// Strides that view `t` as having `shape` (0 on broadcast dims), or an error naming `op`.
DimVector broadcast_strides(const Tensor& t, IntArrayRef shape, const char* op);

void check_same_device(const Tensor& a, const Tensor& b, const char* op);

// An error naming `op` when several elements of `out` share one memory location (a broadcast
// view: stride 0 on a dim of size > 1), whose element-wise result would depend on the order of
// writes. fill_ alone may write such a tensor (every write is the same value).
void check_no_internal_overlap(const Tensor& out, const char* op);

// An input may share memory with the written-to tensor only as the very same elements in the
// same layout (x.add_(x)); one that overlaps it otherwise (x[1:].copy_(x[:-1]), x.copy_(x.t()))
// would read elements already overwritten, in an order that depends on the loop, so it is an
// error, as in PyTorch. Decided where both cover a memory range densely; others pass unchecked,
// as in PyTorch.
void check_no_partial_overlap(const Tensor& out, const Tensor& in, const char* op);

// Every index (int64 or int32) must address an element of dim `dim` (size `size`): checked
// before any write (on a device, reported at the next synchronization; its kernels skip such
// indices).
void check_index_range(const Tensor& index, int64_t dim, int64_t size, const char* op);

// A C++ number stored as dtype `t`, to be read by kernels like a 0-dim tensor; an accel::Error
// naming `op` when it does not fit `t` (Scalar::to).
struct ScalarBuffer {
  alignas(8) char bytes[8] = {};
  ScalarBuffer(const Scalar& value, ScalarType t, const char* op);
  char* data() { return bytes; }
};

// An element-wise loop writing `out` (which must have no internal overlap) from `inputs`
// broadcast to out's shape.
template <int N>
Loop<N> make_loop(const Tensor& out, std::array<const Tensor*, N - 1> inputs, const char* op) {
  if constexpr (N > 1) check_no_internal_overlap(out, op);
  std::array<char*, N> data;
  std::array<DimVector, N> strides;
  std::array<int64_t, N> element_sizes;
  data[0] = static_cast<char*>(out.data_ptr());
  strides[0] = out.strides();
  element_sizes[0] = out.element_size();
  for (int k = 1; k < N; ++k) {
    const Tensor& in = *inputs[k - 1];
    if (in.storage() == out.storage()) check_no_partial_overlap(out, in, op);
    data[k] = static_cast<char*>(in.data_ptr());
    strides[k] = broadcast_strides(in, out.sizes(), op);
    element_sizes[k] = in.element_size();
  }
  std::array<IntArrayRef, N> stride_refs;
  for (int k = 0; k < N; ++k) stride_refs[k] = strides[k];
  return Loop<N>(out.sizes(), data, stride_refs, element_sizes);
}

}  // namespace accel
