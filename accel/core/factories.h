// Tensor factories: new tensors filled with a constant, a range, an identity, given values,
// or wrapping memory the caller owns (from_blob). Random factories are in random.h.
#pragma once

#include <functional>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "accel/core/tensor.h"

namespace accel {

Tensor empty(IntArrayRef sizes, TensorOptions options = {});
Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
Tensor zeros(IntArrayRef sizes, TensorOptions options = {});
Tensor ones(IntArrayRef sizes, TensorOptions options = {});
Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions options = {});
Tensor empty_like(const Tensor& t);
Tensor empty_like(const Tensor& t, TensorOptions options);
Tensor zeros_like(const Tensor& t);
Tensor zeros_like(const Tensor& t, TensorOptions options);
Tensor ones_like(const Tensor& t);
Tensor ones_like(const Tensor& t, TensorOptions options);
Tensor full_like(const Tensor& t, const Scalar& value);
Tensor full_like(const Tensor& t, const Scalar& value, TensorOptions options);

// Values start, start+step, ... below end. Without a dtype in options: int64 when every
// argument is an integer, else the default float type (torch.arange).
Tensor arange(const Scalar& end, TensorOptions options = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step = 1,
              TensorOptions options = {});
Tensor arange(const Scalar& end, ScalarType dtype);
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, TensorOptions options = {});
Tensor eye(int64_t n, TensorOptions options = {});
Tensor eye(int64_t n, int64_t m, TensorOptions options = {});
// The [2, N] coordinates (rows, then columns) of a row x col matrix's lower (tril) or upper
// (triu) triangle from diagonal `offset` (0: the main one; > 0 above it), in row-major order.
Tensor tril_indices(int64_t row, int64_t col, int64_t offset = 0, TensorOptions options = kInt64);
Tensor triu_indices(int64_t row, int64_t col, int64_t offset = 0, TensorOptions options = kInt64);

// A 0-dim tensor holding `value` (dtype: the value's natural type unless options has one).
Tensor scalar_tensor(const Scalar& value, TensorOptions options = {});
// torch::tensor: a 1-D tensor of the given values, dtype from the C++ type
// (float -> float32, double -> float64, int/int64_t -> int64, bool -> bool).
Tensor tensor(std::initializer_list<float> values, TensorOptions options = kFloat32);
Tensor tensor(std::initializer_list<double> values, TensorOptions options = kFloat64);
Tensor tensor(std::initializer_list<int> values, TensorOptions options = kInt64);
Tensor tensor(std::initializer_list<int64_t> values, TensorOptions options = kInt64);
Tensor tensor(std::initializer_list<bool> values, TensorOptions options = kBool);
Tensor tensor(const std::vector<float>& values, TensorOptions options = kFloat32);
Tensor tensor(const std::vector<double>& values, TensorOptions options = kFloat64);
Tensor tensor(const std::vector<int64_t>& values, TensorOptions options = kInt64);

// torch::tensor of nested lists: tensor({{1.f, 2.f}, {3.f, 4.f}}) is a [2, 2] float32 tensor,
// three levels a 3-D one; every row must have the same length.
template <typename T>
Tensor tensor(std::initializer_list<std::initializer_list<T>> rows, TensorOptions options = {});
template <typename T>
Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>> planes,
              TensorOptions options = {});

// A tensor viewing memory the caller owns (no copy). The memory must outlive the tensor
// and every view of it, unless `deleter` is given: it runs when the last view dies.
Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options = {});
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options = {});
Tensor from_blob(void* data, IntArrayRef sizes, std::function<void(void*)> deleter,
                 TensorOptions options = {});

namespace detail {

// The values of nested lists in row-major order, their lengths checked at each level.
template <typename T>
void flatten_nested(const T& value, std::vector<int64_t>& sizes, size_t, std::vector<T>& out) {
  (void)sizes;
  out.push_back(value);
}
template <typename T, typename Inner>
void flatten_nested(std::initializer_list<Inner> list, std::vector<int64_t>& sizes, size_t level,
                    std::vector<T>& out) {
  const auto length = static_cast<int64_t>(list.size());
  if (sizes.size() == level) sizes.push_back(length);
  ACCEL_CHECK(sizes[level] == length, "tensor",
              "nested lists must have equal lengths at each level: expected {} at level {}, got {}",
              sizes[level], level, length);
  for (const Inner& inner : list) flatten_nested<T>(inner, sizes, level + 1, out);
}

template <typename T, typename Nested>
Tensor tensor_of_nested(Nested lists, TensorOptions options) {
  // The element type's natural dtype unless options has one (int becomes int64, as torch's).
  using Element = std::conditional_t<std::is_same_v<T, int>, int64_t, T>;
  std::vector<T> values;
  std::vector<int64_t> sizes;
  flatten_nested<T>(lists, sizes, 0, values);
  if (!options.has_dtype()) options = options.dtype(scalar_type_of<Element>);
  if constexpr (std::is_same_v<Element, bool>) {  // no vector<bool> overload: through int64
    const std::vector<int64_t> wide(values.begin(), values.end());
    return tensor(wide, TensorOptions(kInt64).device(options.device()))
        .to(options.dtype())
        .view(sizes);
  } else {
    return tensor(std::vector<Element>(values.begin(), values.end()), options).view(sizes);
  }
}

}  // namespace detail

template <typename T>
Tensor tensor(std::initializer_list<std::initializer_list<T>> rows, TensorOptions options) {
  return detail::tensor_of_nested<T>(rows, options);
}
template <typename T>
Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>> planes,
              TensorOptions options) {
  return detail::tensor_of_nested<T>(planes, options);
}

}  // namespace accel
