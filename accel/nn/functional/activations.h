// torch.nn.functional's activation functions. The element-wise ones are core ops (ops.h and
// core/activation.h) and appear here under their F:: names; prelu, rrelu, glu and softmin
// compose core ops, which supply their gradients.
#pragma once

#include "accel/core/activation.h"
#include "accel/core/ops.h"
#include "accel/core/random.h"
#include "accel/core/tensor.h"

namespace accel::nn::functional {

using ::accel::celu;
using ::accel::elu;
using ::accel::gelu;
using ::accel::hardshrink;
using ::accel::hardsigmoid;
using ::accel::hardswish;
using ::accel::hardtanh;
using ::accel::leaky_relu;
using ::accel::log_softmax;
using ::accel::mish;
using ::accel::relu;
using ::accel::relu6;
using ::accel::selu;
using ::accel::sigmoid;
using ::accel::silu;
using ::accel::softmax;
using ::accel::softplus;
using ::accel::softshrink;
using ::accel::softsign;
using ::accel::tanh;
using ::accel::tanhshrink;
using ::accel::threshold;

// log(sigmoid(x)) (torch's log_sigmoid under its functional name).
Tensor logsigmoid(const Tensor& input);

// x where x > 0, else weight * x: one slope for all (weight of one element) or one per channel
// (weight of C elements for an input [N, C, ...]).
Tensor prelu(const Tensor& input, const Tensor& weight);

// leaky_relu whose negative slope is drawn uniformly from [lower, upper] for every element in
// training, and is (lower + upper) / 2 otherwise.
Tensor rrelu(const Tensor& input, double lower = 1.0 / 8, double upper = 1.0 / 3,
             bool training = false, Generator* generator = nullptr);

// a * sigmoid(b), where a and b are the two halves of input along dim (whose size must be even).
Tensor glu(const Tensor& input, int64_t dim = -1);

// softmax(-x) along dim.
Tensor softmin(const Tensor& input, int64_t dim);

}  // namespace accel::nn::functional

namespace accel {
namespace F = nn::functional;
}  // namespace accel
