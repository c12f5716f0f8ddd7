// The tensor ops as free functions (torch::add, torch::matmul, ...). Semantics are PyTorch's:
// broadcasting, type promotion (a C++ number promotes by category only), negative dims,
// gradients at kinks and ties. Every op checks its arguments and throws accel::Error naming
// itself and the offending shapes, dtypes or indices. Differentiable ops record autograd
// nodes when grad mode is on and an input requires grad.
#pragma once

#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "accel/core/tensor.h"

namespace accel {

// ---- arithmetic (ops/binary.cpp) ----
Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha = 1);  // a + alpha * b
Tensor add(const Tensor& a, const Scalar& b, const Scalar& alpha = 1);
Tensor sub(const Tensor& a, const Tensor& b, const Scalar& alpha = 1);  // a - alpha * b
Tensor sub(const Tensor& a, const Scalar& b, const Scalar& alpha = 1);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Scalar& b);
Tensor div(const Tensor& a, const Tensor& b);  // true division: integers give floats
Tensor div(const Tensor& a, const Scalar& b);
Tensor pow(const Tensor& base, const Tensor& exponent);
Tensor pow(const Tensor& base, const Scalar& exponent);
Tensor pow(const Scalar& base, const Tensor& exponent);
Tensor maximum(const Tensor& a, const Tensor& b);
Tensor minimum(const Tensor& a, const Tensor& b);
Tensor neg(const Tensor& a);
// ---- (ops/binary_functions.cpp) ----
Tensor atan2(const Tensor& a, const Tensor& b);      // the angle of the point (b, a)
Tensor hypot(const Tensor& a, const Tensor& b);      // sqrt(a^2 + b^2) without overflow
Tensor logaddexp(const Tensor& a, const Tensor& b);  // log(exp(a) + exp(b)) without overflow
// The remainder of a / b with a's sign (truncated division, C's fmod)...
Tensor fmod(const Tensor& a, const Tensor& b);
Tensor fmod(const Tensor& a, const Scalar& b);
// ... and with b's sign (floored division, Python's %).
Tensor remainder(const Tensor& a, const Tensor& b);
Tensor remainder(const Tensor& a, const Scalar& b);
// floor(a / b), integers staying integers; not differentiable.
Tensor floor_divide(const Tensor& a, const Tensor& b);
Tensor floor_divide(const Tensor& a, const Scalar& b);

// ---- composed element-wise math (ops/pointwise_composites.cpp) ----
// start + weight * (end - start), computed as end - (end - start) * (1 - weight) where
// weight >= 0.5 (PyTorch's form, exact at weight 1).
Tensor lerp(const Tensor& start, const Tensor& end, const Scalar& weight);
Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight);
Tensor addcmul(const Tensor& a, const Tensor& t1, const Tensor& t2, const Scalar& value = 1);
Tensor addcdiv(const Tensor& a, const Tensor& t1, const Tensor& t2, const Scalar& value = 1);
Tensor square(const Tensor& a);
Tensor reciprocal(const Tensor& a);  // integers give the default float type
// NaN, +inf and -inf replaced by `nan` and by posinf / neginf (default: the dtype's largest and
// lowest finite values); integer inputs are copied. The gradient is zero where replaced.
Tensor nan_to_num(const Tensor& a, std::optional<double> nan = 0.0,
                  std::optional<double> posinf = std::nullopt,
                  std::optional<double> neginf = std::nullopt);
// log(p / (1 - p)), p clamped to [eps, 1 - eps] when eps is given.
Tensor logit(const Tensor& a, std::optional<double> eps = std::nullopt);
// x * log(y), 0 where x == 0 (unless y is NaN).
Tensor xlogy(const Tensor& x, const Tensor& y);
// a - trunc(a), with a's sign; floating inputs.
Tensor frac(const Tensor& a);
// Angles converted between degrees and radians; integers give the default float type.
Tensor deg2rad(const Tensor& a);
Tensor rad2deg(const Tensor& a);
// pow computed in float64 whatever the operands' types (the result is float64).
Tensor float_power(const Tensor& base, const Tensor& exponent);
Tensor float_power(const Tensor& base, const Scalar& exponent);
// log2(2^a + 2^b) without overflow; floating inputs.
Tensor logaddexp2(const Tensor& a, const Tensor& b);
// sin(pi a) / (pi a), 1 at 0 (where its gradient is 0).
Tensor sinc(const Tensor& a);
// The step function: 0 below 0, 1 above, `values` at 0 (broadcast; a's dtype); not
// differentiable, so the result never requires grad.
Tensor heaviside(const Tensor& a, const Tensor& values);
// Element-wise allclose, as a bool tensor of the broadcast shape: equal values (infinities
// included) are close, and NaNs with equal_nan; otherwise |a - b| must be finite and at most
// atol + rtol * |b|. a and b must have one dtype; integers are compared in the default float
// type.
Tensor isclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8,
               bool equal_nan = false);

