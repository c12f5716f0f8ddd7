// accel's adapter for the workloads in workloads.h: the names and functions the templates
// expect of a library (the data-parallel benchmark builds its small CNN through it too).
#pragma once

#include "accel/accel.h"

namespace bench {

struct Accel {
  using Sequential = accel::nn::Sequential;
  using Conv2d = accel::nn::Conv2d;
  using Conv2dOptions = accel::nn::Conv2dOptions;
  using MaxPool2d = accel::nn::MaxPool2d;
  using MaxPool2dOptions = accel::nn::MaxPool2dOptions;
  using ReLU = accel::nn::ReLU;
  using Flatten = accel::nn::Flatten;
  using Linear = accel::nn::Linear;
  using LayerNorm = accel::nn::LayerNorm;
  using LayerNormOptions = accel::nn::LayerNormOptions;
  using BatchNorm2d = accel::nn::BatchNorm2d;
  using LSTM = accel::nn::LSTM;
  using GRU = accel::nn::GRU;
  using MultiheadAttention = accel::nn::MultiheadAttention;
  using Adam = accel::optim::Adam;
  using AdamOptions = accel::optim::AdamOptions;

  static void set_num_threads(int n) { accel::set_num_threads(n); }
  static accel::Tensor ones(int64_t numel) { return accel::ones({numel}); }
  static accel::Tensor randn(accel::IntArrayRef sizes) { return accel::randn(sizes); }
  static accel::Tensor rand(accel::IntArrayRef sizes) { return accel::rand(sizes); }
  static accel::Tensor randint(int64_t high, int64_t n) { return accel::randint(high, {n}); }
  static accel::Tensor matmul(const accel::Tensor& a, const accel::Tensor& b) {
    return accel::matmul(a, b);
  }
  static accel::Tensor embedding(const accel::Tensor& indices, const accel::Tensor& table) {
    return accel::F::embedding(indices, table);
  }
  static accel::Tensor reflect_pad(const accel::Tensor& x, int64_t amount) {
    return accel::F::pad(x, accel::F::PadFuncOptions({amount, amount, amount, amount})
                                .mode(accel::F::PadMode::Reflect));
  }
  static accel::Tensor global_avg_pool(const accel::Tensor& x) {
    return accel::adaptive_avg_pool2d(x, {1, 1});
  }
  static auto unique(const accel::Tensor& x) { return accel::unique(x, true, true, true); }
  static accel::Tensor searchsorted(const accel::Tensor& sorted, const accel::Tensor& values) {
    return accel::searchsorted(sorted, values);
  }
  static accel::Tensor eye(int64_t n) { return accel::eye(n); }
  static accel::Tensor affine_grid(const accel::Tensor& theta, accel::IntArrayRef size) {
    return accel::F::affine_grid(theta, size);
  }
  static accel::Tensor grid_sample(const accel::Tensor& input, const accel::Tensor& grid) {
    return accel::F::grid_sample(input, grid);
  }
  static accel::Tensor solve(const accel::Tensor& a, const accel::Tensor& b) {
    return accel::linalg::solve(a, b);
  }
  static accel::Tensor cholesky(const accel::Tensor& a) { return accel::linalg::cholesky(a); }
  static auto qr(const accel::Tensor& a) { return accel::linalg::qr(a); }
  static auto eigh(const accel::Tensor& a) { return accel::linalg::eigh(a); }
  static auto svd(const accel::Tensor& a) { return accel::linalg::svd(a, false); }
  static accel::Tensor inv(const accel::Tensor& a) { return accel::linalg::inv(a); }
  static accel::Tensor cross_entropy(const accel::Tensor& logits, const accel::Tensor& target) {
    return accel::nn::functional::cross_entropy(logits, target);
  }
};

}  // namespace bench
