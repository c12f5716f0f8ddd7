// The MNIST example's two models, shared with the benchmark that times their epochs
// (benchmarks/mnist_epoch_bench.cpp).
#pragma once

#include <accel/accel.h>

namespace mnist {

// The quickstart's MLP: 784 → 128 → 64 → 10 with log-probabilities out.
struct MLPImpl : accel::nn::Module {
  accel::nn::Sequential main{accel::nn::Linear(784, 128), accel::nn::ReLU(),
                             accel::nn::Linear(128, 64),  accel::nn::ReLU(),
                             accel::nn::Linear(64, 10),   accel::nn::LogSoftmax(1)};
  MLPImpl() { register_module("main", main); }
  accel::Tensor forward(const accel::Tensor& input) override {
    return main->forward(input.view({input.size(0), -1}));
  }
};
ACCEL_MODULE(MLP);

// Two conv blocks and a classifier head; logits out.
struct CNNImpl : accel::nn::Module {
  accel::nn::Sequential main{accel::nn::Conv2d(accel::nn::Conv2dOptions(1, 32, 3).padding(1)),
                             accel::nn::ReLU(),
                             accel::nn::MaxPool2d(2),
                             accel::nn::Conv2d(accel::nn::Conv2dOptions(32, 64, 3).padding(1)),
                             accel::nn::ReLU(),
                             accel::nn::MaxPool2d(2),
                             accel::nn::Flatten(),
                             accel::nn::Linear(64 * 7 * 7, 128),
                             accel::nn::ReLU(),
                             accel::nn::Linear(128, 10)};
  CNNImpl() { register_module("main", main); }
  accel::Tensor forward(const accel::Tensor& input) override { return main->forward(input); }
};
ACCEL_MODULE(CNN);

}  // namespace mnist
