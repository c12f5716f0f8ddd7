// The autograd engine: graph shapes (diamonds, reuse), what gets computed, accumulation in
// place, retain_graph, hooks and callbacks, version-counter checks, grad(), and lifetimes.
#include <gtest/gtest.h>

#include "accel/accel.h"
#include "accel/core/autograd/function.h"
#include "support/expect_error.h"

namespace accel {
namespace {

Tensor leaf(std::initializer_list<double> values) { return tensor(values).requires_grad_(); }

TEST(Autograd, ScalarBackwardAndDiamond) {
  Tensor x = leaf({2.0});
  Tensor a = x * 3;
  Tensor b = x * x;
  Tensor y = a * b;  // 3x^3 -> dy/dx = 9x^2 = 36
  y.backward();
  EXPECT_DOUBLE_EQ(x.grad().item<double>(), 36.0);
}

// In-place methods work on const handles, as LibTorch's: the common `x.grad().zero_()`.
TEST(Autograd, GradientsAreZeroedInPlaceThroughTheirConstHandle) {
  Tensor w = ones({3}).requires_grad_();
  (w * 2).sum().backward();
  const Tensor& grad = w.grad();
  grad.mul_(0.5).add_(1);
  EXPECT_TRUE(w.grad().equal(full({3}, 2.f)));
  w.grad().zero_();
  EXPECT_TRUE(w.grad().equal(zeros({3})));
}

TEST(Autograd, ReusedSubgraphSumsContributions) {
  Tensor x = leaf({1.0, 2.0});
  Tensor h = x * x;
  Tensor y = (h + h + h).sum();  // 3x^2 -> 6x
  y.backward();
  EXPECT_DOUBLE_EQ(x.grad()[1].item<double>(), 12.0);
}

TEST(Autograd, NonScalarNeedsGradient) {
  Tensor x = leaf({1.0, 2.0});
  Tensor y = x * 2;
  testing::expect_error_containing([&] { y.backward(); },
                                   "implicitly created only for scalar outputs");
  y.backward(tensor({1.0, 0.5}));
  EXPECT_DOUBLE_EQ(x.grad()[1].item<double>(), 1.0);
}

TEST(Autograd, GradientShapeMustMatch) {
  Tensor x = leaf({1.0, 2.0});
  testing::expect_error_containing([&] { (x * 2).backward(tensor({1.0})); },
                                   "does not match the output's shape");
}

TEST(Autograd, BackwardWithoutGradFnFails) {
  Tensor x = tensor({1.0});
  testing::expect_error_containing([&] { x.backward(); }, "does not require grad");
}

TEST(Autograd, AccumulatesInPlaceAcrossBackwards) {
  Tensor x = leaf({1.0, 2.0});
  (x * 3).sum().backward();
  const void* storage = x.grad().data_ptr();
  (x * 3).sum().backward();
  EXPECT_EQ(x.grad().data_ptr(), storage);
  EXPECT_DOUBLE_EQ(x.grad()[0].item<double>(), 6.0);
}

TEST(Autograd, PreallocatedGradKeepsItsStorage) {
  Tensor x = leaf({1.0, 2.0});
  Tensor buffer = zeros({2}, kFloat64);
  x.set_grad(buffer);
  (x * 5).sum().backward();
  EXPECT_TRUE(x.grad().is_same(buffer));
  EXPECT_DOUBLE_EQ(buffer[1].item<double>(), 5.0);
}

TEST(Autograd, SecondBackwardNeedsRetainGraph) {
  Tensor x = leaf({3.0});
  Tensor y = (x * x).sum();
  y.backward({}, /*retain_graph=*/true);
  y.backward();
  EXPECT_DOUBLE_EQ(x.grad().item<double>(), 12.0);
  testing::expect_error_containing([&] { y.backward(); },
                                   "backward through the graph a second time");
}

TEST(Autograd, NoGradGuardStopsRecording) {
  Tensor x = leaf({1.0});
  Tensor y;
  {
    NoGradGuard guard;
    EXPECT_FALSE(GradMode::is_enabled());
    y = x * 2;
  }
  EXPECT_TRUE(GradMode::is_enabled());
  EXPECT_FALSE(y.requires_grad());
  EXPECT_TRUE(y.is_leaf());
}

TEST(Autograd, RequiresGradPropagatesAndDetachCuts) {
  Tensor x = leaf({1.0});
  Tensor c = tensor({2.0});
  Tensor y = x * c;
  EXPECT_TRUE(y.requires_grad());
  EXPECT_FALSE(y.is_leaf());
  Tensor d = y.detach();
  EXPECT_FALSE(d.requires_grad());
  EXPECT_EQ(d.data_ptr(), y.data_ptr());
  EXPECT_FALSE((c * 2).requires_grad());
}

TEST(Autograd, OnlyFloatingTensorsRequireGrad) {
  testing::expect_error_containing(
      [] {
        tensor({1, 2}).requires_grad_();
      },
      "only floating point tensors");
}

TEST(Autograd, UnneededInputGradientsAreNotComputed) {
  // x needs no gradient: a node with x as input is told so and leaves its slot undefined.
  Tensor x = tensor({1.0, 2.0});
  Tensor w = leaf({3.0, 4.0});
  bool asked_for_x = true;
  Tensor z = zeros({2}, kFloat64);
  autograd::record("probe", {x, w}, z, [&](const Tensor& grad, autograd::GradInputs& in) {
    asked_for_x = in.needs(0);
    if (in.needs(1)) in[1] = grad * 2;
  });
  z.sum().backward();
  EXPECT_FALSE(asked_for_x);
  EXPECT_FALSE(x.grad().defined());
  EXPECT_DOUBLE_EQ(w.grad()[0].item<double>(), 2.0);
}

TEST(Autograd, TensorHookCanReplaceGradient) {
  Tensor x = leaf({1.0});
  Tensor h = x * 2;
  h.register_hook([](const Tensor& g) { return g * 10; });
  (h * 3).sum().backward();
  EXPECT_DOUBLE_EQ(x.grad().item<double>(), 60.0);
}

TEST(Autograd, LeafHookRunsBeforeAccumulation) {
  Tensor x = leaf({1.0});
  x.register_hook([](const Tensor& g) { return g * 0.5; });
  (x * 4).sum().backward();
  EXPECT_DOUBLE_EQ(x.grad().item<double>(), 2.0);
}

TEST(Autograd, PostAccumulateHookSeesAccumulatedGrad) {
  Tensor x = leaf({1.0});
  double seen = 0;
  x.register_post_accumulate_grad_hook([&](const Tensor& t) { seen = t.grad().item<double>(); });
  (x * 7).sum().backward();
  EXPECT_DOUBLE_EQ(seen, 7.0);
  testing::expect_error_containing(
      [] { (leaf({1.0}) * 2).register_post_accumulate_grad_hook([](const Tensor&) {}); },
      "leaf tensors");
}

TEST(Autograd, QueuedCallbackRunsAfterAllAccumulations) {
  Tensor a = leaf({1.0});
  Tensor b = leaf({2.0});
  std::vector<std::string> events;
  a.register_post_accumulate_grad_hook([&](const Tensor&) {
    events.push_back("a");
    autograd::queue_callback(
        [&] { events.push_back(b.grad().defined() ? "callback after b" : "callback before b"); });
  });
  b.register_post_accumulate_grad_hook([&](const Tensor&) { events.push_back("b"); });
  (a * b).sum().backward();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events.back(), "callback after b");
  testing::expect_error_containing([] { autograd::queue_callback([] {}); },
                                   "while a backward pass runs");
}

TEST(Autograd, ModifiedSavedTensorIsReported) {
  Tensor x = leaf({1.0, 2.0});
  Tensor h = x * 2;
  Tensor y = h * h;  // saves h
  h.add_(1.0);
  testing::expect_error_containing([&] { y.sum().backward(); }, "mul");
  try {
    y.sum().backward();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("modified by an in-place operation"), std::string::npos);
  }
}

