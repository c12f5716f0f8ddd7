// The consumer program of the packaging tests: it includes only the umbrella header, builds a
// small graph and checks its gradient, proving headers, library and dependencies all resolve.
#include <accel/accel.h>

#include <cmath>
#include <cstdio>

int main() {
  using namespace accel;
  Tensor x = arange(6, kFloat64).view({2, 3});
  x.requires_grad_();
  Tensor y = (x * x + x * 2.0).sum();
  y.backward();

  // y = sum(x^2 + 2x) over x = 0..5 is 55 + 30; dy/dx = 2x + 2.
  Tensor grad = x.grad().contiguous();
  bool ok = y.item<double>() == 85.0 && grad.sizes() == x.sizes();
  for (int64_t i = 0; i < grad.numel(); ++i) {
    ok = ok && std::fabs(grad.data_ptr<double>()[i] - (2.0 * static_cast<double>(i) + 2.0)) < 1e-12;
  }
  std::printf("accel consumer: y = %g, gradient %s, CUDA compiled in: %s\n", y.item<double>(),
              ok ? "correct" : "WRONG", cuda::is_compiled() ? "yes" : "no");
  return ok ? 0 : 1;
}
