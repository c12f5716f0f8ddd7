// Type promotion, broadcasting and the helpers in op_support.h.
#include "accel/core/ops/op_support.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "accel/base/dispatch.h"

namespace accel {

namespace {
enum class Category { Bool, Integer, Floating };
Category category(ScalarType t) {
  return t == kBool             ? Category::Bool
         : is_floating_point(t) ? Category::Floating
                                : Category::Integer;
}
}  // namespace

ScalarType result_type(const Tensor& a, const Tensor& b) {
  const bool a_dim = a.dim() > 0, b_dim = b.dim() > 0;
  if (a_dim == b_dim) return promote_types(a.dtype(), b.dtype());
  const Tensor& high = a_dim ? a : b;  // the dimensioned one
  const Tensor& low = a_dim ? b : a;
  if (category(low.dtype()) > category(high.dtype()))
    return promote_types(high.dtype(), low.dtype());
  return high.dtype();
}

ScalarType result_type(const Tensor& a, const Scalar& b) {
  const ScalarType bt = b.natural_type();
  if (category(bt) > category(a.dtype())) {
    return b.is_floating_point() ? kDefaultFloat : promote_types(a.dtype(), bt);
  }
  return a.dtype();
}

DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b, const char* op) {
  const size_t n = std::max(a.size(), b.size());
  DimVector out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    ACCEL_CHECK(da == db || da == 1 || db == 1, op,
                "shapes {} and {} cannot be broadcast together (dimension {}: {} vs {})", a, b, i,
                da, db);
    out[i] = da == 1 ? db : da;
  }
  return out;
}

DimVector broadcast_strides(const Tensor& t, IntArrayRef shape, const char* op) {
  const size_t n = shape.size();
  const size_t tn = static_cast<size_t>(t.dim());
  ACCEL_CHECK(tn <= n, op, "cannot broadcast shape {} to {}", t.sizes(), shape);
  DimVector strides(n, 0);
  for (size_t i = 0; i < tn; ++i) {
    const size_t d = i + (n - tn);
    const int64_t size = t.sizes()[i];
    ACCEL_CHECK(size == shape[d] || size == 1, op, "cannot broadcast shape {} to {}", t.sizes(),
                shape);
    strides[d] = size == 1 ? 0 : t.strides()[i];
  }
  return strides;
}

void check_same_device(const Tensor& a, const Tensor& b, const char* op) {
  ACCEL_CHECK(a.device() == b.device(), op,
              "expected all tensors to be on the same device, but found {} and {}", a.device(),
              b.device());
}

void check_no_internal_overlap(const Tensor& out, const char* op) {
  for (int64_t d = 0; d < out.dim(); ++d) {
    ACCEL_CHECK(out.stride(d) != 0 || out.size(d) <= 1, op,
                "more than one element of the written-to tensor (shape {}, strides {}) refers to "
                "a single memory location; clone() it before writing",
                out.sizes(), out.strides());
  }
}

namespace {

// Whether t's elements fill the memory range they span, each once, in some order of its dims.
bool is_dense(const Tensor& t) {
  if (t.is_contiguous()) return true;
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size); a rare path: heap is fine
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) != 1) dims.push_back({t.stride(d), t.size(d)});
  }
  std::sort(dims.begin(), dims.end());
  int64_t expected = 1;
  for (const auto& [stride, size] : dims) {
    if (stride != expected) return false;
    expected *= size;
  }
  return true;
}

}  // namespace

void check_no_partial_overlap(const Tensor& out, const Tensor& in, const char* op) {
  if (in.is_same(out) || in.numel() == 0 || out.numel() == 0 || !is_dense(in) || !is_dense(out))
    return;
  const auto begin = [](const Tensor& t) { return static_cast<const char*>(t.data_ptr()); };
  const auto end = [&](const Tensor& t) { return begin(t) + t.nbytes(); };
  if (end(in) <= begin(out) || end(out) <= begin(in)) return;
  const bool same_elements = begin(in) == begin(out) && end(in) == end(out) &&
                             in.element_size() == out.element_size() &&
                             in.strides() == out.strides();
  ACCEL_CHECK(same_elements, op,
              "the input (shape {}, strides {}, offset {}) and the written-to tensor (shape {}, "
              "strides {}, offset {}) share some memory but not element for element; clone() "
              "the input first",
              in.sizes(), in.strides(), in.storage_offset(), out.sizes(), out.strides(),
              out.storage_offset());
}

void check_index_range(const Tensor& index, int64_t dim, int64_t size, const char* op) {
  // An expanded index (index_add's, index_copy's) holds each value once: check those only.
  Tensor distinct = index;
  for (int64_t d = 0; d < index.dim(); ++d) {
    if (index.stride(d) == 0 && index.size(d) > 1) distinct = distinct.narrow(d, 0, 1);
  }
  const Tensor values = distinct.contiguous();
  backend(values.device())
      .check_indices(values.dtype(), values.data_ptr(), values.numel(), size, {op, dim},
                     current_stream(values.device()));
}

ScalarBuffer::ScalarBuffer(const Scalar& value, ScalarType t, const char* op) {
  dispatch_all(t, op, [&]<typename T>() {
    const T v = value.to<T>(op);
    std::memcpy(bytes, &v, sizeof(T));
  });
}

}  // namespace accel
