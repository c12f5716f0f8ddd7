// matmul, mm and bmm with their gradients. Every case is one batched product with broadcast
// batch dims (mm: no batch dims; bmm: equal ones; matmul's 1-D operands: unsqueezed
// matrices), whose backward is two more products, grad_a = grad · bᵀ and grad_b = aᵀ · grad,
// summed back over the batch dims each operand was broadcast along.
#include "accel/core/autocast.h"
#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;
using autograd::InputInfo;
using autograd::SavedTensor;

namespace {

// "2x3", as PyTorch prints shapes in matrix-product errors.
std::string shape_string(IntArrayRef sizes) { return fmt::format("{}", fmt::join(sizes, "x")); }

void check_inner_sizes(const Tensor& a, const Tensor& b, int64_t a_cols, int64_t b_rows,
                       const char* op) {
  ACCEL_CHECK(a_cols == b_rows, op, "mat1 and mat2 shapes cannot be multiplied ({} and {})",
              shape_string(a.sizes()), shape_string(b.sizes()));
}

void check_operands(const Tensor& a, const Tensor& b, const char* op) {
  check_same_device(a, b, op);
  ACCEL_CHECK(a.dtype() == b.dtype(), op,
              "expected both operands to have the same dtype, got {} and {}", a.dtype(), b.dtype());
  ACCEL_CHECK(a.dtype() != kBool, op, "not implemented for dtype {}", a.dtype());
}

Tensor matrix_transpose(const Tensor& t) { return t.transpose(-2, -1); }

// `t` (in dtype `compute`) as the kernel can read it in place, else a contiguous copy.
Tensor kernel_operand(const Tensor& t, ScalarType compute) {
  NoGradGuard no_grad;  // conversions of an operand, not recorded ops
  Tensor c = t.dtype() == compute ? t : t.to(compute);
  const int64_t d = c.dim();
  if (gemm_supports(c.size(d - 2), c.size(d - 1), c.stride(d - 2), c.stride(d - 1))) {
    return c;
  }
  return c.contiguous();
}

// a [..., m, k] · b [..., k, n] (both at least 2-D, same dtype, inner sizes checked) with
// the batch dims broadcast; no autograd. 16-bit floats accumulate in float32: in the kernel
// where the backend's GEMM takes them, else converted to float32 and the result rounded once.
Tensor batched_product(const Tensor& a_in, const Tensor& b_in, const char* op) {
  const ScalarType dtype = a_in.dtype();
  const Backend& kernels = backend(a_in.device());
  const bool widen = (dtype == kFloat16 || dtype == kBFloat16) && !kernels.gemm_takes_16bit_floats;
  const ScalarType compute = widen ? kFloat32 : dtype;
  const Tensor a = kernel_operand(a_in, compute);
  const Tensor b = kernel_operand(b_in, compute);
  const int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
  const IntArrayRef a_sizes = a.sizes(), b_sizes = b.sizes();
  DimVector shape = broadcast_shapes(IntArrayRef(a_sizes.data(), a_sizes.size() - 2),
                                     IntArrayRef(b_sizes.data(), b_sizes.size() - 2), op);
  const size_t batch_dims = shape.size();
  shape.push_back(m);
  shape.push_back(k);
  const DimVector a_strides = broadcast_strides(a, shape, op);
  shape[batch_dims + 1] = n;
  shape[batch_dims] = k;
  const DimVector b_strides = broadcast_strides(b, shape, op);
  shape[batch_dims] = m;
  Tensor out = empty(shape, a.options());
  const IntArrayRef batch(shape.data(), batch_dims);
  auto operand = [&](const Tensor& t, const DimVector& strides) {
    return MatrixOperand{t.data_ptr(), t.stride(-2), t.stride(-1),
                         IntArrayRef(strides.data(), batch_dims)};
  };
  kernels.gemm(compute, batch, m, k, n, operand(a, a_strides), operand(b, b_strides),
               out.data_ptr(), current_stream(out.device()));
  if (compute == dtype) return out;
  NoGradGuard no_grad;
  return out.to(dtype);
}

// Whether `t` is a transposed view of a contiguous matrix (a linear layer's weight.t()).
bool is_transposed_matrix(const Tensor& t) {
  return t.dim() >= 2 && t.stride(-2) == 1 && t.stride(-1) != 1;
}

// The product x · y, laid out as the operand whose gradient it is: a transposed operand gets
// (yᵀ · xᵀ)ᵀ, so its gradient reaches the contiguous tensor behind it without a transposing
// copy (the GEMM reads transposed operands in place).
Tensor product_like(const Tensor& x, const Tensor& y, bool transposed, const char* op) {
  if (!transposed) return batched_product(x, y, op);
  return matrix_transpose(batched_product(matrix_transpose(y), matrix_transpose(x), op));
}

// batched_product() recorded for autograd. Each operand is saved only when the other
// one's gradient needs it.
Tensor recorded_product(const Tensor& a, const Tensor& b, const char* op) {
  Tensor out = batched_product(a, b, op);
  if (autograd::should_record(a, b)) {
    const bool a_grad = autograd::requires_grad(a), b_grad = autograd::requires_grad(b);
    autograd::record(
        op, {a, b}, out,
        [ia = InputInfo(a), ib = InputInfo(b), sa = b_grad ? SavedTensor(a) : SavedTensor(),
         sb = a_grad ? SavedTensor(b) : SavedTensor(), a_transposed = is_transposed_matrix(a),
         b_transposed = is_transposed_matrix(b), op](const Tensor& grad, GradInputs& in) {
          if (in.needs(0)) {
            in[0] = ia.reduce(product_like(grad, matrix_transpose(sb.get()), a_transposed, op));
          }
          if (in.needs(1)) {
            in[1] = ib.reduce(product_like(matrix_transpose(sa.get()), grad, b_transposed, op));
          }
        });
  }
  return out;
}

}  // namespace