TEST(Autograd, InPlaceOnLeafRequiringGradFails) {
  Tensor x = leaf({1.0});
  testing::expect_error_containing([&] { x.add_(1.0); }, "leaf tensor that requires grad");
  NoGradGuard guard;
  x.add_(1.0);  // allowed outside grad mode (optimizer updates)
  EXPECT_DOUBLE_EQ(x.item<double>(), 2.0);
}

TEST(Autograd, InPlaceOnNonLeafRecordsHistory) {
  Tensor x = leaf({1.0, 2.0});
  Tensor h = x * 1;
  h.mul_(3.0);
  h.add_(x);
  h.sum().backward();  // h = 3x + x
  EXPECT_DOUBLE_EQ(x.grad()[0].item<double>(), 4.0);
}

TEST(Autograd, InPlaceMulByTensorUsesOriginalValues) {
  Tensor x = leaf({1.0, 2.0});
  Tensor w = leaf({3.0, 4.0});
  Tensor h = x * 1;
  h.mul_(w);
  h.div_(w * 2);
  h.sum().backward();  // h = x * w / (2w) = x / 2
  EXPECT_DOUBLE_EQ(x.grad()[0].item<double>(), 0.5);
  EXPECT_NEAR(w.grad()[1].item<double>(), 0.0, 1e-15);
}

