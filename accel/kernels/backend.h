// Backend: the table of kernel families one device type provides. Ops reach kernels only
// through it, as backend(device).family(...) (core/backend.h), so an op is written once for
// every device; the CPU table is in kernels/cpu/cpu_backend.cpp, the CUDA table in
// kernels/cuda/cuda_backend.cpp. The tables are plain constant objects (no registration at
// static-initialization time), so a plain static library links without --whole-archive.
//
// Every entry takes raw pointers, sizes and strides (kernels know nothing of Tensor) and the
// stream it runs on (ignored on the CPU, where work completes before the call returns). The
// comments here are the contract both backends implement.
#pragma once

#include <cstdint>
#include <functional>

#include "accel/base/int_array_ref.h"
#include "accel/base/scalar_type.h"
#include "accel/base/stream.h"
#include "accel/kernels/common/activation_math.h"
#include "accel/kernels/common/batch_norm_shape.h"
#include "accel/kernels/common/binary_math.h"
#include "accel/kernels/common/conv_geometry.h"
#include "accel/kernels/common/cross_entropy_math.h"
#include "accel/kernels/common/layer_norm_shape.h"
#include "accel/kernels/common/loop.h"
#include "accel/kernels/common/matrix_operand.h"
#include "accel/kernels/common/optimizer_math.h"
#include "accel/kernels/common/pad_math.h"
#include "accel/kernels/common/philox.h"
#include "accel/kernels/common/pool2d_shape.h"
#include "accel/kernels/common/recurrent_cell_math.h"
#include "accel/kernels/common/reduce_shape.h"
#include "accel/kernels/common/scan_sort_math.h"
#include "accel/kernels/common/scatter_math.h"
#include "accel/kernels/common/tap_shape.h"
#include "accel/kernels/common/unary_math.h"

namespace accel {

// Takes `blocks` unused counter blocks from a generator and says where they start. Each
// random kernel asks once, for as many blocks as its draw needs.
using ReservePhilox = std::function<random::PhiloxDraw(uint64_t blocks)>;

// What an index range check reports when an index is out of range: "op: index I is out of
// bounds for dimension `dim` with size S". `op` must be a string literal (it may be read
// after the call returns, when the check runs asynchronously on a device).
struct IndexCheck {
  const char* op;
  int64_t dim;
};

struct Backend {
  // ---- moving elements (copy.h) ----
  // out[i] = convert(in[i]) over Loop<2>(out of out_type, in of in_type).
  void (*copy)(ScalarType out_type, ScalarType in_type, const Loop<2>& loop, const Stream& stream);
  // out[i] = *value, where value points (in host memory) at one element of `type`.
  void (*fill)(ScalarType type, const Loop<1>& loop, const void* value, const Stream& stream);

  // ---- element-wise math (unary.h, binary.h, where.h) ----
  // out = op(x) over Loop<2>(out, x).
  void (*unary)(math::UnaryOp op, ScalarType dtype, const Loop<2>& loop, const Stream& stream);
  // grad_in = op's backward(grad, saved) over Loop<3>(grad_in, grad, saved), where saved is
  // the op's output or input as math::grad_uses_output says.
  void (*unary_backward)(math::UnaryOp op, ScalarType dtype, const Loop<3>& loop,
                         const Stream& stream);
  // out = clamp(x) over Loop<2>(out, x); min and max point (in host memory) to a bound stored
  // as `dtype`, or are null where that bound is absent.
  void (*clamp)(ScalarType dtype, const Loop<2>& loop, const void* min, const void* max,
                const Stream& stream);
  // grad_in = grad where min < x < max, else 0, over Loop<3>(grad_in, grad, x).
  void (*clamp_backward)(ScalarType dtype, const Loop<3>& loop, const void* min, const void* max,
                         const Stream& stream);
  // out = f(x) over Loop<2>(out, x), for a floating dtype.
  void (*activation)(const math::Activation& f, ScalarType dtype, const Loop<2>& loop,
                     const Stream& stream);
  // grad_in = f's backward(grad, x) over Loop<3>(grad_in, grad, x).
  void (*activation_backward)(const math::Activation& f, ScalarType dtype, const Loop<3>& loop,
                              const Stream& stream);
  // out = a op b over Loop<3>(out, a, b), all of dtype (out is bool for comparisons); add and
  // sub take alpha: out = a + alpha * b.
  void (*binary)(math::BinaryOp op, ScalarType dtype, const Loop<3>& loop, double alpha,
                 const Stream& stream);
  // out = condition ? a : b over Loop<4>(out, condition, a, b); condition is bool.
  void (*where)(ScalarType dtype, const Loop<4>& loop, const Stream& stream);
  // out = condition == fill_when ? *value : x over Loop<3>(out, condition, x), value pointing
  // (in host memory) to a number stored as `dtype`.
  void (*fill_where)(ScalarType dtype, const Loop<3>& loop, const void* value, bool fill_when,
                     const Stream& stream);
  // Whether every element pair of Loop<2>(a, b) satisfies math::is_close (waits for the
  // stream: the answer is read on the host).
  bool (*all_close)(ScalarType dtype, const Loop<2>& loop, double rtol, double atol, bool equal_nan,
                    const Stream& stream);

