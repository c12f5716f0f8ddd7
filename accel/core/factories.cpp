// Tensor factories (see factories.h).
#include "accel/core/factories.h"

#include <cmath>
#include <vector>

#include "accel/base/dispatch.h"
#include "accel/core/object_pool.h"
#include "accel/core/ops.h"

namespace accel {

namespace {

void check_sizes(IntArrayRef sizes, const char* op) {
  for (int64_t s : sizes) {
    ACCEL_CHECK(s >= 0, op, "negative dimension {} in shape {}", s, sizes);
  }
}

// The bytes of a storage for `elements` elements of `dtype` (a tensor of shape `sizes`).
size_t storage_bytes(int64_t elements, ScalarType dtype, IntArrayRef sizes, const char* op) {
  int64_t bytes = 0;
  ACCEL_CHECK(!__builtin_mul_overflow(elements, element_size(dtype), &bytes), op,
              "shape {} of {} needs more bytes than int64 can count", sizes, dtype);
  return static_cast<size_t>(bytes);
}

// How many elements a strided tensor reaches in its storage: none when it is empty, otherwise
// 1 + the sum of (size - 1) * stride, every step checked against int64 overflow.
int64_t storage_extent(IntArrayRef sizes, IntArrayRef strides, const char* op) {
  ACCEL_CHECK(sizes.size() == strides.size(), op, "got {} sizes but {} strides", sizes.size(),
              strides.size());
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    ACCEL_CHECK(strides[i] >= 0, op, "negative stride in {}", strides);
    empty |= sizes[i] == 0;
  }
  if (empty) return 0;
  int64_t extent = 1;
  bool overflow = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    int64_t span = 0;
    overflow |= __builtin_mul_overflow(sizes[i] - 1, strides[i], &span);
    overflow |= __builtin_add_overflow(extent, span, &extent);
  }
  ACCEL_CHECK(!overflow, op, "shape {} with strides {} reaches beyond what int64 can count", sizes,
              strides);
  return extent;
}

Tensor finish(Tensor t, const TensorOptions& options) {
  if (options.requires_grad()) t.requires_grad_(true);
  return t;
}

// Factories whose values the host computes write them into a CPU tensor (`on_host`), which
// `placed` then moves to the requested device: a device's memory is not the host's to write.
TensorOptions on_host(TensorOptions options) {
  options = options.requires_grad(false);
  return options.device().is_cpu() ? options : options.device(Device(kCPU));
}
Tensor placed(Tensor t, const TensorOptions& options) {
  if (t.device() != options.device()) t = t.to(options.device());
  return finish(std::move(t), options);
}

template <typename T>
Tensor from_values(const T* values, size_t n, TensorOptions options) {
  if (!options.has_dtype()) options = options.dtype(scalar_type_of<T>);
  Tensor out = empty({static_cast<int64_t>(n)}, on_host(options).dtype(scalar_type_of<T>));
  std::copy(values, values + n, out.data_ptr<T>());
  return placed(out.to(options.dtype()), options);
}

}  // namespace

Tensor empty(IntArrayRef sizes, TensorOptions options) {
  check_sizes(sizes, "empty");
  const int64_t numel = checked_numel(sizes, "empty");
  auto storage = make_pooled<Storage>(storage_bytes(numel, options.dtype(), sizes, "empty"),
                                      options.device(), options.pinned_memory());
  auto impl = make_pooled<TensorImpl>(std::move(storage), options.dtype(), sizes, numel,
                                      TensorImpl::Contiguous{"empty"});
  return finish(Tensor(std::move(impl)), options);
}

Tensor empty_strided(IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  check_sizes(sizes, "empty_strided");
  checked_numel(sizes, "empty_strided");
  const int64_t extent = storage_extent(sizes, strides, "empty_strided");
  auto storage = make_pooled<Storage>(
      storage_bytes(extent, options.dtype(), sizes, "empty_strided"), options.device());
  auto impl = make_pooled<TensorImpl>(std::move(storage), options.dtype(), sizes, strides, 0);
  return finish(Tensor(std::move(impl)), options);
}

