// A sweep of common ops at one size each (float32, [1024, 1024] matrices, [32, 64, 32, 32]
// images), timed as eager PyTorch's twin (benchmarks/pytorch/op_sweep.py) times them:
// each op's median time per call over 7 rounds of at least 50 ms. benchmarks/op_sweep.sh
// prints both side by side. Usage: op_sweep_bench [THREADS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "accel/accel.h"

namespace {

using namespace accel;

void time_op(const char* name, const std::function<void()>& op) {
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < 3; ++i) op();
  std::vector<double> per_call;
  for (int round = 0; round < 7; ++round) {
    int calls = 0;
    const auto start = Clock::now();
    double elapsed = 0;
    do {
      op();
      ++calls;
      elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < 0.05);
    per_call.push_back(elapsed / calls * 1e6);
  }
  std::sort(per_call.begin(), per_call.end());
  std::printf("%-24s %10.1f\n", name, per_call[3]);
}

// x with a fresh gradient, so that every call's backward starts from none.
Tensor leaf(const Tensor& x) { return x.detach().requires_grad_(); }

}  // namespace

int main(int argc, char** argv) {
  set_num_threads(argc > 1 ? std::atoi(argv[1]) : 1);
  manual_seed(0);
  const Tensor x = randn({1024, 1024}), y = randn({1024, 1024});
  const Tensor mask = x > 0.5;
  const Tensor rows = randint(0, 1024, {4096});
  const Tensor positions = randint(0, 1024, {1024, 1024});
  const Tensor images = randn({32, 64, 32, 32});
  const Tensor table = randn({10000, 256});
  const Tensor tokens = randint(0, 10000, {64, 128});
  const Tensor labels = randint(0, 1000, {1 << 20});
  const auto bilinear =
      F::InterpolateFuncOptions().scale_factor({2.0, 2.0}).mode(F::InterpolateMode::Bilinear);
  const auto reflect = F::PadFuncOptions({1, 1, 1, 1}).mode(F::PadMode::Reflect);
  std::printf("op  median us per call, %d threads\n", get_num_threads());
  time_op("sum", [&] { (void)x.sum(); });
  time_op("sum_dim0", [&] { (void)x.sum(0); });
  time_op("max_dim1", [&] { (void)std::get<0>(x.max(1)); });
  time_op("argmax_dim1", [&] { (void)x.argmax(1); });
  time_op("var_dim1", [&] { (void)x.var(1); });
  time_op("norm", [&] { (void)x.norm(); });
  time_op("softmax", [&] { (void)x.softmax(1); });
  time_op("log_softmax", [&] { (void)x.log_softmax(1); });
  time_op("mul_broadcast_row", [&] { (void)(x * x[0]); });
  time_op("div", [&] { (void)(x / y); });
  time_op("sqrt", [&] { (void)y.abs().sqrt(); });
  time_op("clamp", [&] { (void)x.clamp(-0.5, 0.5); });
  time_op("where", [&] { (void)where(mask, x, y); });
  time_op("masked_fill", [&] { (void)x.masked_fill(mask, 0.0); });
  time_op("masked_select", [&] { (void)x.masked_select(mask); });
  time_op("bool_index", [&] { (void)x.index({mask}); });
  time_op("nonzero", [&] { (void)mask.nonzero(); });
  time_op("index_select0", [&] { (void)x.index_select(0, rows); });
  time_op("gather1", [&] { (void)x.gather(1, positions); });
  time_op("scatter_add1", [&] { (void)x.scatter_add(1, positions, y); });
  time_op("index_add0", [&] { (void)x.index_add(0, rows.narrow(0, 0, 1024), y); });
  time_op("cat1", [&] { (void)cat({x, y}, 1); });
  time_op("permute_copy", [&] { (void)images.permute({0, 2, 3, 1}).contiguous(); });
  time_op("cumsum_dim0", [&] { (void)x.cumsum(0); });
  time_op("topk_dim1_k10", [&] { (void)std::get<0>(x.topk(10, 1)); });
  time_op("sort_dim1", [&] { (void)std::get<0>(x.sort(1)); });
  time_op("avg_pool2d", [&] { (void)avg_pool2d(images, {2, 2}); });
  time_op("global_avg_pool", [&] { (void)adaptive_avg_pool2d(images, {1, 1}); });
  time_op("interp_bilinear2x", [&] { (void)F::interpolate(images, bilinear); });
  time_op("pad_reflect", [&] { (void)F::pad(images, reflect); });
  time_op("embedding", [&] { (void)F::embedding(tokens, table); });
  time_op("dropout", [&] { (void)F::dropout(x, 0.5, true); });
  time_op("bincount", [&] { (void)labels.bincount(); });
  time_op("unique", [&] { (void)unique(labels, true, true, true); });
  time_op("one_hot", [&] { (void)F::one_hot(rows, 1024); });
  time_op("bmm", [&] {
    (void)bmm(images.view({32 * 64, 32, 32}), images.view({32 * 64, 32, 32}));
  });
  time_op("group_norm", [&] { (void)F::group_norm(images, 8); });
  time_op("embedding_bwd", [&] { F::embedding(tokens, leaf(table)).sum().backward(); });
  time_op("softmax_bwd", [&] { (leaf(x).softmax(1) * y).sum().backward(); });
  time_op("index_select_bwd", [&] { leaf(x).index_select(0, rows).sum().backward(); });
  time_op("pad_reflect_bwd", [&] { F::pad(leaf(images), reflect).sum().backward(); });
}
