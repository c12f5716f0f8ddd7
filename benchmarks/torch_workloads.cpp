// LibTorch's adapter for the workloads in workloads.h, built when CMake finds LibTorch, so
// the summary prints accel and LibTorch from the same run side by side.
#include <torch/torch.h>

#include "workloads.h"

namespace {

struct LibTorch {
  using Sequential = torch::nn::Sequential;
  using Conv2d = torch::nn::Conv2d;
  using Conv2dOptions = torch::nn::Conv2dOptions;
  using MaxPool2d = torch::nn::MaxPool2d;
  using MaxPool2dOptions = torch::nn::MaxPool2dOptions;
  using ReLU = torch::nn::ReLU;
  using Flatten = torch::nn::Flatten;
  using Linear = torch::nn::Linear;
  using LayerNorm = torch::nn::LayerNorm;
  using LayerNormOptions = torch::nn::LayerNormOptions;
  using BatchNorm2d = torch::nn::BatchNorm2d;
  using LSTM = torch::nn::LSTM;
  using GRU = torch::nn::GRU;
  using MultiheadAttention = torch::nn::MultiheadAttention;
  using Adam = torch::optim::Adam;
  using AdamOptions = torch::optim::AdamOptions;

  static void set_num_threads(int n) { torch::set_num_threads(n); }
  static torch::Tensor ones(int64_t numel) { return torch::ones({numel}); }
  static torch::Tensor randn(torch::IntArrayRef sizes) { return torch::randn(sizes); }
  static torch::Tensor rand(torch::IntArrayRef sizes) { return torch::rand(sizes); }
  static torch::Tensor randint(int64_t high, int64_t n) { return torch::randint(high, {n}); }
  static torch::Tensor matmul(const torch::Tensor& a, const torch::Tensor& b) {
    return torch::matmul(a, b);
  }
  static torch::Tensor embedding(const torch::Tensor& indices, const torch::Tensor& table) {
    return torch::nn::functional::embedding(indices, table);
  }
  static torch::Tensor reflect_pad(const torch::Tensor& x, int64_t amount) {
    return torch::nn::functional::pad(
        x, torch::nn::functional::PadFuncOptions({amount, amount, amount, amount})
               .mode(torch::kReflect));
  }
  static torch::Tensor global_avg_pool(const torch::Tensor& x) {
    return torch::adaptive_avg_pool2d(x, {1, 1});
  }
  static auto unique(const torch::Tensor& x) { return torch::_unique2(x, true, true, true); }
  static torch::Tensor searchsorted(const torch::Tensor& sorted, const torch::Tensor& values) {
    return torch::searchsorted(sorted, values);
  }
  static torch::Tensor eye(int64_t n) { return torch::eye(n); }
  static torch::Tensor affine_grid(const torch::Tensor& theta, torch::IntArrayRef size) {
    return torch::nn::functional::affine_grid(theta, size);
  }
  static torch::Tensor grid_sample(const torch::Tensor& input, const torch::Tensor& grid) {
    return torch::nn::functional::grid_sample(
        input, grid, torch::nn::functional::GridSampleFuncOptions().align_corners(false));
  }
  static torch::Tensor solve(const torch::Tensor& a, const torch::Tensor& b) {
    return torch::linalg_solve(a, b);
  }
  static torch::Tensor cholesky(const torch::Tensor& a) { return torch::linalg_cholesky(a); }
  static auto qr(const torch::Tensor& a) { return torch::linalg_qr(a); }
  static auto eigh(const torch::Tensor& a) { return torch::linalg_eigh(a); }
  static auto svd(const torch::Tensor& a) { return torch::linalg_svd(a, false); }
  static torch::Tensor inv(const torch::Tensor& a) { return torch::linalg_inv(a); }
  static torch::Tensor cross_entropy(const torch::Tensor& logits, const torch::Tensor& target) {
    return torch::nn::functional::cross_entropy(logits, target);
  }
};

}  // namespace

void bench::register_libtorch() { register_workloads<LibTorch>(kLibTorch); }
