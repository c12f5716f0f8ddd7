// Tensor: a shared handle to a strided, typed view of device memory, with autograd.
// Copying a Tensor copies the handle (like torch::Tensor); ops return new tensors or views.
// Each member op forwards to the free function of the same name in ops.h, where the op's
// semantics are documented once.
#pragma once

#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "accel/base/device.h"
#include "accel/base/error.h"
#include "accel/base/int_array_ref.h"
#include "accel/base/scalar_type.h"
#include "accel/core/scalar.h"
#include "accel/core/tensor_impl.h"
#include "accel/core/tensor_options.h"

namespace accel {

namespace autograd {
class Node;
}
namespace indexing {
class TensorIndex;
}

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  ~Tensor() = default;
  // Assigning to a named Tensor rebinds the handle; assigning to a temporary writes into its
  // elements, as in LibTorch: t[0] = other copies `other` into row 0 (broadcast, converted),
  // t[0][1] = 5 fills one element. (Without this, t[0] = other would rebind a temporary handle
  // and silently change nothing.)
  Tensor& operator=(const Tensor&) & = default;
  Tensor& operator=(Tensor&&) & noexcept = default;
  Tensor& operator=(const Tensor& source) &&;
  Tensor& operator=(const Scalar& value) &&;

  // ---- identity and geometry ----
  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }

  IntArrayRef sizes() const { return checked_impl().sizes; }
  IntArrayRef strides() const { return checked_impl().strides; }
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  int64_t dim() const { return static_cast<int64_t>(checked_impl().sizes.size()); }
  int64_t ndimension() const { return dim(); }
  int64_t numel() const { return checked_impl().numel; }
  int64_t storage_offset() const { return checked_impl().storage_offset; }
  ScalarType dtype() const { return checked_impl().dtype; }
  ScalarType scalar_type() const { return dtype(); }
  Device device() const { return checked_impl().storage->device(); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  TensorOptions options() const { return TensorOptions(dtype()).device(device()); }
  int64_t element_size() const { return accel::element_size(dtype()); }
  int64_t nbytes() const { return numel() * element_size(); }
  bool is_floating_point() const { return accel::is_floating_point(dtype()); }
  bool is_contiguous() const { return checked_impl().is_contiguous; }
  const std::shared_ptr<Storage>& storage() const { return checked_impl().storage; }
  // Bumped by every in-place op on any view of the same storage.
  uint32_t version() const { return storage()->version(); }

  // Address of element 0 of this view: null for a storage without bytes (whose views may still
  // have offsets, as x[1] of a [2, 0] tensor).
  void* data_ptr() const {
    const TensorImpl& impl = checked_impl();
    char* const base = static_cast<char*>(impl.storage->data());
    return base == nullptr ? nullptr : base + impl.storage_offset * element_size();
  }
  template <typename T>
  T* data_ptr() const {
    check_dtype_for_access(scalar_type_of<T>, "data_ptr");
    return static_cast<T*>(data_ptr());
  }
  // The single element's value (any numel()==1 tensor); copies from the device if needed.
  template <typename T>
  T item() const {
    return item().to<T>("item");
  }
  Scalar item() const;

  // ---- autograd ----
  bool requires_grad() const {
    const TensorImpl& impl = checked_impl();
    return impl.requires_grad || impl.grad_fn != nullptr;
  }
  const Tensor& requires_grad_(bool requires_grad = true) const;
  bool is_leaf() const;
  // The accumulated gradient of a leaf (undefined until a backward reaches it).
  const Tensor& grad() const;
  Tensor& mutable_grad();
  void set_grad(const Tensor& grad);
  const std::shared_ptr<autograd::Node>& grad_fn() const;
  uint32_t output_nr() const;
  // Computes gradients of this tensor w.r.t. the leaves that need them. A non-scalar tensor
  // needs `gradient` (same shape). The graph is freed afterwards unless retain_graph.
  void backward(const Tensor& gradient = {}, bool retain_graph = false) const;
  // `hook(grad)` runs when this tensor's gradient is computed; a defined result replaces it.
  void register_hook(TensorHook hook) const;
  // Leaves only: `hook(leaf)` runs after the gradient was accumulated into leaf.grad().
  void register_post_accumulate_grad_hook(PostAccumulateGradHook hook) const;
  // Makes a non-leaf keep its gradient in grad() after backward.
  void retain_grad() const;
  Tensor detach() const;
  const Tensor& detach_() const;

  // ---- conversion and copies ----
  Tensor to(ScalarType dtype, bool copy = false) const;
  Tensor to(Device device, bool non_blocking = false, bool copy = false) const;
  // t.to(kCPU), t.to(kCUDA): the device type alone, as Device(type).
  Tensor to(DeviceType device, bool non_blocking = false, bool copy = false) const {
    return to(Device(device), non_blocking, copy);
  }
  Tensor to(TensorOptions options, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, ScalarType dtype) const;
  Tensor contiguous() const;
  Tensor clone() const;
  Tensor cpu() const { return to(Device(kCPU)); }
  Tensor cuda() const { return to(Device(kCUDA)); }
  // Whether this CPU tensor lives in page-locked memory; a pinned copy of it (itself if so).
  bool is_pinned() const { return storage()->is_pinned(); }
  Tensor pin_memory() const;
  // The memory stays reserved for `stream` until the work queued on it so far is done, even
  // after this tensor dies (torch's record_stream: for tensors used on a side stream).
  void record_stream(const Stream& stream) const { storage()->record_stream(stream); }
  Tensor type_as(const Tensor& other) const { return to(other.dtype()); }

  // ---- arithmetic ----
  Tensor add(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor add(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor sub(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor sub(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor mul(const Tensor& other) const;
  Tensor mul(const Scalar& other) const;
  Tensor div(const Tensor& other) const;
  Tensor div(const Scalar& other) const;
  Tensor pow(const Tensor& exponent) const;
  Tensor pow(const Scalar& exponent) const;
  Tensor neg() const;
  Tensor atan2(const Tensor& other) const;
  Tensor hypot(const Tensor& other) const;
  Tensor logaddexp(const Tensor& other) const;
  Tensor fmod(const Tensor& other) const;
  Tensor fmod(const Scalar& other) const;
  Tensor remainder(const Tensor& other) const;
  Tensor remainder(const Scalar& other) const;
  Tensor floor_divide(const Tensor& other) const;
  Tensor floor_divide(const Scalar& other) const;
  Tensor lerp(const Tensor& end, const Scalar& weight) const;
  Tensor lerp(const Tensor& end, const Tensor& weight) const;
  Tensor addcmul(const Tensor& t1, const Tensor& t2, const Scalar& value = 1) const;
  Tensor addcdiv(const Tensor& t1, const Tensor& t2, const Scalar& value = 1) const;
  Tensor xlogy(const Tensor& other) const;
  Tensor frac() const;
  Tensor deg2rad() const;
  Tensor rad2deg() const;
  Tensor float_power(const Tensor& exponent) const;
  Tensor float_power(const Scalar& exponent) const;
  Tensor logaddexp2(const Tensor& other) const;
  Tensor sinc() const;
  Tensor heaviside(const Tensor& values) const;
  Tensor isclose(const Tensor& other, double rtol = 1e-5, double atol = 1e-8,
                 bool equal_nan = false) const;
  Tensor outer(const Tensor& other) const;
  Tensor matmul(const Tensor& other) const;
  Tensor mm(const Tensor& other) const;
  Tensor bmm(const Tensor& other) const;

  // ---- element-wise math ----
  Tensor exp() const;
  Tensor log() const;
  Tensor sqrt() const;
  Tensor rsqrt() const;
  Tensor abs() const;
  Tensor sin() const;
  Tensor cos() const;
  Tensor tanh() const;
  Tensor sigmoid() const;
  Tensor relu() const;
  Tensor gelu(std::string_view approximate = "none") const;
  Tensor silu() const;
  Tensor log1p() const;
  Tensor expm1() const;
  Tensor erf() const;
  Tensor erfc() const;
  Tensor erfinv() const;
  Tensor lgamma() const;
  Tensor digamma() const;
  Tensor tan() const;
  Tensor asin() const;
  Tensor acos() const;
  Tensor atan() const;
  Tensor sinh() const;
  Tensor cosh() const;
  Tensor asinh() const;
  Tensor acosh() const;
  Tensor atanh() const;
  Tensor log2() const;
  Tensor log10() const;
  Tensor exp2() const;
  Tensor square() const;
  Tensor reciprocal() const;
  Tensor nan_to_num(std::optional<double> nan = 0.0, std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt) const;
  Tensor logit(std::optional<double> eps = std::nullopt) const;
  Tensor floor() const;
  Tensor ceil() const;
  Tensor round() const;
  Tensor trunc() const;
  Tensor sign() const;
  Tensor clamp(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const;
  Tensor clip(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const {
    return clamp(min, max);
  }
  Tensor clamp_min(const Scalar& min) const { return clamp(min, std::nullopt); }
  Tensor clamp_max(const Scalar& max) const { return clamp(std::nullopt, max); }

  // ---- comparisons (results are kBool) and selection ----
  Tensor eq(const Tensor& other) const;
  Tensor eq(const Scalar& other) const;
  Tensor ne(const Tensor& other) const;
  Tensor ne(const Scalar& other) const;
  Tensor lt(const Tensor& other) const;
  Tensor lt(const Scalar& other) const;
  Tensor le(const Tensor& other) const;
  Tensor le(const Scalar& other) const;
  Tensor gt(const Tensor& other) const;
  Tensor gt(const Scalar& other) const;
  Tensor ge(const Tensor& other) const;
  Tensor ge(const Scalar& other) const;
  Tensor masked_fill(const Tensor& mask, const Scalar& value) const;
  Tensor where(const Tensor& condition, const Tensor& other) const;  // condition ? *this : other

  // ---- reductions ----
  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor sum(IntArrayRef dims, bool keepdim = false,
             std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean() const;
  Tensor mean(IntArrayRef dims, bool keepdim = false) const;
  Tensor prod() const;
  Tensor prod(int64_t dim, bool keepdim = false) const;
  Tensor max() const;
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  Tensor min() const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  Tensor amax(IntArrayRef dims = {}, bool keepdim = false) const;
  Tensor amin(IntArrayRef dims = {}, bool keepdim = false) const;
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  // correction 1 is Bessel's (unbiased) estimate, as torch.var's default.
  Tensor var(IntArrayRef dims = {}, int64_t correction = 1, bool keepdim = false) const;
  Tensor std(IntArrayRef dims = {}, int64_t correction = 1, bool keepdim = false) const;
  Tensor nansum(IntArrayRef dims = {}, bool keepdim = false,
                std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor nanmean(IntArrayRef dims = {}, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> aminmax(std::optional<int64_t> dim = std::nullopt,
                                     bool keepdim = false) const;
  Tensor logsumexp(IntArrayRef dims, bool keepdim = false) const;
  Tensor cumsum(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor cumprod(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor logcumsumexp(int64_t dim) const;
  std::tuple<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> sort(std::optional<bool> stable, int64_t dim = -1,
                                  bool descending = false) const;
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true,
                                  bool sorted = true) const;
  Tensor median() const;
  std::tuple<Tensor, Tensor> median(int64_t dim, bool keepdim = false) const;
  Tensor nanmedian() const;
  std::tuple<Tensor, Tensor> nanmedian(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> kthvalue(int64_t k, int64_t dim = -1, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> mode(int64_t dim = -1, bool keepdim = false) const;
  Tensor msort() const;
  Tensor quantile(double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                  std::string_view interpolation = "linear") const;
  Tensor quantile(const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                  std::string_view interpolation = "linear") const;
  Tensor nanquantile(double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                     std::string_view interpolation = "linear") const;
  Tensor nanquantile(const Tensor& q, std::optional<int64_t> dim = std::nullopt,
                     bool keepdim = false, std::string_view interpolation = "linear") const;
  Tensor bincount(const Tensor& weights = {}, int64_t minlength = 0) const;
  Tensor histc(int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0) const;
  Tensor count_nonzero(IntArrayRef dims = {}) const;
  std::tuple<Tensor, Tensor, Tensor> unique(bool sorted = true, bool return_inverse = false,
                                            bool return_counts = false,
                                            std::optional<int64_t> dim = std::nullopt) const;
  std::tuple<Tensor, Tensor, Tensor> unique_consecutive(
      bool return_inverse = false, bool return_counts = false,
      std::optional<int64_t> dim = std::nullopt) const;
  Tensor softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor log_softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;

  // ---- linear algebra (core/linalg.h) ----
  Tensor inverse() const;
  Tensor det() const;
  Tensor logdet() const;
  std::tuple<Tensor, Tensor> slogdet() const;
  Tensor cholesky_solve(const Tensor& l, bool upper = false) const;  // *this is B
  Tensor cholesky_inverse(bool upper = false) const;                 // *this is the factor
  Tensor pinverse(double rcond = 1e-15) const;
  Tensor matrix_power(int64_t n) const;
  Tensor matrix_exp() const;

  // ---- views and shape ----
  Tensor view(IntArrayRef sizes) const;
  Tensor reshape(IntArrayRef sizes) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor unflatten(int64_t dim, IntArrayRef sizes) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor permute(IntArrayRef dims) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor movedim(IntArrayRef source, IntArrayRef destination) const;
  Tensor movedim(int64_t source, int64_t destination) const;
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Tensor diag_embed(int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1) const;
  Tensor diag(int64_t diagonal = 0) const;
  Tensor trace() const;
  Tensor roll(IntArrayRef shifts, IntArrayRef dims = {}) const;
  Tensor tile(IntArrayRef reps) const;
  Tensor broadcast_to(IntArrayRef sizes) const;
  Tensor t() const;
  Tensor expand(IntArrayRef sizes) const;
  Tensor expand_as(const Tensor& other) const { return expand(other.sizes()); }
  Tensor view_as(const Tensor& other) const { return view(other.sizes()); }
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor slice(int64_t dim, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor operator[](int64_t index) const { return select(0, index); }
  Tensor index_select(int64_t dim, const Tensor& index) const;
  // x.index({Slice(), 0}), x.index({mask}), x.index_put_({idx}, v): core/indexing.h.
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor index(const std::vector<indexing::TensorIndex>& indices) const;
  const Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices,
                           const Tensor& value, bool accumulate = false) const;
  const Tensor& index_put_(const std::vector<indexing::TensorIndex>& indices, const Tensor& value,
                           bool accumulate = false) const;
  const Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices,
                           const Scalar& value) const;
  const Tensor& index_put_(const std::vector<indexing::TensorIndex>& indices,
                           const Scalar& value) const;
  Tensor masked_select(const Tensor& mask) const;
  Tensor nonzero() const;
  Tensor flip(IntArrayRef dims) const;
  Tensor fliplr() const;
  Tensor flipud() const;
  Tensor rot90(int64_t k = 1, IntArrayRef dims = {0, 1}) const;
  Tensor diff(int64_t n = 1, int64_t dim = -1, const Tensor& prepend = {},
              const Tensor& append = {}) const;
  Tensor argwhere() const;
  Tensor kron(const Tensor& other) const;
  Tensor cov(int64_t correction = 1, const Tensor& fweights = {},
             const Tensor& aweights = {}) const;
  Tensor corrcoef() const;
  Tensor repeat(IntArrayRef repeats) const;
  Tensor tril(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;
  Tensor norm(const Scalar& p = 2) const;
  Tensor norm(const Scalar& p, IntArrayRef dims, bool keepdim = false) const;
  Tensor dot(const Tensor& other) const;
  Tensor logical_not() const;
  Tensor isnan() const;
  Tensor isinf() const;
  Tensor isfinite() const;
  Tensor any() const;
  Tensor any(int64_t dim, bool keepdim = false) const;
  Tensor all() const;
  Tensor all(int64_t dim, bool keepdim = false) const;
  Tensor gather(int64_t dim, const Tensor& index) const;
  Tensor take_along_dim(const Tensor& indices, std::optional<int64_t> dim = std::nullopt) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src,
                        std::string_view reduce, bool include_self = true) const;
  Tensor index_add(int64_t dim, const Tensor& index, const Tensor& source,
                   const Scalar& alpha = 1) const;
  Tensor index_copy(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor index_fill(int64_t dim, const Tensor& index, const Scalar& value) const;
  // In place: self becomes the out-of-place result (core/ops/scatter.cpp).
  const Tensor& scatter_(int64_t dim, const Tensor& index, const Tensor& src) const;
  const Tensor& scatter_(int64_t dim, const Tensor& index, const Scalar& value) const;
  const Tensor& scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const;
  const Tensor& scatter_reduce_(int64_t dim, const Tensor& index, const Tensor& src,
                                std::string_view reduce, bool include_self = true) const;
  const Tensor& index_add_(int64_t dim, const Tensor& index, const Tensor& source,
                           const Scalar& alpha = 1) const;
  const Tensor& index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const;
  const Tensor& index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;

  // ---- in place (bump the version counter; the result is *this) ----
  const Tensor& add_(const Tensor& other, const Scalar& alpha = 1) const;
  const Tensor& add_(const Scalar& other, const Scalar& alpha = 1) const;
  const Tensor& sub_(const Tensor& other, const Scalar& alpha = 1) const;
  const Tensor& sub_(const Scalar& other, const Scalar& alpha = 1) const;
  const Tensor& mul_(const Tensor& other) const;
  const Tensor& mul_(const Scalar& other) const;
  const Tensor& div_(const Tensor& other) const;
  const Tensor& div_(const Scalar& other) const;
  const Tensor& zero_() const;
  const Tensor& fill_(const Scalar& value) const;
  const Tensor& copy_(const Tensor& src, bool non_blocking = false) const;
  const Tensor& clamp_(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const;

  // ---- comparison of whole tensors ----
  bool allclose(const Tensor& other, double rtol = 1e-5, double atol = 1e-8,
                bool equal_nan = false) const;
  bool equal(const Tensor& other) const;

  std::string toString() const;  // "CPUFloatType{2,3}"-style summary, as LibTorch

 private:
  const TensorImpl& checked_impl() const {
    if (!impl_) [[unlikely]]
      fail_undefined();
    return *impl_;
  }
  [[noreturn]] static void fail_undefined();
  void check_dtype_for_access(ScalarType requested, const char* op) const;

  std::shared_ptr<TensorImpl> impl_;
};

// A non-owning list of tensors (LibTorch's TensorList): accepts braced lists, vectors, arrays
// and spans, so cat({a, b}) reads as in LibTorch.
class TensorList {
 public:
  TensorList() = default;
#pragma GCC diagnostic push
#ifndef __clang__  // GCC's warning only; clang has none like it
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  // The list lives until the end of the full expression, as long as the call using it.
  TensorList(std::initializer_list<Tensor> list) : data_(list.begin()), size_(list.size()) {}
#pragma GCC diagnostic pop
  TensorList(const std::vector<Tensor>& v) : data_(v.data()), size_(v.size()) {}
  TensorList(std::span<const Tensor> s) : data_(s.data()), size_(s.size()) {}
  template <size_t N>
  TensorList(const Tensor (&array)[N]) : data_(array), size_(N) {}
  TensorList(const Tensor& single) : data_(&single), size_(1) {}

  const Tensor* begin() const { return data_; }
  const Tensor* end() const { return data_ + size_; }
  const Tensor* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Tensor& operator[](size_t i) const { return data_[i]; }

 private:
  const Tensor* data_ = nullptr;
  size_t size_ = 0;
};

// The autograd state only some tensors need: accumulated gradients, hooks.
struct AutogradMeta {
  Tensor grad;                                       // leaves (and retain_grad non-leaves)
  std::shared_ptr<autograd::Node> grad_accumulator;  // leaves: where their gradients sink
  std::vector<TensorHook> hooks;                     // leaves: run before accumulation
  std::vector<PostAccumulateGradHook> post_accumulate_hooks;
  bool retains_grad = false;
};

std::ostream& operator<<(std::ostream& out, const Tensor& t);

// Operators (same semantics as the named ops; comparisons return kBool tensors).
// Bool tensors only: ~mask, a & b, a | b, a ^ b (the logical ops; any dtype: ops.h).
Tensor operator~(const Tensor& a);
Tensor operator&(const Tensor& a, const Tensor& b);
Tensor operator|(const Tensor& a, const Tensor& b);
Tensor operator^(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, const Scalar& b);
Tensor operator+(const Scalar& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Scalar& b);
Tensor operator-(const Scalar& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Scalar& b);
Tensor operator*(const Scalar& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Scalar& b);
Tensor operator/(const Scalar& a, const Tensor& b);
Tensor operator-(const Tensor& a);
Tensor operator==(const Tensor& a, const Tensor& b);
Tensor operator==(const Tensor& a, const Scalar& b);
Tensor operator!=(const Tensor& a, const Tensor& b);
Tensor operator!=(const Tensor& a, const Scalar& b);
Tensor operator<(const Tensor& a, const Tensor& b);
Tensor operator<(const Tensor& a, const Scalar& b);
Tensor operator<=(const Tensor& a, const Tensor& b);
Tensor operator<=(const Tensor& a, const Scalar& b);
Tensor operator>(const Tensor& a, const Tensor& b);
Tensor operator>(const Tensor& a, const Scalar& b);
Tensor operator>=(const Tensor& a, const Tensor& b);
Tensor operator>=(const Tensor& a, const Scalar& b);
Tensor& operator+=(Tensor& a, const Tensor& b);
Tensor& operator+=(Tensor& a, const Scalar& b);
Tensor& operator-=(Tensor& a, const Tensor& b);
Tensor& operator-=(Tensor& a, const Scalar& b);
Tensor& operator*=(Tensor& a, const Tensor& b);
Tensor& operator*=(Tensor& a, const Scalar& b);
Tensor& operator/=(Tensor& a, const Tensor& b);
Tensor& operator/=(Tensor& a, const Scalar& b);

// Wraps a dimension index that may be negative (-1 is the last) into [0, ndim), or throws
// naming `op`. ndim 0 accepts dims -1 and 0, as PyTorch does for scalars.
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op);

}  // namespace accel