TEST(Autograd, GradFunctionReturnsWithoutAccumulating) {
  Tensor x = leaf({1.0, 2.0});
  Tensor y = (x * x).sum();
  const Tensor outs[] = {y};
  const Tensor ins[] = {x};
  std::vector<Tensor> g = autograd::grad(outs, ins);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_DOUBLE_EQ(g[0][1].item<double>(), 4.0);
  EXPECT_FALSE(x.grad().defined());
}

TEST(Autograd, GradOfNonLeafInput) {
  Tensor x = leaf({1.0, 2.0});
  Tensor h = x * 3;
  Tensor y = (h * h).sum();
  const Tensor outs[] = {y};
  const Tensor ins[] = {h};
  std::vector<Tensor> g = autograd::grad(outs, ins);
  EXPECT_DOUBLE_EQ(g[0][1].item<double>(), 12.0);  // 2h
  EXPECT_FALSE(x.grad().defined());
}

TEST(Autograd, GradReportsUnusedInputs) {
  Tensor x = leaf({1.0});
  Tensor unused = leaf({1.0});
  Tensor y = (x * 2).sum();
  const Tensor outs[] = {y};
  const Tensor ins[] = {unused};
  testing::expect_error_containing([&] { autograd::grad(outs, ins, {}, true); }, "not used");
  EXPECT_FALSE(autograd::grad(outs, ins, {}, true, /*allow_unused=*/true)[0].defined());
}

TEST(Autograd, RetainGradKeepsNonLeafGradient) {
  Tensor x = leaf({1.0, 2.0});
  Tensor h = x * 2;
  h.retain_grad();
  (h * h).sum().backward();
  EXPECT_DOUBLE_EQ(h.grad()[1].item<double>(), 8.0);
}

TEST(Autograd, GraphIsFreedWithItsTensors) {
  std::weak_ptr<autograd::Node> node;
  std::weak_ptr<TensorImpl> saved_input;
  {
    Tensor x = leaf({1.0, 2.0});
    Tensor h = x.exp();  // saves its own output: must not form a cycle
    Tensor y = (h * x).sum();
    node = y.grad_fn();
    saved_input = h.impl_ptr();
    EXPECT_FALSE(node.expired());
  }
  EXPECT_TRUE(node.expired());
  EXPECT_TRUE(saved_input.expired());
}

TEST(Autograd, LeafOutlivedByGraphIsSkipped) {
  Tensor y;
  {
    Tensor x = leaf({1.0});
    y = (x * 2).sum();
  }
  EXPECT_NO_THROW(y.backward());
}

TEST(Autograd, BroadcastGradientsReduceToInputShape) {
  Tensor a = zeros({2, 3}, kFloat64).requires_grad_();
  Tensor b = zeros({3}, kFloat64).requires_grad_();
  (a + b).sum().backward();
  EXPECT_EQ(b.grad().sizes(), IntArrayRef({3}));
  EXPECT_DOUBLE_EQ(b.grad()[0].item<double>(), 2.0);
}

TEST(Autograd, ToDtypeIsDifferentiable) {
  Tensor x = tensor({1.5f, 2.5f}).requires_grad_();
  Tensor y = x.to(kFloat64) * 2;
  y.sum().backward();
  EXPECT_EQ(x.grad().dtype(), kFloat32);
  EXPECT_FLOAT_EQ(x.grad()[0].item<float>(), 2.f);
}

}  // namespace
}  // namespace accel