  // ---- indexing along one dim (index.h) ----
  // Every one of the n contiguous indices (int64 or int32) must lie in [0, size): the CPU
  // throws at once; a device raises the error at the stream's next synchronization.
  void (*check_indices)(ScalarType index_type, const void* index, int64_t n, int64_t size,
                        IndexCheck check, const Stream& stream);
  // Loop operands over the index's shape: 0 = out, 1 = the input with its stride along the
  // indexed dim set to 0, 2 = the index. out[i] = *(in[i] + index[i] * dim_stride), where
  // dim_stride is the input's stride along the indexed dim in bytes and dim_size its size
  // along that dim. The kernel tests each index against dim_size before it reads through it
  // (callers need not run check_indices): the CPU throws check's error for the first one
  // outside (in the loop's order), out then partly written; a device writes zero where one
  // fails and reports it (raised at the next synchronization).
  void (*gather)(ScalarType dtype, ScalarType index_type, const Loop<3>& loop, int64_t dim_stride,
                 int64_t dim_size, IndexCheck check, const Stream& stream);
  // Loop operands over the index's shape: 0 = self with its stride along the indexed dim set
  // to 0, 1 = src, 2 = the index. With dst = self[i] + index[i] * dim_stride,
  // *dst = scatter_combine<op>(*dst, src[i]) (kernels/common/scatter_math.h), elements landing
  // on one destination combining in the loop's order (the same bits on every run and device:
  // the last one wins an assignment); dim_stride and dim_size are self's stride (bytes) and
  // size along the indexed dim. Self is memory the op allocated, no view of anything else, so
  // a scatter that fails part way loses nothing. Indices are tested as gather's: the CPU
  // throws, a device skips one outside [0, dim_size) and reports it.
  void (*scatter)(math::ScatterReduce op, ScalarType dtype, ScalarType index_type,
                  const Loop<3>& loop, int64_t dim_stride, int64_t dim_size, IndexCheck check,
                  const Stream& stream);
  // out (contiguous int64 [count, sizes.size()]) = the coordinates of the true elements of the
  // contiguous bool `flags` of shape `sizes`, in row-major order; the caller counted them.
  void (*nonzero)(const bool* flags, IntArrayRef sizes, int64_t count, int64_t* out,
                  const Stream& stream);

  // ---- padding by reflection, replication or wrapping (pad.h) ----
  // out = in padded as `shape` says, each output element the input element math::pad_source
  // gives along each axis (any dtype).
  void (*pad)(ScalarType dtype, const PadShape& shape, const void* in, void* out,
              const Stream& stream);
  // grad_in = the sum, for each input element, of the output gradients of the elements that
  // read it, added in increasing output order (the same bits on every device).
  void (*pad_backward)(ScalarType dtype, const PadShape& shape, const void* grad_out, void* grad_in,
                       const Stream& stream);

  // ---- random numbers (random.h): value i of a draw lands in element i (row-major) ----
  // out = from + (to - from) * U[0, 1), for a floating dtype.
  void (*uniform)(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double from,
                  double to, const Stream& stream);
  // out = mean + std * N(0, 1), for a floating dtype.
  void (*normal)(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double mean,
                 double std, const Stream& stream);
  // out = integers uniform in [low, low + range), for any dtype.
  void (*random_integers)(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve,
                          int64_t low, uint64_t range, const Stream& stream);
  // out (operand 0) = 1 with probability p (operand 1, floating dtype p_type), else 0. A p
  // outside [0, 1] is an error naming bernoulli.
  void (*bernoulli)(ScalarType out_type, ScalarType p_type, const Loop<2>& loop,
                    const ReservePhilox& reserve, const Stream& stream);
  // out[0, n) = a random permutation of 0..n-1 (Fisher-Yates), contiguous, of `dtype`.
  void (*randperm)(ScalarType dtype, void* out, int64_t n, const ReservePhilox& reserve,
                   const Stream& stream);

