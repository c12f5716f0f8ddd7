// The CPU's kernel table: every family of kernels/backend.h bound to its CPU kernel. CPU work
// completes before a kernel returns, so the CPU kernels take no stream; the table's entries
// drop it on their way in.
#include "accel/kernels/cpu/cpu_backend.h"

#include "accel/kernels/cpu/activation.h"
#include "accel/kernels/cpu/allclose.h"
#include "accel/kernels/cpu/batch_norm.h"
#include "accel/kernels/cpu/binary.h"
#include "accel/kernels/cpu/conv2d.h"
#include "accel/kernels/cpu/copy.h"
#include "accel/kernels/cpu/cross_entropy.h"
#include "accel/kernels/cpu/gemm.h"
#include "accel/kernels/cpu/im2col.h"
#include "accel/kernels/cpu/index.h"
#include "accel/kernels/cpu/layer_norm.h"
#include "accel/kernels/cpu/loss_scaling.h"
#include "accel/kernels/cpu/nonzero.h"
#include "accel/kernels/cpu/optimizer_step.h"
#include "accel/kernels/cpu/pad.h"
#include "accel/kernels/cpu/pooling.h"
#include "accel/kernels/cpu/random.h"
#include "accel/kernels/cpu/recurrent_cell.h"
#include "accel/kernels/cpu/reduce.h"
#include "accel/kernels/cpu/sampling.h"
#include "accel/kernels/cpu/scan.h"
#include "accel/kernels/cpu/sort.h"
#include "accel/kernels/cpu/unary.h"
#include "accel/kernels/cpu/where.h"

namespace accel {

namespace {

// WithoutStream<&kernel>::call is `kernel` taking (and ignoring) a trailing stream.
template <auto Kernel>
struct WithoutStream;
template <typename R, typename... Args, R (*Kernel)(Args...)>
struct WithoutStream<Kernel> {
  static R call(Args... args, const Stream&) { return Kernel(args...); }
};

}  // namespace

constinit const Backend kCpuBackend = {
    .copy = WithoutStream<&cpu::copy>::call,
    .fill = WithoutStream<&cpu::fill>::call,
    .unary = WithoutStream<&cpu::unary>::call,
    .unary_backward = WithoutStream<&cpu::unary_backward>::call,
    .clamp = WithoutStream<&cpu::clamp>::call,
    .clamp_backward = WithoutStream<&cpu::clamp_backward>::call,
    .activation = WithoutStream<&cpu::activation>::call,
    .activation_backward = WithoutStream<&cpu::activation_backward>::call,
    .binary = WithoutStream<&cpu::binary>::call,
    .where = WithoutStream<&cpu::where>::call,
    .fill_where = WithoutStream<&cpu::fill_where>::call,
    .all_close = WithoutStream<&cpu::all_close>::call,
    .check_indices = WithoutStream<&cpu::check_indices>::call,
    .gather = WithoutStream<&cpu::gather>::call,
    .scatter = WithoutStream<&cpu::scatter>::call,
    .nonzero = WithoutStream<&cpu::nonzero>::call,
    .pad = WithoutStream<&cpu::pad>::call,
    .pad_backward = WithoutStream<&cpu::pad_backward>::call,
    .uniform = WithoutStream<&cpu::uniform>::call,
    .normal = WithoutStream<&cpu::normal>::call,
    .random_integers = WithoutStream<&cpu::random_integers>::call,
    .bernoulli = WithoutStream<&cpu::bernoulli>::call,
    .randperm = WithoutStream<&cpu::randperm>::call,
    .sum = WithoutStream<&cpu::sum>::call,
    .two_norm = WithoutStream<&cpu::two_norm>::call,
    .prod = WithoutStream<&cpu::prod>::call,
    .prod_backward = WithoutStream<&cpu::prod_backward>::call,
    .extremum = WithoutStream<&cpu::extremum>::call,
    .scatter_reduced = WithoutStream<&cpu::scatter_reduced>::call,
    .moments = WithoutStream<&cpu::moments>::call,
    .logsumexp = WithoutStream<&cpu::logsumexp>::call,
    .softmax = WithoutStream<&cpu::softmax>::call,
    .softmax_backward = WithoutStream<&cpu::softmax_backward>::call,
    .scan = WithoutStream<&cpu::scan>::call,
    .sort = WithoutStream<&cpu::sort>::call,
    .layer_norm = WithoutStream<&cpu::layer_norm>::call,
    .layer_norm_backward = WithoutStream<&cpu::layer_norm_backward>::call,
    .lstm_cell = WithoutStream<&cpu::lstm_cell>::call,
    .lstm_cell_backward = WithoutStream<&cpu::lstm_cell_backward>::call,
    .gru_cell = WithoutStream<&cpu::gru_cell>::call,
    .gru_cell_backward = WithoutStream<&cpu::gru_cell_backward>::call,
    .batch_norm_statistics = WithoutStream<&cpu::batch_norm_statistics>::call,
    .batch_norm_normalize = WithoutStream<&cpu::batch_norm_normalize>::call,
    .batch_norm_backward_reduce = WithoutStream<&cpu::batch_norm_backward_reduce>::call,
    .batch_norm_backward_input = WithoutStream<&cpu::batch_norm_backward_input>::call,
    .cross_entropy_forward = WithoutStream<&cpu::cross_entropy_forward>::call,
    .cross_entropy_backward = WithoutStream<&cpu::cross_entropy_backward>::call,
    .gemm = WithoutStream<&cpu::gemm>::call,
    .gemm_takes_16bit_floats = false,
    .im2col = WithoutStream<&cpu::im2col>::call,
    .col2im = WithoutStream<&cpu::col2im>::call,
    .conv2d = WithoutStream<&cpu::conv2d>::call,
    .conv2d_input_grad = WithoutStream<&cpu::conv2d_input_grad>::call,
    .conv2d_weight_grad = WithoutStream<&cpu::conv2d_weight_grad>::call,
    .max_pool2d = WithoutStream<&cpu::max_pool2d>::call,
    .max_pool2d_backward = WithoutStream<&cpu::max_pool2d_backward>::call,
    .avg_pool2d = WithoutStream<&cpu::avg_pool2d>::call,
    .avg_pool2d_backward = WithoutStream<&cpu::avg_pool2d_backward>::call,
    .grid_sample_taps = WithoutStream<&cpu::grid_sample_taps>::call,
    .tap_sample = WithoutStream<&cpu::tap_sample>::call,
    .tap_sample_backward = WithoutStream<&cpu::tap_sample_backward>::call,
    .sgd_step = WithoutStream<&cpu::sgd_step>::call,
    .adam_step = WithoutStream<&cpu::adam_step>::call,
    .rmsprop_step = WithoutStream<&cpu::rmsprop_step>::call,
    .adagrad_step = WithoutStream<&cpu::adagrad_step>::call,
    .unscale_gradient = WithoutStream<&cpu::unscale_gradient>::call,
};

}  // namespace accel