// ---- element-wise math (ops/unary.cpp): integer inputs give the default float type ----
Tensor exp(const Tensor& a);
Tensor log(const Tensor& a);
Tensor sqrt(const Tensor& a);
Tensor rsqrt(const Tensor& a);
Tensor abs(const Tensor& a);
Tensor sin(const Tensor& a);
Tensor cos(const Tensor& a);
Tensor tanh(const Tensor& a);
Tensor sigmoid(const Tensor& a);
Tensor relu(const Tensor& a);
Tensor gelu(const Tensor& a, std::string_view approximate = "none");  // "none" | "tanh"
Tensor silu(const Tensor& a);
Tensor log1p(const Tensor& a);
Tensor expm1(const Tensor& a);
Tensor erf(const Tensor& a);
Tensor erfc(const Tensor& a);
Tensor erfinv(const Tensor& a);   // the inverse of erf: +-inf at +-1, NaN beyond
Tensor lgamma(const Tensor& a);   // log(|gamma(a)|)
Tensor digamma(const Tensor& a);  // d/da lgamma(a): NaN at the negative integers
Tensor tan(const Tensor& a);
Tensor asin(const Tensor& a);
Tensor acos(const Tensor& a);
Tensor atan(const Tensor& a);
Tensor sinh(const Tensor& a);
Tensor cosh(const Tensor& a);
Tensor asinh(const Tensor& a);
Tensor acosh(const Tensor& a);
Tensor atanh(const Tensor& a);
Tensor log2(const Tensor& a);
Tensor log10(const Tensor& a);
Tensor exp2(const Tensor& a);
// Rounding and sign keep integer types (rounding passes them through); zero gradients.
Tensor floor(const Tensor& a);
Tensor ceil(const Tensor& a);
Tensor round(const Tensor& a);  // halves to even
Tensor trunc(const Tensor& a);
Tensor sign(const Tensor& a);
Tensor clamp(const Tensor& a, std::optional<Scalar> min, std::optional<Scalar> max);
Tensor clip(const Tensor& a, std::optional<Scalar> min, std::optional<Scalar> max);  // clamp

// ---- comparisons and selection (ops/compare.cpp) ----
Tensor eq(const Tensor& a, const Tensor& b);
Tensor eq(const Tensor& a, const Scalar& b);
Tensor ne(const Tensor& a, const Tensor& b);
Tensor ne(const Tensor& a, const Scalar& b);
Tensor lt(const Tensor& a, const Tensor& b);
Tensor lt(const Tensor& a, const Scalar& b);
Tensor le(const Tensor& a, const Tensor& b);
Tensor le(const Tensor& a, const Scalar& b);
Tensor gt(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, const Scalar& b);
Tensor ge(const Tensor& a, const Tensor& b);
Tensor ge(const Tensor& a, const Scalar& b);
Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b);
Tensor where(const Tensor& condition, const Tensor& a, const Scalar& b);
Tensor where(const Tensor& condition, const Scalar& a, const Tensor& b);
Tensor masked_fill(const Tensor& a, const Tensor& mask, const Scalar& value);
// ---- logical ops (ops/logical.cpp): any dtype, nonzero is true; results are bool ----
Tensor logical_not(const Tensor& a);
Tensor logical_and(const Tensor& a, const Tensor& b);
Tensor logical_or(const Tensor& a, const Tensor& b);
Tensor logical_xor(const Tensor& a, const Tensor& b);
Tensor isnan(const Tensor& a);
Tensor isinf(const Tensor& a);
Tensor isfinite(const Tensor& a);
Tensor any(const Tensor& a);
Tensor any(const Tensor& a, int64_t dim, bool keepdim = false);
Tensor all(const Tensor& a);
Tensor all(const Tensor& a, int64_t dim, bool keepdim = false);
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8,
              bool equal_nan = false);