  // ---- reductions over contiguous [outer, reduced, inner] inputs (reduce.h) ----
  // Every output's terms are combined in a fixed order: the same bits on every run.
  // out[o, i] = sum_r in[o, r, i], accumulating in double for float64 and float otherwise;
  // out_type may differ from in_type (sum of int32 into int64, of bool into int64).
  void (*sum)(ScalarType out_type, ScalarType in_type, const void* in, void* out, ReduceShape shape,
              const Stream& stream);
  // out[o, i] = sqrt(sum_r in[o, r, i]^2), for a floating dtype: the squares added as sum adds
  // its terms, in its accumulate type, where the root is taken too.
  void (*two_norm)(ScalarType type, const void* in, void* out, ReduceShape shape,
                   const Stream& stream);
  // out[o, i] = prod_r in[o, r, i], with the types and accumulation of sum.
  void (*prod)(ScalarType out_type, ScalarType in_type, const void* in, void* out,
               ReduceShape shape, const Stream& stream);
  // grad_in[o, r, i] = grad[o, i] * the product of the other elements of the row.
  void (*prod_backward)(ScalarType type, const void* in, const void* grad, void* grad_in,
                        ReduceShape shape, const Stream& stream);
  // values[o, i] = max (or min) over r and indices[o, i] the first r attaining it; NaN counts
  // as the extremum. Either output may be null. Requires reduced >= 1.
  void (*extremum)(Extremum kind, ScalarType type, const void* in, void* values, int64_t* indices,
                   ReduceShape shape, const Stream& stream);
  // grad_in[o, indices[o, i], i] = grad[o, i]; grad_in must hold zeros.
  void (*scatter_reduced)(ScalarType type, const void* grad, const int64_t* indices, void* grad_in,
                          ReduceShape shape, const Stream& stream);
  // out[o, i] = variance over r with divisor max(0, reduced - correction) (its square root
  // when take_sqrt); `mean` (may be null) receives the mean.
  void (*moments)(ScalarType type, const void* in, void* out, void* mean, ReduceShape shape,
                  int64_t correction, bool take_sqrt, const Stream& stream);
  // out[o, i] = log(sum_r exp(in[o, r, i])), shifted by the finite maximum for stability.
  void (*logsumexp)(ScalarType type, const void* in, void* out, ReduceShape shape,
                    const Stream& stream);
  // out[o, :, i] = softmax (or log_softmax when `log`) of in[o, :, i].
  void (*softmax)(ScalarType type, const void* in, void* out, ReduceShape shape, bool log,
                  const Stream& stream);
  // From the forward result `out` and its gradient: softmax grad_in = out * (grad - sum(grad *
  // out)); log_softmax grad_in = grad - exp(out) * sum(grad), sums taken over r.
  void (*softmax_backward)(ScalarType type, const void* grad, const void* out, void* grad_in,
                           ReduceShape shape, bool log, const Stream& stream);

  // ---- along one dim of contiguous [outer, reduced, inner] inputs (scan.h, sort.h) ----
  // out[o, r, i] = the sum (product, log-sum-exp, maximum, minimum: math::ScanOp) over
  // q <= r of in[o, q, i], both of `type`, the terms taken in order of q in double for float32
  // and float64, float for 16-bit floats and int64 for integers (wrapping); log-sum-exp on
  // floating types only.
  void (*scan)(ScalarType type, math::ScanOp op, const void* in, void* out, ReduceShape shape,
               const Stream& stream);
  // indices[o, j, i] (contiguous [outer, k, inner]) = the r of in[o, :, i]'s j-th element in
  // ascending (or descending) order, for j < k <= reduced: NaN orders above every number and
  // equal elements keep their order along r (a stable sort).
  void (*sort)(ScalarType type, const void* in, int64_t* indices, ReduceShape shape, int64_t k,
               bool descending, const Stream& stream);