Tensor full(IntArrayRef sizes, const Scalar& value, TensorOptions options) {
  // Without a dtype, the value's own: int64 for an integer, bool, else the default float.
  if (!options.has_dtype()) options = options.dtype(value.natural_type());
  Tensor t = empty(sizes, options.requires_grad(false));
  t.fill_(value);
  return finish(t, options);
}
// zeros and ones stay the default float without a dtype (options.dtype() supplies it), where
// full() would take int64 from the integer fill value.
Tensor zeros(IntArrayRef sizes, TensorOptions options) {
  return full(sizes, 0, options.dtype(options.dtype()));
}
Tensor ones(IntArrayRef sizes, TensorOptions options) {
  return full(sizes, 1, options.dtype(options.dtype()));
}

Tensor empty_like(const Tensor& t) { return empty(t.sizes(), t.options()); }
Tensor empty_like(const Tensor& t, TensorOptions options) { return empty(t.sizes(), options); }
Tensor zeros_like(const Tensor& t) { return zeros(t.sizes(), t.options()); }
Tensor zeros_like(const Tensor& t, TensorOptions options) { return zeros(t.sizes(), options); }
Tensor ones_like(const Tensor& t) { return ones(t.sizes(), t.options()); }
Tensor ones_like(const Tensor& t, TensorOptions options) { return ones(t.sizes(), options); }
Tensor full_like(const Tensor& t, const Scalar& value) {
  return full(t.sizes(), value, t.options());
}
Tensor full_like(const Tensor& t, const Scalar& value, TensorOptions options) {
  return full(t.sizes(), value, options);
}

Tensor scalar_tensor(const Scalar& value, TensorOptions options) {
  return full({}, value, options);
}

Tensor arange(const Scalar& end, TensorOptions options) { return arange(0, end, 1, options); }
Tensor arange(const Scalar& end, ScalarType dtype) {
  return arange(0, end, 1, TensorOptions(dtype));
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, TensorOptions options) {
  const double s = start.to_double(), e = end.to_double(), d = step.to_double();
  ACCEL_CHECK(d != 0, "arange", "step must be nonzero");
  ACCEL_CHECK(std::isfinite(s) && std::isfinite(e), "arange", "unsupported range: {} -> {}", s, e);
  ACCEL_CHECK(
      (d > 0 && e >= s) || (d < 0 && e <= s), "arange",
      "upper bound and larger bound inconsistent with step sign (start {}, end {}, step {})", s, e,
      d);
  const int64_t n = static_cast<int64_t>(std::ceil((e - s) / d));
  const bool all_integers =
      !start.is_floating_point() && !end.is_floating_point() && !step.is_floating_point();
  if (!options.has_dtype()) options = options.dtype(all_integers ? kInt64 : kDefaultFloat);
  Tensor out = empty({n}, on_host(options));
  dispatch_numeric(options.dtype(), "arange", [&]<typename T>() {
    T* p = out.data_ptr<T>();
    if (all_integers && is_integral(options.dtype(), false)) {
      const int64_t s0 = start.to<int64_t>("arange"), d0 = step.to<int64_t>("arange");
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(s0 + i * d0);
    } else {
      for (int64_t i = 0; i < n; ++i)
        p[i] = static_cast<T>(static_cast<acc_t<T>>(s + static_cast<double>(i) * d));
    }
  });
  return placed(std::move(out), options);
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, TensorOptions options) {
  ACCEL_CHECK(steps >= 0, "linspace", "number of steps must be non-negative, got {}", steps);
  Tensor out = empty({steps}, on_host(options));
  const double s = start.to_double(), e = end.to_double();
  const double step = steps > 1 ? (e - s) / static_cast<double>(steps - 1) : 0.0;
  const int64_t half = steps == 1 ? 1 : steps / 2;  // one step: start alone, as PyTorch
  dispatch_numeric(options.dtype(), "linspace", [&]<typename T>() {
    T* p = out.data_ptr<T>();
    // Both ends are exact: the first half counts up from start, the second down from end.
    for (int64_t i = 0; i < steps; ++i) {
      const double v = i < half ? s + step * static_cast<double>(i)
                                : e - step * static_cast<double>(steps - 1 - i);
      p[i] = static_cast<T>(static_cast<acc_t<T>>(v));
    }
  });
  return placed(std::move(out), options);
}

Tensor eye(int64_t n, TensorOptions options) { return eye(n, n, options); }

