// train_tiny: a two-layer perceptron learns XOR on generated points with accel's tensors,
// autograd and hand-written gradient descent, printing the loss as it falls. Points in
// [-1, 1]^2 are labelled +1 when both coordinates have the same sign, else -1: no straight
// line separates the classes, so the hidden layer must learn features. Takes a fraction of a
// second; exits non-zero when the model fails to learn (CTest runs it as an end-to-end check).
#include <accel/accel.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  using namespace accel;
  manual_seed(0);
  const int64_t n = 512;
  const int64_t hidden = 16;
  const double learning_rate = 0.5;
  const int steps = 400;

  Tensor points = rand({n, 2}) * 2 - 1;
  Tensor same_sign = points.select(1, 0) * points.select(1, 1) > 0;
  Tensor labels = (same_sign.to(kFloat32) * 2 - 1).view({n, 1});

  // PyTorch-style scaled initialization keeps tanh out of saturation at the start.
  Tensor w1 = randn({2, hidden}) * std::sqrt(1.0 / 2);
  Tensor b1 = zeros({hidden});
  Tensor w2 = randn({hidden, 1}) * std::sqrt(1.0 / hidden);
  Tensor b2 = zeros({1});
  std::vector<Tensor> parameters = {w1, b1, w2, b2};
  for (Tensor& p : parameters) p.requires_grad_();

  float loss_value = 0;
  float accuracy = 0;
  for (int step = 0; step <= steps; ++step) {
    Tensor hidden_features = tanh(matmul(points, w1) + b1);
    Tensor predictions = tanh(matmul(hidden_features, w2) + b2);
    Tensor loss = ((predictions - labels) * (predictions - labels)).mean();
    loss.backward();

    NoGradGuard no_grad;  // the update itself is not part of the graph
    for (Tensor& p : parameters) {
      p.sub_(p.grad(), learning_rate);
      p.grad().zero_();
    }
    loss_value = loss.item<float>();
    accuracy = (predictions * labels > 0).to(kFloat32).mean().item<float>();
    if (step % 50 == 0) {
      std::printf("step %3d  loss %.4f  accuracy %5.1f%%\n", step, loss_value, 100 * accuracy);
    }
  }
  const bool learned = loss_value < 0.1f && accuracy > 0.95f;
  std::printf("%s: final loss %.4f, accuracy %.1f%%\n", learned ? "learned XOR" : "FAILED",
              loss_value, 100 * accuracy);
  return learned ? 0 : 1;
}