  // ---- layer normalization over contiguous rows (layer_norm.h; geometry in
  // common/layer_norm_shape.h) ----
  // Each row of `cols` elements of in (`type`) normalized by its own mean and biased variance:
  // out = (x - mean) * rstd * weight + bias, weight and bias [cols] of `type` or null for none;
  // mean and rstd = 1 / sqrt(var + eps) written per row in the accumulate type (double for
  // float64, float otherwise). Each row's sums are taken in a fixed order.
  void (*layer_norm)(ScalarType type, const void* in, const void* weight, const void* bias,
                     void* out, void* mean, void* rstd, LayerNormShape shape, double eps,
                     const Stream& stream);
  // From grad (the gradient of out, contiguous like in) and the forward's mean and rstd:
  // grad_in = rstd * (gw - mean(gw) - xhat * mean(gw * xhat)) along each row, with gw = grad *
  // weight (grad without one) and xhat = (x - mean) * rstd; grad_weight = the column sums of
  // grad * xhat, grad_bias those of grad, in LayerNormShape's fixed order. Any of the three
  // outputs may be null (not wanted).
  void (*layer_norm_backward)(ScalarType type, const void* grad, const void* in, const void* mean,
                              const void* rstd, const void* weight, void* grad_in,
                              void* grad_weight, void* grad_bias, LayerNormShape shape,
                              const Stream& stream);

  // ---- one step of an LSTM or GRU cell over a batch (recurrent_cell.h; math and geometry in
  // common/recurrent_cell_math.h). Every array is contiguous: states [batch, hidden], gates
  // [batch, gates * hidden]. ----
  // LSTM: from the pre-activations x + h_proj + bias (x and h_proj [batch, 4 hidden], bias
  // [4 hidden] or null for none) and c_prev, the activated gates, c, tanh(c) and h.
  void (*lstm_cell)(ScalarType type, const void* x, const void* h_proj, const void* bias,
                    const void* c_prev, void* gates, void* c, void* tanh_c, void* h,
                    RecurrentCellShape shape, const Stream& stream);
  // From grad_h and grad_c (of h and c) and the forward's gates, tanh_c and c_prev: the
  // gradient of the four pre-activations [batch, 4 hidden] and of c_prev.
  void (*lstm_cell_backward)(ScalarType type, const void* grad_h, const void* grad_c,
                             const void* gates, const void* tanh_c, const void* c_prev,
                             void* grad_gates, void* grad_c_prev, RecurrentCellShape shape,
                             const Stream& stream);
  // GRU: from x and h_proj ([batch, 3 hidden] each, h_proj with bias_hh) and h_prev, the
  // gates r, z, n [batch, 3 hidden] and h.
  void (*gru_cell)(ScalarType type, const void* x, const void* h_proj, const void* h_prev,
                   void* gates, void* h, RecurrentCellShape shape, const Stream& stream);
  // From grad_h and the forward's gates, h_proj and h_prev: the gradients of x and of h_proj
  // ([batch, 3 hidden] each) and the part of h_prev's that does not flow through h_proj.
  void (*gru_cell_backward)(ScalarType type, const void* grad_h, const void* gates,
                            const void* h_proj, const void* h_prev, void* grad_x, void* grad_h_proj,
                            void* grad_h_prev, RecurrentCellShape shape, const Stream& stream);

  // ---- batch normalization over contiguous [batch, channels, spatial] inputs (batch_norm.h;
  // geometry in common/batch_norm_shape.h). Per-channel arrays (mean, var, invstd, weight, bias
  // and the gradient sums) are of the accumulate type (double for float64, float otherwise);
  // weight and bias may be null (1 and 0). Each channel's sums are taken in a fixed order. ----
  // mean[c] and var[c] (biased: divided by the count) of channel c's elements.
  void (*batch_norm_statistics)(ScalarType type, const void* in, void* mean, void* var,
                                BatchNormShape shape, const Stream& stream);
  // out = (x - mean[c]) * invstd[c] * weight[c] + bias[c], c being each element's channel.
  void (*batch_norm_normalize)(ScalarType type, const void* in, const void* mean,
                               const void* invstd, const void* weight, const void* bias, void* out,
                               BatchNormShape shape, const Stream& stream);
  // sum_grad[c] = the sum of grad over channel c's elements, sum_grad_xhat[c] that of grad *
  // (x - mean[c]) * invstd[c].
  void (*batch_norm_backward_reduce)(ScalarType type, const void* grad, const void* in,
                                     const void* mean, const void* invstd, void* sum_grad,
                                     void* sum_grad_xhat, BatchNormShape shape,
                                     const Stream& stream);
  // grad_in = (grad - sum_grad[c] / count - (x - mean[c]) * invstd[c] * sum_grad_xhat[c] / count)
  // * invstd[c] * weight[c]; null sums count as 0 (statistics that are constants, as in
  // evaluation).
  void (*batch_norm_backward_input)(ScalarType type, const void* grad, const void* in,
                                    const void* mean, const void* invstd, const void* weight,
                                    const void* sum_grad, const void* sum_grad_xhat, void* grad_in,
                                    BatchNormShape shape, const Stream& stream);

