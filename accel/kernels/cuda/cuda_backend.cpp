// The CUDA kernel table: every family of kernels/backend.h bound to its CUDA kernel. Each
// kernel runs on the stream it is given, asynchronously to the host.
#include "accel/kernels/cuda/cuda_backend.h"

#include "accel/kernels/cuda/activation.h"
#include "accel/kernels/cuda/batch_norm.h"
#include "accel/kernels/cuda/binary.h"
#include "accel/kernels/cuda/copy.h"
#include "accel/kernels/cuda/cross_entropy.h"
#include "accel/kernels/cuda/gemm.h"
#include "accel/kernels/cuda/im2col.h"
#include "accel/kernels/cuda/index.h"
#include "accel/kernels/cuda/layer_norm.h"
#include "accel/kernels/cuda/nonzero.h"
#include "accel/kernels/cuda/optimizer_step.h"
#include "accel/kernels/cuda/pad.h"
#include "accel/kernels/cuda/pooling.h"
#include "accel/kernels/cuda/random.h"
#include "accel/kernels/cuda/recurrent_cell.h"
#include "accel/kernels/cuda/reduce.h"
#include "accel/kernels/cuda/sampling.h"
#include "accel/kernels/cuda/scan.h"
#include "accel/kernels/cuda/sort.h"
#include "accel/kernels/cuda/unary.h"
#include "accel/kernels/cuda/where.h"

namespace accel {

constinit const Backend kCudaBackend = {
    .copy = cuda::copy,
    .fill = cuda::fill,
    .unary = cuda::unary,
    .unary_backward = cuda::unary_backward,
    .clamp = cuda::clamp,
    .clamp_backward = cuda::clamp_backward,
    .activation = cuda::activation,
    .activation_backward = cuda::activation_backward,
    .binary = cuda::binary,
    .where = cuda::where,
    .fill_where = cuda::fill_where,
    .all_close = cuda::all_close,
    .check_indices = cuda::check_indices,
    .gather = cuda::gather,
    .scatter = cuda::scatter,
    .nonzero = cuda::nonzero,
    .pad = cuda::pad,
    .pad_backward = cuda::pad_backward,
    .uniform = cuda::uniform,
    .normal = cuda::normal,
    .random_integers = cuda::random_integers,
    .bernoulli = cuda::bernoulli,
    .randperm = cuda::randperm,
    .sum = cuda::sum,
    .two_norm = cuda::two_norm,
    .prod = cuda::prod,
    .prod_backward = cuda::prod_backward,
    .extremum = cuda::extremum,
    .scatter_reduced = cuda::scatter_reduced,
    .moments = cuda::moments,
    .logsumexp = cuda::logsumexp,
    .softmax = cuda::softmax,
    .softmax_backward = cuda::softmax_backward,
    .scan = cuda::scan,
    .sort = cuda::sort,
    .layer_norm = cuda::layer_norm,
    .layer_norm_backward = cuda::layer_norm_backward,
    .lstm_cell = cuda::lstm_cell,
    .lstm_cell_backward = cuda::lstm_cell_backward,
    .gru_cell = cuda::gru_cell,
    .gru_cell_backward = cuda::gru_cell_backward,
    .batch_norm_statistics = cuda::batch_norm_statistics,
    .batch_norm_normalize = cuda::batch_norm_normalize,
    .batch_norm_backward_reduce = cuda::batch_norm_backward_reduce,
    .batch_norm_backward_input = cuda::batch_norm_backward_input,
    .cross_entropy_forward = cuda::cross_entropy_forward,
    .cross_entropy_backward = cuda::cross_entropy_backward,
    .gemm = cuda::gemm,
    .gemm_takes_16bit_floats = true,
    .im2col = cuda::im2col,
    .col2im = cuda::col2im,
    .conv2d = nullptr,  // whole-batch products suit the GPU: the ops unfold every image at once
    .conv2d_input_grad = nullptr,
    .conv2d_weight_grad = nullptr,
    .max_pool2d = cuda::max_pool2d,
    .max_pool2d_backward = cuda::max_pool2d_backward,
    .avg_pool2d = cuda::avg_pool2d,
    .avg_pool2d_backward = cuda::avg_pool2d_backward,
    .grid_sample_taps = cuda::grid_sample_taps,
    .tap_sample = cuda::tap_sample,
    .tap_sample_backward = cuda::tap_sample_backward,
    .sgd_step = cuda::sgd_step,
    .adam_step = cuda::adam_step,
    .rmsprop_step = cuda::rmsprop_step,
    .adagrad_step = cuda::adagrad_step,
    .unscale_gradient = cuda::unscale_gradient,
};

}  // namespace accel
