// The MNIST example's MLP and CNN epochs in LibTorch (see epochs.h).
#include <torch/torch.h>
#include <torch/version.h>

#include <algorithm>

#include "epochs.h"

namespace bench {
namespace {

template <typename Model, typename Optimizer, typename Loss>
EpochResult epoch(const MnistArrays& data, Model& model, Optimizer& optimizer, int64_t batch_size,
                  std::vector<int64_t> image_shape, Loss loss_of) {
  const int64_t n = data.count;
  image_shape.insert(image_shape.begin(), n);
  const torch::Tensor images =
      torch::from_blob(const_cast<uint8_t*>(data.images), image_shape, torch::kUInt8)
          .to(torch::kFloat) /
      255;
  const torch::Tensor labels =
      torch::from_blob(const_cast<int64_t*>(data.labels), {n}, torch::kInt64).clone();
  return time_epoch(n, [&] {
    const torch::Tensor order = torch::randperm(n);
    double loss_sum = 0;
    for (int64_t first = 0; first < n; first += batch_size) {
      const torch::Tensor index = order.slice(0, first, std::min(first + batch_size, n));
      const torch::Tensor x = images.index_select(0, index);
      const torch::Tensor y = labels.index_select(0, index);
      optimizer.zero_grad();
      const torch::Tensor loss = loss_of(model->forward(x), y);
      loss.backward();
      optimizer.step();
      loss_sum += loss.template item<double>() * static_cast<double>(x.size(0));
    }
    return loss_sum / static_cast<double>(n);
  });
}

}  // namespace

EpochResult libtorch_mlp_epoch(const MnistArrays& data, int threads) {
  torch::set_num_threads(threads);
  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(784, 128), torch::nn::ReLU(),
                              torch::nn::Linear(128, 64), torch::nn::ReLU(),
                              torch::nn::Linear(64, 10), torch::nn::LogSoftmax(1));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.001).momentum(0.9));
  return epoch(
      data, model, optimizer, 32, {784},
      [](const torch::Tensor& out, const torch::Tensor& y) { return torch::nll_loss(out, y); });
}

EpochResult libtorch_cnn_epoch(const MnistArrays& data, int threads) {
  using namespace torch::nn;
  torch::set_num_threads(threads);
  torch::manual_seed(0);
  Sequential model(Conv2d(Conv2dOptions(1, 32, 3).padding(1)), ReLU(), MaxPool2d(2),
                   Conv2d(Conv2dOptions(32, 64, 3).padding(1)), ReLU(), MaxPool2d(2), Flatten(),
                   Linear(64 * 7 * 7, 128), ReLU(), Linear(128, 10));
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(0.001));
  return epoch(data, model, optimizer, 64, {1, 28, 28},
               [](const torch::Tensor& out, const torch::Tensor& y) {
                 return functional::cross_entropy(out, y);
               });
}

const char* libtorch_version() { return TORCH_VERSION; }

}  // namespace bench