Tensor matmul(const Tensor& a_in, const Tensor& b_in) {
  const Tensor a = autocast_input(a_in, CastPolicy::LowerPrecision);
  const Tensor b = autocast_input(b_in, CastPolicy::LowerPrecision);
  const int64_t da = a.dim(), db = b.dim();
  ACCEL_CHECK(da >= 1 && db >= 1, "matmul",
              "both arguments need to be at least 1-D, but they are {}-D and {}-D", da, db);
  check_operands(a, b, "matmul");
  if (da == 1 && db == 1) {
    ACCEL_CHECK(a.size(0) == b.size(0), "matmul",
                "1-D tensors must have the same number of elements, got {} and {}", a.size(0),
                b.size(0));
  } else {
    check_inner_sizes(a, b, a.size(-1), db == 1 ? b.size(0) : b.size(-2), "matmul");
  }
  // A vector is a one-row (left) or one-column (right) matrix, squeezed out of the result.
  const Tensor a2 = da == 1 ? a.unsqueeze(0) : a;
  const Tensor b2 = db == 1 ? b.unsqueeze(1) : b;
  Tensor out;
  if (da >= 3 && db <= 2) {
    // Batch dims of `a` alone fold into its rows: one large product instead of many small
    // ones, and b's gradient comes out of one product without a batch sum.
    DimVector out_sizes(a.sizes());
    out_sizes.back() = 1;
    const int64_t rows = product(out_sizes);
    out_sizes.back() = b2.size(1);
    out = recorded_product(a.reshape({rows, a.size(-1)}), b2, "matmul").view(out_sizes);
  } else {
    out = recorded_product(a2, b2, "matmul");
  }
  if (da == 1) out = out.squeeze(-2);
  if (db == 1) out = out.squeeze(-1);
  return out;
}

Tensor mm(const Tensor& a_in, const Tensor& b_in) {
  const Tensor a = autocast_input(a_in, CastPolicy::LowerPrecision);
  const Tensor b = autocast_input(b_in, CastPolicy::LowerPrecision);
  ACCEL_CHECK(a.dim() == 2 && b.dim() == 2, "mm",
              "expected 2-D tensors, got {}-D and {}-D (shapes {} and {})", a.dim(), b.dim(),
              a.sizes(), b.sizes());
  check_operands(a, b, "mm");
  check_inner_sizes(a, b, a.size(1), b.size(0), "mm");
  return recorded_product(a, b, "mm");
}

Tensor bmm(const Tensor& a_in, const Tensor& b_in) {
  const Tensor a = autocast_input(a_in, CastPolicy::LowerPrecision);
  const Tensor b = autocast_input(b_in, CastPolicy::LowerPrecision);
  ACCEL_CHECK(a.dim() == 3 && b.dim() == 3, "bmm",
              "expected 3-D tensors, got {}-D and {}-D (shapes {} and {})", a.dim(), b.dim(),
              a.sizes(), b.sizes());
  check_operands(a, b, "bmm");
  ACCEL_CHECK(a.size(0) == b.size(0), "bmm",
              "batch1 and batch2 must have the same batch size ({} and {})",
              shape_string(a.sizes()), shape_string(b.sizes()));
  check_inner_sizes(a, b, a.size(2), b.size(1), "bmm");
  return recorded_product(a, b, "bmm");
}

Tensor Tensor::matmul(const Tensor& o) const { return accel::matmul(*this, o); }
Tensor Tensor::mm(const Tensor& o) const { return accel::mm(*this, o); }
Tensor Tensor::bmm(const Tensor& o) const { return accel::bmm(*this, o); }

}  // namespace accel