Tensor eye(int64_t n, int64_t m, TensorOptions options) {
  ACCEL_CHECK(n >= 0 && m >= 0, "eye", "n and m must be non-negative, got {} and {}", n, m);
  Tensor out = zeros({n, m}, on_host(options));
  dispatch_all(options.dtype(), "eye", [&]<typename T>() {
    T* p = out.data_ptr<T>();
    for (int64_t i = 0; i < std::min(n, m); ++i) p[i * m + i] = static_cast<T>(1);
  });
  return placed(std::move(out), options);
}

namespace {

// The coordinates of a row x col matrix's elements on and below (lower) or on and above
// diagonal `offset`, in row-major order: row indices in row 0 of the result, columns in row 1.
Tensor triangle_indices(int64_t row, int64_t col, int64_t offset, bool lower, TensorOptions options,
                        const char* op) {
  ACCEL_CHECK(row >= 0 && col >= 0, op, "row and col must be non-negative, got {} and {}", row,
              col);
  std::vector<int64_t> coordinates[2];
  for (int64_t r = 0; r < row; ++r) {
    for (int64_t c = 0; c < col; ++c) {
      if (lower ? c - r <= offset : c - r >= offset) {
        coordinates[0].push_back(r);
        coordinates[1].push_back(c);
      }
    }
  }
  const auto count = static_cast<int64_t>(coordinates[0].size());
  Tensor out = empty({2, count}, on_host(options));
  dispatch_index(options.dtype(), op, [&]<typename T>() {
    T* p = out.data_ptr<T>();
    for (int64_t i = 0; i < count; ++i) {
      p[i] = static_cast<T>(coordinates[0][static_cast<size_t>(i)]);
      p[count + i] = static_cast<T>(coordinates[1][static_cast<size_t>(i)]);
    }
  });
  return placed(std::move(out), options);
}

}  // namespace

Tensor tril_indices(int64_t row, int64_t col, int64_t offset, TensorOptions options) {
  return triangle_indices(row, col, offset, true, options, "tril_indices");
}
Tensor triu_indices(int64_t row, int64_t col, int64_t offset, TensorOptions options) {
  return triangle_indices(row, col, offset, false, options, "triu_indices");
}

Tensor tensor(std::initializer_list<float> v, TensorOptions o) {
  return from_values(v.begin(), v.size(), o);
}
Tensor tensor(std::initializer_list<double> v, TensorOptions o) {
  return from_values(v.begin(), v.size(), o);
}
Tensor tensor(std::initializer_list<int64_t> v, TensorOptions o) {
  return from_values(v.begin(), v.size(), o);
}
Tensor tensor(std::initializer_list<bool> v, TensorOptions o) {
  return from_values(v.begin(), v.size(), o);
}
Tensor tensor(std::initializer_list<int> v, TensorOptions o) {
  std::vector<int64_t> wide(v.begin(), v.end());
  return from_values(wide.data(), wide.size(), o);
}
Tensor tensor(const std::vector<float>& v, TensorOptions o) {
  return from_values(v.data(), v.size(), o);
}
Tensor tensor(const std::vector<double>& v, TensorOptions o) {
  return from_values(v.data(), v.size(), o);
}
Tensor tensor(const std::vector<int64_t>& v, TensorOptions o) {
  return from_values(v.data(), v.size(), o);
}

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, TensorOptions options) {
  check_sizes(sizes, "from_blob");
  ACCEL_CHECK(data != nullptr || checked_numel(sizes, "from_blob") == 0, "from_blob",
              "data pointer is null");
  const int64_t extent = storage_extent(sizes, strides, "from_blob");
  auto storage = make_pooled<Storage>(
      data, storage_bytes(extent, options.dtype(), sizes, "from_blob"), options.device(), nullptr);
  auto impl = make_pooled<TensorImpl>(std::move(storage), options.dtype(), sizes, strides, 0);
  return finish(Tensor(std::move(impl)), options);
}

Tensor from_blob(void* data, IntArrayRef sizes, TensorOptions options) {
  return from_blob(data, sizes, contiguous_strides(sizes, "from_blob"), options);
}

Tensor from_blob(void* data, IntArrayRef sizes, std::function<void(void*)> deleter,
                 TensorOptions options) {
  Tensor t = from_blob(data, sizes, options);
  auto storage =
      make_pooled<Storage>(data, t.storage()->nbytes(), options.device(), std::move(deleter));
  t.impl()->storage = std::move(storage);
  return t;
}

}  // namespace accel
