// The quickstart the README points to: an acceptance test that it compiles with -Wall -Wextra
// -Werror and trains (CTest runs it with ACCEL_LIMIT_BATCHES so it takes seconds).
// clang-format off
#include <accel/accel.h>        // umbrella header; link the CMake target accel::accel
using namespace accel;

struct MNISTModelImpl : nn::Module {
  nn::Sequential main{nn::Linear(784, 128), nn::ReLU(), nn::Linear(128, 64), nn::ReLU(),
                      nn::Linear(64, 10), nn::LogSoftmax(1)};
  MNISTModelImpl() { register_module("main", main); }
  Tensor forward(const Tensor& input) override {
    return main->forward(input.view({input.size(0), -1}));
  }
};
ACCEL_MODULE(MNISTModel);      // holder type, like TORCH_MODULE

int main(int argc, char** argv) {
  std::string data_dir = argc > 1 ? argv[1] : "/usr/share/datasets/fashion-mnist";
  auto dataset = data::MNIST(data_dir, data::MNIST::Split::Train);
  auto [train_dataset, validation_dataset] = data::random_split(dataset, {55000, 5000});
  MNISTModel model;
  auto optimizer = std::make_shared<optim::SGD>(model->parameters(),
                                                optim::SGDOptions(0.001).momentum(0.9));
  Trainer trainer(model, nn::CrossEntropyLoss(), optimizer);
  trainer.train({.train_dataset = train_dataset,
                 .num_epochs = 8,
                 .eval_dataset = validation_dataset,
                 .per_device_batch_size = 32});
}