bool equal(const Tensor& a, const Tensor& b);  // same sizes and the same values

// ---- reductions (ops/reduce.cpp). Empty dims means all dims. ----
Tensor sum(const Tensor& a, std::optional<ScalarType> dtype = std::nullopt);
Tensor sum(const Tensor& a, IntArrayRef dims, bool keepdim = false,
           std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor& a);
Tensor mean(const Tensor& a, IntArrayRef dims, bool keepdim = false);
Tensor prod(const Tensor& a);
Tensor prod(const Tensor& a, int64_t dim, bool keepdim = false);
Tensor max(const Tensor& a);
std::tuple<Tensor, Tensor> max(const Tensor& a, int64_t dim, bool keepdim = false);
Tensor min(const Tensor& a);
std::tuple<Tensor, Tensor> min(const Tensor& a, int64_t dim, bool keepdim = false);
Tensor amax(const Tensor& a, IntArrayRef dims = {}, bool keepdim = false);
Tensor amin(const Tensor& a, IntArrayRef dims = {}, bool keepdim = false);
Tensor argmax(const Tensor& a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor var(const Tensor& a, IntArrayRef dims = {}, int64_t correction = 1, bool keepdim = false);
Tensor std(const Tensor& a, IntArrayRef dims = {}, int64_t correction = 1, bool keepdim = false);
Tensor logsumexp(const Tensor& a, IntArrayRef dims, bool keepdim = false);
Tensor softmax(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
// ---- reductions composed of reductions (ops/reduce_composites.cpp) ----
// sum and mean leaving NaN out (nanmean: floating inputs; NaN where every element is NaN).
Tensor nansum(const Tensor& a, IntArrayRef dims = {}, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt);
Tensor nanmean(const Tensor& a, IntArrayRef dims = {}, bool keepdim = false);
// (var, mean) and (std, mean) over dims in one call.
std::tuple<Tensor, Tensor> var_mean(const Tensor& a, IntArrayRef dims = {}, int64_t correction = 1,
                                    bool keepdim = false);
std::tuple<Tensor, Tensor> std_mean(const Tensor& a, IntArrayRef dims = {}, int64_t correction = 1,
                                    bool keepdim = false);
// (amin, amax) over dim, or over all elements.
std::tuple<Tensor, Tensor> aminmax(const Tensor& a, std::optional<int64_t> dim = std::nullopt,
                                   bool keepdim = false);

// ---- along one dim (ops/cumulative.cpp, ops/sort.cpp) ----
// Running sums and products along dim; integer and bool inputs run in int64 unless `dtype`
// says otherwise (the input is converted to it first).
Tensor cumsum(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor cumprod(const Tensor& a, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
// log(cumsum(exp(a))) without overflow; floating inputs only.
Tensor logcumsumexp(const Tensor& a, int64_t dim);
// The running maximum (minimum) along dim and, for each, the position of the element it came
// from (the last of equal ones; a NaN, once met, stays, from its first position).
std::tuple<Tensor, Tensor> cummax(const Tensor& a, int64_t dim);
std::tuple<Tensor, Tensor> cummin(const Tensor& a, int64_t dim);
// The values along dim in ascending (or descending) order and the int64 indices they came
// from. NaN orders above every number; the sort is always stable (equal elements keep their
// order), so the `stable` overload exists for LibTorch's signature only.
std::tuple<Tensor, Tensor> sort(const Tensor& a, int64_t dim = -1, bool descending = false);
std::tuple<Tensor, Tensor> sort(const Tensor& a, std::optional<bool> stable, int64_t dim = -1,
                                bool descending = false);
Tensor argsort(const Tensor& a, int64_t dim = -1, bool descending = false);
// The k largest (or smallest) values along dim and their indices, in sorted order whatever
// `sorted` says; equal values come in order of index.
std::tuple<Tensor, Tensor> topk(const Tensor& a, int64_t k, int64_t dim = -1, bool largest = true,
                                bool sorted = true);

// ---- order statistics (ops/order_statistics.cpp, ops/quantile.cpp) ----
// Ranks come from a stable sort (NaN above every number): equal values rank in order of index,
// and an index returned is that of the element at the selected rank. Selecting from an empty dim
// is an error.
// The median of all elements (the lower of the two middle ones for an even count; NaN when any
// is NaN) as a 0-dim tensor; its gradient is shared evenly among the elements equal to it.
Tensor median(const Tensor& a);
// The median along dim and its int64 index (a row with NaN gives its first NaN); the gradient
// goes to that index.
std::tuple<Tensor, Tensor> median(const Tensor& a, int64_t dim, bool keepdim = false);
// median ignoring NaN: the median of the other elements, NaN only where all are NaN.
Tensor nanmedian(const Tensor& a);
std::tuple<Tensor, Tensor> nanmedian(const Tensor& a, int64_t dim, bool keepdim = false);
// The k-th smallest value along dim (k from 1) and its int64 index (among equal values, PyTorch's
// CPU quickselect may name another of them).
std::tuple<Tensor, Tensor> kthvalue(const Tensor& a, int64_t k, int64_t dim = -1,
                                    bool keepdim = false);
// The most frequent value along dim (the smallest of equally frequent ones) and the index of
// its last occurrence; each NaN counts once, as NaN equals nothing.
std::tuple<Tensor, Tensor> mode(const Tensor& a, int64_t dim = -1, bool keepdim = false);
// a sorted along dim 0 (values only).
Tensor msort(const Tensor& a);
// The q-th quantiles along dim (of all elements, flattened, without dim) of a float32 or float64
// tensor, interpolating between the two nearest ranks by `interpolation`: "linear", "lower",
// "higher", "midpoint" or "nearest" (halves to even). q in [0, 1]: a number, or a 0-dim or 1-D
// tensor of a's dtype (1-D adds a leading dim of q's size). A NaN in a row gives NaN (quantile)
// or is left out (nanquantile; NaN when all are). Differentiable in a and, with "linear", q.
Tensor quantile(const Tensor& a, double q, std::optional<int64_t> dim = std::nullopt,
                bool keepdim = false, std::string_view interpolation = "linear");
Tensor quantile(const Tensor& a, const Tensor& q, std::optional<int64_t> dim = std::nullopt,
                bool keepdim = false, std::string_view interpolation = "linear");
Tensor nanquantile(const Tensor& a, double q, std::optional<int64_t> dim = std::nullopt,
                   bool keepdim = false, std::string_view interpolation = "linear");
Tensor nanquantile(const Tensor& a, const Tensor& q, std::optional<int64_t> dim = std::nullopt,
                   bool keepdim = false, std::string_view interpolation = "linear");

// ---- statistics over pairs (ops/pairwise_statistics.cpp) ----
// The p-norm distance of every row of x1 [..., P, M] to every row of x2 [..., R, M] (batch
// dims broadcast): [..., P, R]. For p = 2, compute_mode 0 or unset computes by products when P
// or R exceeds 25 (faster, less accurate for near points), 1 always, 2 never (as LibTorch).
Tensor cdist(const Tensor& x1, const Tensor& x2, double p = 2,
             std::optional<int64_t> compute_mode = std::nullopt);
// The covariance matrix of the variables (rows; a 1-D input is one variable) over the
// observations (columns), with integer frequency weights and floating observation weights as
// torch.cov; a single variable gives a 0-dim tensor.
Tensor cov(const Tensor& a, int64_t correction = 1, const Tensor& fweights = {},
           const Tensor& aweights = {});
// Pearson's correlation coefficients: cov normalized by the standard deviations, clamped to
// [-1, 1].
Tensor corrcoef(const Tensor& a);

// ---- counting and searching (ops/counting.cpp, ops/search_sorted.cpp, ops/unique.cpp,
// ops/isin.cpp). Their results carry no gradient. ----
// The number of occurrences of each value 0..max(input) of a 1-D non-negative integer tensor
// (at least minlength bins), int64; with 1-D weights of input's length, the sum of the weights
// landing in each bin instead: float32 for float32 weights, float64 for any other dtype.
Tensor bincount(const Tensor& input, const Tensor& weights = {}, int64_t minlength = 0);
// A histogram of a floating tensor's elements in `bins` equal-width bins over [min, max] (the
// elements' own min and max when min == max, widened by 1 each way if still equal), in input's
// dtype; elements outside the range are ignored and max itself goes in the last bin.
Tensor histc(const Tensor& input, int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0);
// The number of nonzero elements over dims (all dims when empty), int64.
Tensor count_nonzero(const Tensor& input, IntArrayRef dims = {});
// For each value, the index in the last dim of sorted_sequence where inserting it keeps the
// order: the first such index (side "left") or the last ("right", or right = true). A 1-D
// sequence serves values of any shape; otherwise the sequence and the values share all but their
// last dim. sorter, int64 of the sequence's shape, gives the order of an unsorted sequence (as
// argsort would). Int64 positions, or int32 with out_int32; a NaN value goes past the end.
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, bool out_int32 = false,
                    bool right = false, std::optional<std::string_view> side = std::nullopt,
                    const Tensor& sorter = {});
Tensor searchsorted(const Tensor& sorted_sequence, const Scalar& value, bool out_int32 = false,
                    bool right = false, std::optional<std::string_view> side = std::nullopt,
                    const Tensor& sorter = {});
// The bucket of each input element among 1-D sorted boundaries: searchsorted(boundaries, input).
Tensor bucketize(const Tensor& input, const Tensor& boundaries, bool out_int32 = false,
                 bool right = false);
Tensor bucketize(const Scalar& input, const Tensor& boundaries, bool out_int32 = false,
                 bool right = false);
// The distinct elements of input in ascending order, 1-D (or, with dim, the distinct slices
// along dim, in lexicographic order), each NaN distinct; the inverse (the index of each
// element's or slice's unique one, input's shape or input.size(dim)) and the counts, int64 and
// empty unless asked for. The result is sorted whatever `sorted` says.
std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& input, bool sorted = true,
                                          bool return_inverse = false, bool return_counts = false,
                                          std::optional<int64_t> dim = std::nullopt);
// unique over runs of equal consecutive elements (or slices along dim) only, in input's order.
std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& input,
                                                      bool return_inverse = false,
                                                      bool return_counts = false,
                                                      std::optional<int64_t> dim = std::nullopt);
// Whether each element equals one of test_elements (a bool tensor of elements' shape; NaN is in
// nothing), or does not with invert. assume_unique changes nothing but is accepted.
Tensor isin(const Tensor& elements, const Tensor& test_elements, bool assume_unique = false,
            bool invert = false);
Tensor isin(const Tensor& elements, const Scalar& test_element, bool assume_unique = false,
            bool invert = false);
Tensor isin(const Scalar& element, const Tensor& test_elements, bool assume_unique = false,
            bool invert = false);

// ---- norms (ops/norm.cpp) ----
// The p-norm over `dims` (all dims when empty): p = 2 by default, also 1, 0 (the count of
// nonzeros), inf, -inf and any other real p. Floating inputs.
Tensor norm(const Tensor& a, const Scalar& p = 2);
Tensor norm(const Tensor& a, const Scalar& p, IntArrayRef dims, bool keepdim = false);

// ---- matrix products (ops/matmul.cpp) ----
Tensor dot(const Tensor& a, const Tensor& b);     // two 1-D tensors of one dtype
Tensor matmul(const Tensor& a, const Tensor& b);  // 1-D, 2-D, batched and broadcast cases
Tensor mm(const Tensor& a, const Tensor& b);      // [n,k] x [k,m]
Tensor bmm(const Tensor& a, const Tensor& b);     // [b,n,k] x [b,k,m]
// ---- composed products (ops/products.cpp, ops/einsum.cpp) ----
Tensor outer(const Tensor& a, const Tensor& b);  // two 1-D tensors: [n] x [m] -> [n, m]
// The Kronecker product: for each dim (the fewer-dim operand padded with leading ones), a's
// element i scales a copy of b at block i; sizes multiply.
Tensor kron(const Tensor& a, const Tensor& b);
// beta * a + alpha * (m1 @ m2) for [n,k] x [k,m] (addmm) or [b,n,k] x [b,k,m] (baddbmm); a
// broadcasts to the product's shape and is ignored (NaN included) when beta is 0.
Tensor addmm(const Tensor& a, const Tensor& m1, const Tensor& m2, const Scalar& beta = 1,
             const Scalar& alpha = 1);
Tensor baddbmm(const Tensor& a, const Tensor& b1, const Tensor& b2, const Scalar& beta = 1,
               const Scalar& alpha = 1);
// Contracts the last `dims` dims of a with the first `dims` of b, or dims_a[i] with dims_b[i].
Tensor tensordot(const Tensor& a, const Tensor& b, int64_t dims = 2);
Tensor tensordot(const Tensor& a, const Tensor& b, IntArrayRef dims_a, IntArrayRef dims_b);
// The cross product of 3-vectors along dim (size 3), a and b broadcast (torch.linalg.cross).
Tensor cross(const Tensor& a, const Tensor& b, int64_t dim = -1);
// Einstein summation, as torch.einsum: "ij,jk->ik", "bij,bjk", "ii->i", "...ij->...ji"; without
// "->" the output holds the letters seen once, in alphabetical order, after any "...". Letters
// of size 1 broadcast. Contracted pairwise, left to right, through bmm.
Tensor einsum(std::string_view equation, TensorList operands);

// ---- views and shape (ops/view.cpp, ops/join.cpp) ----
Tensor view(const Tensor& a, IntArrayRef sizes);
Tensor reshape(const Tensor& a, IntArrayRef sizes);
Tensor flatten(const Tensor& a, int64_t start_dim = 0, int64_t end_dim = -1);
// Splits dim into `sizes` (one of which may be -1, inferred), a view when a's strides allow.
Tensor unflatten(const Tensor& a, int64_t dim, IntArrayRef sizes);
Tensor squeeze(const Tensor& a);
Tensor squeeze(const Tensor& a, int64_t dim);
Tensor unsqueeze(const Tensor& a, int64_t dim);
Tensor permute(const Tensor& a, IntArrayRef dims);
Tensor transpose(const Tensor& a, int64_t dim0, int64_t dim1);
Tensor t(const Tensor& a);
Tensor expand(const Tensor& a, IntArrayRef sizes);
Tensor broadcast_to(const Tensor& a, IntArrayRef sizes);  // expand
// Moves dims `source` to positions `destination`, the others keeping their order (a view).
Tensor movedim(const Tensor& a, IntArrayRef source, IntArrayRef destination);
Tensor movedim(const Tensor& a, int64_t source, int64_t destination);
// The diagonal `offset` (> 0 above the main one) of the dims dim1 and dim2, as a view whose
// last dim runs along it (those two dims removed).
Tensor diagonal(const Tensor& a, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1);
Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor& a, int64_t dim, std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt, int64_t step = 1);
Tensor select(const Tensor& a, int64_t dim, int64_t index);
Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index);
Tensor gather(const Tensor& a, int64_t dim, const Tensor& index);
// a with src's elements written into (scatter) or added to (scatter_add) the positions the
// index names along dim: out[..., index[i..., j, ...k], ...] = src[i..., j, ...k] for dim's
// coordinate j. Where positions repeat, the last element in row-major order wins (scatter) or
// all add up, in the same order on every device.
Tensor scatter(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter(const Tensor& a, int64_t dim, const Tensor& index, const Scalar& value);
Tensor scatter_add(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& src);
// scatter's positions with src's elements reduced into them: reduce "sum", "prod", "mean"
// (integers: floor division), "amax" or "amin", over a's own element too (include_self) or
// over the elements landing there only.
Tensor scatter_reduce(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& src,
                      std::string_view reduce, bool include_self = true);
// a with alpha * source's slices along dim added to (index_add) or written into (index_copy;
// the indices must then differ) the slices the 1-D index names, or those slices filled with a
// value (index_fill).
Tensor index_add(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha = 1);
Tensor index_copy(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source);
Tensor index_fill(const Tensor& a, int64_t dim, const Tensor& index, const Scalar& value);
// The coordinates of a's nonzero elements, [count, a.dim()] int64 in row-major order (computed
// on the host: the count decides the shape). Tensor::index and index_put_: core/indexing.h.
Tensor nonzero(const Tensor& a);
Tensor argwhere(const Tensor& a);  // nonzero
// gather with the dims other than `dim` broadcast between a and indices (int64, as many dims);
// without dim, both are flattened first.
Tensor take_along_dim(const Tensor& a, const Tensor& indices,
                      std::optional<int64_t> dim = std::nullopt);
// a's elements where mask (bool, broadcast with a) is true, as a 1-D tensor.
Tensor masked_select(const Tensor& a, const Tensor& mask);
Tensor cat(TensorList tensors, int64_t dim = 0);
Tensor stack(TensorList tensors, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& a, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& a, IntArrayRef split_sizes, int64_t dim = 0);
std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim = 0);
std::vector<Tensor> unbind(const Tensor& a, int64_t dim = 0);
// ---- joining by shape (ops/stacking.cpp) ----
// Views with dims of size 1 added up to 1, 2 or 3 dims: [] -> [1], [1, 1], [1, 1, 1];
// [n] -> [1, n] and [1, n, 1]; [m, n] -> [m, n, 1].
Tensor atleast_1d(const Tensor& a);
Tensor atleast_2d(const Tensor& a);
Tensor atleast_3d(const Tensor& a);
std::vector<Tensor> atleast_1d(TensorList tensors);
std::vector<Tensor> atleast_2d(TensorList tensors);
std::vector<Tensor> atleast_3d(TensorList tensors);
// cat along dim 1 (dim 0 for 1-D tensors), 0 and 2 after atleast_1d, _2d and _3d.
Tensor hstack(TensorList tensors);
Tensor vstack(TensorList tensors);
Tensor dstack(TensorList tensors);
// cat along dim 1, 0-D and 1-D tensors taken as columns.
Tensor column_stack(TensorList tensors);
// A block-diagonal matrix of the (at most 2-D) tensors, zeros elsewhere; the promoted dtype.
Tensor block_diag(TensorList tensors);
// Every combination of the 1-D tensors' elements, one per row, the last varying fastest.
Tensor cartesian_prod(TensorList tensors);
// ---- rearrangements (ops/arrange.cpp) ----
Tensor flip(const Tensor& a, IntArrayRef dims);
Tensor fliplr(const Tensor& a);  // flip dim 1 (at least 2 dims)
Tensor flipud(const Tensor& a);  // flip dim 0
// k quarter turns in the plane of dims, from the first towards the second (k < 0: back).
Tensor rot90(const Tensor& a, int64_t k = 1, IntArrayRef dims = {0, 1});
// The n-th differences of neighbours along dim (out[i] = in[i + 1] - in[i], n times), with
// prepend and append (same dims as a) joined on first; bool tensors give in[i + 1] != in[i].
Tensor diff(const Tensor& a, int64_t n = 1, int64_t dim = -1, const Tensor& prepend = {},
            const Tensor& append = {});
