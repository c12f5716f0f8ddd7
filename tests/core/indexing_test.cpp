// Tensor::index and index_put_ (Python's x[...]): views from integers, slices, None and
// Ellipsis; integer and bool index tensors with PyTorch's placement of their dims; writes,
// accumulation and gradients; nonzero and masked_select; errors. Expected values from PyTorch
// 2.15 (the expressions are in each comment).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using namespace indexing;
using testing::expect_error_containing;

std::vector<double> values(const Tensor& t) {
  const Tensor c = t.to(kFloat64).contiguous();
  return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}
std::vector<int64_t> shape(const Tensor& t) { return {t.sizes().begin(), t.sizes().end()}; }

const Tensor x = arange(24, kFloat32).view({2, 3, 4});

TEST(Indexing, IntegersSlicesNoneAndEllipsisMakeViews) {
  const Tensor a = x.index({Slice(), 0});  // x[:, 0]
  EXPECT_EQ(shape(a), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(values(a), (std::vector<double>{0, 1, 2, 3, 12, 13, 14, 15}));
  EXPECT_EQ(a.storage(), x.storage());
  const Tensor b = x.index({Slice(1, None), Slice(None, None, 2), -1});  // x[1:, ::2, -1]
  EXPECT_EQ(shape(b), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values(b), (std::vector<double>{15, 23}));
  const Tensor c = x.index({None, Ellipsis, -1});  // x[None, ..., -1]
  EXPECT_EQ(shape(c), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(values(c), (std::vector<double>{3, 7, 11, 15, 19, 23}));
  EXPECT_EQ(shape(x.index({"...", 1})), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(shape(x.index({true})), (std::vector<int64_t>{1, 2, 3, 4}));   // x[True]
  EXPECT_EQ(shape(x.index({false})), (std::vector<int64_t>{0, 2, 3, 4}));  // x[False]
}

TEST(Indexing, IntegerTensorsSelectAndPlaceTheirDimsAsPyTorch) {
  const Tensor d = x.index({Slice(), tensor({2, 0, -1})});  // x[:, [2, 0, -1]]
  EXPECT_EQ(shape(d), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(values(d), (std::vector<double>{8,  9,  10, 11, 0,  1,  2,  3,  8,  9,  10, 11,
                                            20, 21, 22, 23, 12, 13, 14, 15, 20, 21, 22, 23}));
  // x[[[1], [0]], :, [3, 1]]: index tensors broadcast to [2, 2]; dims 0 and 2 are apart, so
  // the broadcast dims come first.
  const Tensor e = x.index({tensor({1, 0}).view({2, 1}), Slice(), tensor({3, 1})});
  EXPECT_EQ(shape(e), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(values(e), (std::vector<double>{15, 19, 23, 13, 17, 21, 3, 7, 11, 1, 5, 9}));
  const Tensor f = x.index({Slice(), tensor({0, 2}), tensor({1, 3})});  // x[:, [0, 2], [1, 3]]
  EXPECT_EQ(shape(f), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(f), (std::vector<double>{1, 11, 13, 23}));
  // Integers select before index tensors apply (PyTorch's rule, unlike NumPy's): in
  // x4[:, [0, 2], :, 1] the index tensor's dim stays in place.
  const Tensor x4 = arange(120, kFloat32).view({2, 3, 4, 5});
  const Tensor g = x4.index({Slice(), tensor({0, 2}), Slice(), 1});
  EXPECT_EQ(shape(g), (std::vector<int64_t>{2, 2, 4}));
  EXPECT_EQ(values(g.index({0})), (std::vector<double>{1, 6, 11, 16, 41, 46, 51, 56}));
  EXPECT_EQ(values(g.index({1, 0})), (std::vector<double>{61, 66, 71, 76}));
  const Tensor h = x4.index({1, tensor({0, 2}), Slice(), 1});
  EXPECT_EQ(shape(h), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(values(h), (std::vector<double>{61, 66, 71, 76, 101, 106, 111, 116}));
  EXPECT_EQ(values(x.index({tensor({1}).to(kInt32), 2, 3})), (std::vector<double>{23}));
}

TEST(Indexing, BoolMasksSelectTheirTrueElements) {
  const Tensor mask = x.index({0}) > 6;
  const Tensor g = x.index({0}).index({mask});  // x[0][x[0] > 6]
  EXPECT_EQ(values(g), (std::vector<double>{7, 8, 9, 10, 11}));
  const Tensor h = x.index({Slice(), mask});  // x[:, m]
  EXPECT_EQ(shape(h), (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(values(h), (std::vector<double>{7, 8, 9, 10, 11, 19, 20, 21, 22, 23}));
  EXPECT_EQ(values(nonzero(tensor({0, 1, 2, 0}).view({2, 2}))), (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(shape(nonzero(zeros({3}))), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(values(masked_select(arange(6, kFloat32).view({2, 3}), tensor({true, false, true}))),
            (std::vector<double>{0, 2, 3, 5}));
}

// A tensor large enough that nonzero splits it into pieces, each writing its own rows.
TEST(Indexing, NonzeroListsTheTrueElementsInRowMajorOrderOnAnyThreadCount) {
  manual_seed(3);
  Tensor a = randn({3, 700, 50}, kFloat64);
  a = where(a > 0.3, a, zeros_like(a));
  a.index_put_({0, 0, 0}, -0.0);          // -0.0 is zero
  a.index_put_({0, 0, 1}, std::nan(""));  // NaN is not
  std::vector<double> expected;
  const double* element = a.data_ptr<double>();
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 700; ++j) {
      for (int64_t k = 0; k < 50; ++k, ++element) {
        if (*element != 0) expected.insert(expected.end(), {double(i), double(j), double(k)});
      }
    }
  }
  const int threads = get_num_threads();
  for (int t : {1, 4}) {
    set_num_threads(t);
    const Tensor coordinates = nonzero(a);
    EXPECT_EQ(shape(coordinates), (std::vector<int64_t>{int64_t(expected.size() / 3), 3}));
    EXPECT_EQ(values(coordinates), expected) << t << " threads";
    const Tensor flat = nonzero(a.view({-1}) != 0);
    EXPECT_EQ(values(a.view({-1}).index_select(0, flat.view({-1})) != 0),
              std::vector<double>(expected.size() / 3, 1.0));
    EXPECT_EQ(values(a.index({a != 0}).nan_to_num(7.0)),
              values(a.view({-1}).index_select(0, flat.view({-1})).nan_to_num(7.0)));
  }
  set_num_threads(threads);
  EXPECT_EQ(shape(nonzero(scalar_tensor(2.0))), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(shape(nonzero(scalar_tensor(0.0))), (std::vector<int64_t>{0, 0}));
}

TEST(Indexing, IndexPutWritesAccumulatesAndFills) {
  Tensor y = zeros({3, 4});
  y.index_put_({1, tensor({0, 2})}, tensor({5.f, 6.f}));  // y[1, [0, 2]] = [5, 6]
  EXPECT_EQ(values(y), (std::vector<double>{0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0}));
  y = zeros({3, 4});
  y.index_put_({tensor({0, 0, 2})}, scalar_tensor(1.f), /*accumulate=*/true);
  EXPECT_EQ(values(y), (std::vector<double>{2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1}));
  y = zeros({2, 3, 4});
  y.index_put_({Slice(), tensor({1, 2}), 0}, tensor({1.f, 2.f, 3.f, 4.f}).view({2, 2}));
  EXPECT_EQ(values(y.index({Ellipsis, 0})), (std::vector<double>{0, 1, 2, 0, 3, 4}));
  y = zeros({3, 4});
  y.index_put_({y == 0}, 2);  // y[y == 0] = 2
  EXPECT_EQ(values(y), std::vector<double>(12, 2));
  y.index_put_({Slice(), Slice(1, 3)}, 7);  // y[:, 1:3] = 7, a view filled
  EXPECT_EQ(values(y.index({0})), (std::vector<double>{2, 7, 7, 2}));
  expect_error_containing([&] { y.index_put_({tensor({1, 1})}, ones({2, 4})); }, "more than once");
}

TEST(Indexing, GradientsFlowToTheIndexedElementsAndTheWrittenValues) {
  const Tensor w = arange(12, kFloat64).requires_grad_();
  w.view({3, 4}).index({tensor({0, 2, 0})}).sum().backward();
  EXPECT_EQ(values(w.grad()), (std::vector<double>{2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1}));

  const Tensor v = tensor({1.0, 2.0}).requires_grad_();
  const Tensor base = zeros({3}, kFloat64).requires_grad_();
  Tensor y = base.clone();
  y.index_put_({tensor({2, 0})}, v);
  (y * tensor({10.0, 20.0, 30.0})).sum().backward();
  EXPECT_EQ(values(y), (std::vector<double>{2, 0, 1}));
  EXPECT_EQ(values(v.grad()), (std::vector<double>{30, 10}));
  EXPECT_EQ(values(base.grad()), (std::vector<double>{0, 20, 0}));
}

TEST(Indexing, MisuseIsAnErrorNamingTheProblem) {
  expect_error_containing([] { (void)x.index({0, 0, 0, 0}); }, "too many indices");
  expect_error_containing([] { (void)x.index({Ellipsis, Ellipsis}); }, "single ellipsis");
  expect_error_containing([] { (void)x.index({5}); },
                          "index 5 is out of bounds for dimension 0 with size 2");
  expect_error_containing(
      [] {
        (void)x.index({Slice(), tensor({0, 3})});
      },
      "out of bounds for dimension 1 with size 3");
  expect_error_containing([] { (void)x.index({Slice(None, None, -1)}); }, "step must be positive");
  expect_error_containing([] { (void)x.index({tensor({0.5f})}); }, "int64, int32, uint8 or bool");
  expect_error_containing(
      [] {
        (void)x.index({tensor({true, false, true})});
      },
      "shape of the mask");
  expect_error_containing([] { (void)x.index({"..x"}); }, "\"...\"");
}

}  // namespace
}  // namespace accel