  // ---- cross-entropy over class indices (cross_entropy.h; formulas in
  // common/cross_entropy_math.h) ----
  // logits: contiguous [outer = N, reduced = C, inner] of `type`; target: contiguous int64
  // [N, inner]; weight: [C] of `type`, or null for every class weighing 1. Each target must be
  // s.ignore_index or lie in [0, C): the CPU throws for the first one that does not before
  // writing anything; a device reports it (raised at the next synchronization) and treats
  // that position as ignored. Positions are independent, each one's classes combined in a
  // fixed order: the same bits on every run.
  // Writes per position [N, inner]: lse (log-sum-exp over the classes, in double for float64
  // and float otherwise), loss (`type`) and, where target_weight is not null, w_t (`type`, 0
  // where ignored: their sum divides a mean).
  void (*cross_entropy_forward)(ScalarType type, const void* logits, const int64_t* target,
                                const void* weight, void* loss, void* lse, void* target_weight,
                                ReduceShape shape, const math::CrossEntropyScalars& s,
                                const Stream& stream);
  // grad_logits [N, C, inner] = g * d loss / d logits, the probabilities recomputed from the
  // forward's lse; g = grad[n, i] (contiguous [N, inner] of `type`), or grad[0] at every
  // position when grad_is_scalar.
  void (*cross_entropy_backward)(ScalarType type, const void* logits, const int64_t* target,
                                 const void* weight, const void* lse, const void* grad,
                                 bool grad_is_scalar, void* grad_logits, ReduceShape shape,
                                 const math::CrossEntropyScalars& s, const Stream& stream);

  // ---- matrix products (gemm.h) ----
  // out (contiguous [batch_sizes..., m, n]) = a [batch..., m, k] · b [batch..., k, n], all of
  // `dtype`, operands read in place (matrix_operand.h). Which dtypes a backend multiplies
  // natively is its own: the CPU computes 16-bit floats in float32 converted by the caller.
  void (*gemm)(ScalarType dtype, IntArrayRef batch_sizes, int64_t m, int64_t k, int64_t n,
               const MatrixOperand& a, const MatrixOperand& b, void* out, const Stream& stream);
  // Whether gemm takes float16/bfloat16 operands itself (accumulating in float32).
  bool gemm_takes_16bit_floats;

  // ---- convolution by unfolding (im2col.h) ----
  // images: contiguous [batch, channels, height, width]; columns: contiguous
  // [channels * kernel_h * kernel_w, batch, out_h * out_w], zero where a field reads padding.
  void (*im2col)(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* images,
                 void* columns, const Stream& stream);
  // The adjoint: images (overwritten) = the sum of every column entry into the pixel it was
  // read from; entries that read padding are dropped.
  void (*col2im)(ScalarType dtype, const ConvGeometry& g, int64_t batch, const void* columns,
                 void* images, const Stream& stream);
  // A backend may also convolve one image at a time (null where it does not; one group only):
  // out [batch, out_channels, out_h, out_w] = weight [out_channels, channels * taps] times each
  // image's columns, plus bias [out_channels] when not null.
  void (*conv2d)(ScalarType dtype, const ConvGeometry& g, int64_t batch, int64_t out_channels,
                 const void* images, const void* weight, const void* bias, void* out,
                 const Stream& stream);
  // ... and its input gradient: grad_images (overwritten) = col2im(weightᵀ times each image's
  // grad [out_channels, out_h, out_w]).
  void (*conv2d_input_grad)(ScalarType dtype, const ConvGeometry& g, int64_t batch,
                            int64_t out_channels, const void* grad, const void* weight,
                            void* grad_images, const Stream& stream);
  // ... and its weight gradient: grad_weight [out_channels, channels * taps] (overwritten) = the
  // sum over images of grad times the image's columns transposed, bit-identical for any thread
  // count.
  void (*conv2d_weight_grad)(ScalarType dtype, const ConvGeometry& g, int64_t batch,
                             int64_t out_channels, const void* images, const void* grad,
                             void* grad_weight, const Stream& stream);