// a tiled repeats[i] times along each dim (more repeats than dims add leading dims).
Tensor repeat(const Tensor& a, IntArrayRef repeats);
// The lower (tril) or upper (triu) triangle of the last two dims from diagonal `diagonal` on
// (0: the main one; > 0 above it), the rest zeroed.
Tensor tril(const Tensor& a, int64_t diagonal = 0);
Tensor triu(const Tensor& a, int64_t diagonal = 0);
// The elements shifted by shifts[i] along dims[i], wrapping around; without dims, the flattened
// tensor is shifted and reshaped back.
Tensor roll(const Tensor& a, IntArrayRef shifts, IntArrayRef dims = {});
// repeat, with fewer reps than dims padded by leading ones (torch.tile).
Tensor tile(const Tensor& a, IntArrayRef reps);
// A new tensor with a's last dim on the diagonal `offset` of the new dims dim1 and dim2, zeros
// elsewhere; diag of a 1-D tensor is that matrix, diag of a 2-D one its diagonal (a copy).
Tensor diag_embed(const Tensor& a, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1);
Tensor diag(const Tensor& a, int64_t diagonal = 0);
Tensor trace(const Tensor& a);  // the sum of a 2-D tensor's main diagonal
// 1-D tensors expanded to the grid of all their combinations; indexing "ij" (matrix) or "xy"
// (Cartesian: the first two dims swapped).
std::vector<Tensor> meshgrid(TensorList tensors, std::string_view indexing = "ij");

// ---- copies and conversion (ops/copy.cpp) ----
Tensor contiguous(const Tensor& a);
Tensor clone(const Tensor& a);
Tensor to_dtype(const Tensor& a, ScalarType dtype);  // differentiable between float types
// Differentiable; non_blocking copies run asynchronously where only pinned host memory and
// device memory are involved.
Tensor to_device(const Tensor& a, Device device, bool non_blocking = false);

// ---- broadcasting helpers shared by ops ----
// The broadcast shape of a and b, or an error naming `op` and both shapes.
DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b, const char* op);
// Sums `grad` down to `sizes` (the inverse of broadcasting, used by backward functions).
Tensor sum_to(const Tensor& grad, IntArrayRef sizes);

}  // namespace accel
