// One training epoch of the MNIST example's MLP (784-128-64-10, SGD lr 0.001 momentum 0.9,
// batch 32, shuffled, one thread) on Fashion-MNIST: accel's Trainer, and — when built with
// LibTorch — the same loop written in LibTorch C++, printed side by side (samples/s).
#include <accel/accel.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#ifdef ACCEL_BENCH_WITH_LIBTORCH
#include <torch/torch.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

struct MLPImpl : accel::nn::Module {
  accel::nn::Sequential main{accel::nn::Linear(784, 128), accel::nn::ReLU(),
                             accel::nn::Linear(128, 64),  accel::nn::ReLU(),
                             accel::nn::Linear(64, 10),   accel::nn::LogSoftmax(1)};
  MLPImpl() { register_module("main", main); }
  accel::Tensor forward(const accel::Tensor& x) override {
    return main->forward(x.view({x.size(0), -1}));
  }
};
ACCEL_MODULE(MLP);

double accel_epoch(const accel::data::DatasetPtr& train) {
  using namespace accel;
  manual_seed(0);
  MLP model;
  auto optimizer =
      std::make_shared<optim::SGD>(model->parameters(), optim::SGDOptions(0.001).momentum(0.9));
  Trainer trainer(model, nn::NLLLoss(), optimizer, {});
  const auto start = Clock::now();
  trainer.train({.train_dataset = train, .num_epochs = 1, .per_device_batch_size = 32});
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("accel    train_loss_epoch=%.4f\n",
              trainer.run_history().get_latest_metric("train_loss_epoch"));
  return static_cast<double>(train->size()) / seconds;
}

#ifdef ACCEL_BENCH_WITH_LIBTORCH
// The loop a LibTorch user writes: images converted to float once, a shuffled index per
// epoch, index_select per batch.
double libtorch_epoch(const accel::data::MNIST& mnist) {
  torch::manual_seed(0);
  const int64_t n = mnist.size();
  torch::Tensor images =
      torch::from_blob(mnist.images().data_ptr(), {n, 784}, torch::kUInt8).to(torch::kFloat) / 255;
  torch::Tensor labels = torch::from_blob(mnist.targets().data_ptr(), {n}, torch::kInt64).clone();
  torch::nn::Sequential model(torch::nn::Linear(784, 128), torch::nn::ReLU(),
                              torch::nn::Linear(128, 64), torch::nn::ReLU(),
                              torch::nn::Linear(64, 10), torch::nn::LogSoftmax(1));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.001).momentum(0.9));
  const auto start = Clock::now();
  torch::Tensor order = torch::randperm(n);
  double loss_sum = 0;
  for (int64_t first = 0; first < n; first += 32) {
    torch::Tensor index = order.slice(0, first, std::min(first + 32, n));
    torch::Tensor x = images.index_select(0, index);
    torch::Tensor y = labels.index_select(0, index);
    optimizer.zero_grad();
    torch::Tensor loss = torch::nll_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    loss_sum += loss.item<double>() * static_cast<double>(x.size(0));
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("libtorch train_loss_epoch=%.4f\n", loss_sum / static_cast<double>(n));
  return static_cast<double>(n) / seconds;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "/usr/share/datasets/fashion-mnist";
  accel::set_num_threads(1);
  accel::data::MNIST mnist(dir, accel::data::MNIST::Split::Train);
  const accel::data::DatasetPtr train = accel::data::share(mnist);
  const double accel_rate = accel_epoch(train);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("accel    %8.0f samples/s  (peak RSS so far %.0f MB)\n", accel_rate,
              usage.ru_maxrss / 1024.0);
#ifdef ACCEL_BENCH_WITH_LIBTORCH
  torch::set_num_threads(1);
  const double torch_rate = libtorch_epoch(mnist);
  std::printf("libtorch %8.0f samples/s\naccel / libtorch: %.2fx\n", torch_rate,
              accel_rate / torch_rate);
#else
  std::printf("libtorch not found at build time: no comparison\n");
#endif
}
