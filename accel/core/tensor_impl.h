// TensorImpl: what a Tensor handle points to. A strided view (sizes, strides, offset, all in
// elements) into a Storage, plus the autograd metadata a tensor needs only once it takes
// part in differentiation (allocated lazily, so plain tensors stay small).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "accel/base/int_array_ref.h"
#include "accel/base/scalar_type.h"
#include "accel/core/storage.h"

namespace accel {

class Tensor;
namespace autograd {
class Node;
}

using TensorHook = std::function<Tensor(const Tensor& grad)>;  // may return undefined: keep
using PostAccumulateGradHook = std::function<void(const Tensor& leaf)>;
struct AutogradMeta;  // in tensor.h

struct TensorImpl {
  TensorImpl(std::shared_ptr<Storage> storage, ScalarType dtype, IntArrayRef sizes,
             IntArrayRef strides, int64_t storage_offset);
  // A contiguous tensor of `sizes` at the start of `storage`, whose element count `numel`
  // the caller has checked (checked_numel): the strides are computed in place (strides that
  // overflow int64 raise accel::Error naming `op`).
  struct Contiguous {
    const char* op;
  };
  TensorImpl(std::shared_ptr<Storage> storage, ScalarType dtype, IntArrayRef sizes, int64_t numel,
             Contiguous);
  ~TensorImpl();

  // Replaces the geometry (views made in place: as_strided_, squeeze_ on the impl).
  void set_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);
  AutogradMeta& autograd();  // creates it on first use

  std::shared_ptr<Storage> storage;
  DimVector sizes;
  DimVector strides;
  int64_t storage_offset = 0;
  int64_t numel = 0;
  ScalarType dtype;
  bool is_contiguous = true;
  // Autograd state every recorded op touches lives inline; the rest is in autograd_meta.
  bool requires_grad = false;               // leaves only: whether gradients accumulate into grad
  bool is_view = false;                     // made by a view op: shares storage with another tensor
  uint32_t output_nr = 0;                   // which output of grad_fn this tensor is
  std::shared_ptr<autograd::Node> grad_fn;  // null for leaves
  std::unique_ptr<AutogradMeta> autograd_meta;
};

// Row-major strides for `sizes` (a size-1 or size-0 dimension gets stride as if contiguous).
// A stride that does not fit int64 raises accel::Error naming `op` and the shape; a size-0
// dimension counts as 1 there (PyTorch's rule), so [0, 2^40, 2^40] is rejected too.
DimVector contiguous_strides(IntArrayRef sizes, const char* op = "contiguous_strides");
// The number of elements of `sizes`; a count that does not fit int64 raises accel::Error naming
// `op` and the shape. Checked multiplications only: this runs for every tensor an op creates.
int64_t checked_numel(IntArrayRef sizes, const char* op);
bool compute_is_contiguous(IntArrayRef sizes, IntArrayRef strides);

}  // namespace accel