  // ---- 2-D pooling over contiguous [planes, H, W] (pooling.h) ----
  // out = the maximum over each window (NaN wins), indices = where it was (flat h * W + w).
  void (*max_pool2d)(ScalarType dtype, const Pool2dShape& shape, const void* in, void* out,
                     int64_t* indices, const Stream& stream);
  // grad_in (overwritten) = each grad_out element added at its window's maximum (an output
  // whose window has no tap inside the input passes no gradient).
  void (*max_pool2d_backward)(ScalarType dtype, const Pool2dShape& shape, const void* grad_out,
                              const int64_t* indices, void* grad_in, const Stream& stream);
  // out = the mean over each window.
  void (*avg_pool2d)(ScalarType dtype, const Pool2dShape& shape, AvgWindows windows, const void* in,
                     void* out, const Stream& stream);
  // grad_in (overwritten) = sum over windows holding an element of grad_out / divisor.
  void (*avg_pool2d_backward)(ScalarType dtype, const Pool2dShape& shape, AvgWindows windows,
                              const void* grad_out, void* grad_in, const Stream& stream);

  // ---- sampling at taps (sampling.h): grid_sample's interpolation, over the contiguous
  // operands of TapShape; a position of -1 marks a tap outside the input, which reads zero
  // and receives no gradient (even where the input holds inf or NaN) ----
  // grid_sample's taps of a grid (kernels/common/grid_taps.h): index and weight
  // [batch, taps, locations] with taps = grid_tap_count(shape); weight_grad (skipped when null)
  // [batch, taps, locations, spatial], each weight's derivative with respect to the location's
  // grid components (x first).
  void (*grid_sample_taps)(ScalarType dtype, const GridTapsShape& shape, const void* grid,
                           int32_t* index, void* weight, void* weight_grad, const Stream& stream);
  // out[b, c, p] = sum over k in order of input[b, c, index[b, k, p]] * weight[b, k, p].
  void (*tap_sample)(ScalarType dtype, const TapShape& shape, const void* input,
                     const int32_t* index, const void* weight, void* out, const Stream& stream);
  // The adjoints of tap_sample, each skipped when its output is null. grad_input (overwritten)
  // [b, c, s] = the sum of weight[b, k, p] * grad[b, c, p] over the taps with index[b, k, p] = s,
  // in the order p then k. grad_params (overwritten) [b, p, j]: the gradient of `params`
  // (at most kMaxTapParams) values per location on which the weights depend, with
  // weight_grad[b, k, p, j] = d weight[b, k, p] / d param j: the sum over k in order of
  // weight_grad[b, k, p, j] * (the sum over c in order of grad[b, c, p] * input[b, c, index]).
  void (*tap_sample_backward)(ScalarType dtype, const TapShape& shape, const void* input,
                              const void* grad, const int32_t* index, const void* weight,
                              int64_t params, const void* weight_grad, void* grad_input,
                              void* grad_params, const Stream& stream);

  // ---- optimizer updates (optimizer_step.h): one contiguous parameter, its gradient and
  // state buffers (all of its dtype and length); null state is unused by the options ----
  void (*sgd_step)(ScalarType dtype, int64_t n, void* param, const void* grad,
                   void* momentum_buffer, const math::SgdScalars<double>& s, const Stream& stream);
  void (*adam_step)(ScalarType dtype, int64_t n, void* param, const void* grad, void* exp_avg,
                    void* exp_avg_sq, void* max_exp_avg_sq, const math::AdamScalars<double>& s,
                    const Stream& stream);
  void (*rmsprop_step)(ScalarType dtype, int64_t n, void* param, const void* grad, void* square_avg,
                       void* grad_avg, void* momentum_buffer, const math::RmspropScalars<double>& s,
                       const Stream& stream);
  void (*adagrad_step)(ScalarType dtype, int64_t n, void* param, const void* grad, void* sum,
                       const math::AdagradScalars<double>& s, const Stream& stream);

  // ---- mixed-precision loss scaling (loss_scaling.h) ----
  // Multiplies the n elements of `grad` by inv_scale in place and sets *found_inf (one
  // float32 on the same device) to 1 when any of them was inf or NaN before unscaling.
  void (*unscale_gradient)(ScalarType dtype, int64_t n, void* grad, double inv_scale,
                           float* found_inf, const Stream& stream);
};

}  // namespace accel
