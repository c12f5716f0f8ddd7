// Tensors and an optimizer's state kept in static storage made before accel's first
// allocation, so that they are destroyed after anything accel created later: the program must
// exit cleanly (the sanitizer builds also check that nothing is freed twice or after its
// allocator).
#include <accel/accel.h>

#include <cstdio>
#include <vector>

namespace {

std::vector<accel::Tensor>& kept_tensors() {
  static std::vector<accel::Tensor> kept;  // constructed before any tensor exists
  return kept;
}

}  // namespace

int main() {
  using namespace accel;
  std::vector<Tensor>& kept = kept_tensors();
  for (int i = 0; i < 3; ++i) {
    Tensor w = ones({1}).requires_grad_();
    kept.push_back(w);
    optim::SGD optimizer({w}, optim::SGDOptions(0.1).momentum(0.9));
    (w * 2).sum().backward();
    optimizer.step();  // its momentum buffer goes back to the allocator's cache here
  }
  std::puts("exiting with static tensors alive");
  return 0;
}
