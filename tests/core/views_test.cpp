// What makes a view a view: shared storage and version counter with its base, geometry
// (contiguity, strides), when view() refuses and reshape() copies, the autograd rule
// against in-place changes of views, writes from overlapping inputs, and gradients through
// chains of views.
#include <gtest/gtest.h>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

std::vector<double> values(const Tensor& t) {
  const Tensor c = t.to(kFloat64).contiguous();
  return {c.data_ptr<double>(), c.data_ptr<double>() + c.numel()};
}

using testing::error_of;

TEST(Views, WritesThroughAViewAreVisibleInTheBase) {
  Tensor base = zeros({2, 3}, kFloat64);
  base.select(0, 1).fill_(5);
  base.t().select(0, 2).narrow(0, 0, 1).fill_(7);
  base.view({6}).slice(0, 1, std::nullopt, 4).fill_(-1);  // elements 1 and 5
  EXPECT_EQ(values(base), (std::vector<double>{0, -1, 7, 5, 5, -1}));
}

TEST(Views, EveryViewOpSharesStorage) {
  const Tensor base = arange(24, kFloat32).view({2, 3, 4});
  const std::vector<Tensor> views = {
      base.view({6, 4}),      base.reshape({4, 6}),        base.flatten(1),
      base.unsqueeze(0),      base.unsqueeze(0).squeeze(), base.permute({2, 0, 1}),
      base.transpose(0, 2),   base.select(2, 0).t(),       base.narrow(1, 1, 2),
      base.slice(2, 0, 4, 3), base.select(1, -1),          base.select(0, 0).expand({5, 3, 4}),
  };
  for (const Tensor& v : views)
    EXPECT_EQ(v.storage(), base.storage()) << fmt::format("{}", v.sizes());
  EXPECT_EQ(base.narrow(1, 1, 2).storage_offset(), 4);
  EXPECT_EQ(base.select(0, 0).expand({5, 3, 4}).strides(), IntArrayRef({0, 4, 1}));
}

TEST(Views, ShareTheVersionCounterWithTheBase) {
  Tensor base = zeros({3, 4});
  const Tensor view = base.t().narrow(0, 1, 2);
  const uint32_t before = view.version();
  base.add_(1);
  EXPECT_GT(view.version(), before);
  const uint32_t after_base = base.version();
  Tensor writable = base.select(0, 0);
  writable.mul_(2);
  EXPECT_GT(base.version(), after_base);
  EXPECT_EQ(base.version(), view.version());
}

TEST(Views, InPlaceChangeOfTheBaseInvalidatesATensorSavedThroughAView) {
  const Tensor x = randn({2, 3}, kFloat64).requires_grad_();
  Tensor y = x * 1.0;
  const Tensor v = y.view({6});
  const Tensor w = v * v;  // saves v
  {
    NoGradGuard no_grad;
    y.add_(1);
  }
  const std::string message = error_of([&] { w.sum().backward(); });
  EXPECT_NE(message.find("modified by an in-place operation"), std::string::npos) << message;
}

TEST(Views, ContiguityFollowsTheGeometry) {
  const Tensor a = zeros({3, 4});
  EXPECT_TRUE(a.is_contiguous());
  EXPECT_FALSE(a.t().is_contiguous());
  EXPECT_FALSE(a.transpose(0, 1).is_contiguous());
  EXPECT_TRUE(a.t().t().is_contiguous());
  EXPECT_FALSE(a.narrow(1, 0, 2).is_contiguous());
  EXPECT_TRUE(a.narrow(0, 1, 2).is_contiguous());
  EXPECT_TRUE(a.unsqueeze(1).is_contiguous());
  const Tensor c = a.t().contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_NE(c.storage(), a.storage());
  EXPECT_EQ(c.strides(), IntArrayRef({3, 1}));
}

TEST(Views, ViewOfNonContiguousInputErrorsNamingViewAndShapes) {
  const Tensor a = zeros({3, 4});
  const std::string message = error_of([&] { a.t().view({12}); });
  EXPECT_EQ(message.rfind("view:", 0), 0u) << message;
  EXPECT_NE(message.find("[12]"), std::string::npos) << message;
  EXPECT_NE(message.find("[4, 3]"), std::string::npos) << message;
  EXPECT_NE(message.find("reshape"), std::string::npos) << message;
  // Splitting a dim of a transposed tensor needs no copy: view() allows it.
  const Tensor split = a.t().view({2, 2, 3});
  EXPECT_EQ(split.storage(), a.storage());
  EXPECT_EQ(split.strides(), IntArrayRef({2, 1, 4}));
}

TEST(Views, ShapeErrorsNameTheOp) {
  const Tensor a = zeros({2, 3});
  EXPECT_EQ(error_of([&] { a.view({4, -1}); }).rfind("view:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.view({-1, -1}); }).rfind("view:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.reshape({5}); }).rfind("reshape:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.permute({0, 0}); }).rfind("permute:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.permute({0}); }).rfind("permute:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.expand({4, 3}); }).rfind("expand:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.expand({-1, 2, 3}); }).rfind("expand:", 0), 0u);
  EXPECT_EQ(error_of([&] { zeros({1, 3}).expand({-2, 3}); }).rfind("expand:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.narrow(1, 2, 2); }).rfind("narrow:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.slice(0, 0, 2, 0); }).rfind("slice:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.select(0, 2); }).rfind("select:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.unsqueeze(3); }).rfind("unsqueeze:", 0), 0u);
  EXPECT_EQ(error_of([&] { zeros({2, 2, 2}).t(); }).rfind("t:", 0), 0u);
  EXPECT_EQ(error_of([&] { scalar_tensor(1.0).transpose(3, 4); }).rfind("transpose:", 0), 0u);
  EXPECT_EQ(error_of([&] { a.flatten(1, 0); }).rfind("flatten:", 0), 0u);
}

TEST(Views, ScalarTensorsTakeDimsZeroAndMinusOne) {
  const Tensor s = scalar_tensor(2.0);
  EXPECT_EQ(s.transpose(0, -1).dim(), 0);
  EXPECT_EQ(s.squeeze(0).dim(), 0);
  EXPECT_EQ(s.unsqueeze(0).sizes(), IntArrayRef({1}));
  EXPECT_EQ(s.flatten().sizes(), IntArrayRef({1}));
  EXPECT_EQ(s.view({1, 1}).sizes(), IntArrayRef({1, 1}));
}

TEST(Views, ReshapeCopiesOnlyWhenNeeded) {
  const Tensor a = arange(12, kFloat32).view({3, 4});
  EXPECT_EQ(a.reshape({2, 6}).storage(), a.storage());
  const Tensor copied = a.t().reshape({12});
  EXPECT_NE(copied.storage(), a.storage());
  EXPECT_EQ(values(copied), (std::vector<double>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  EXPECT_EQ(a.t().reshape({2, 2, 3}).storage(), a.storage());
}

TEST(Views, InPlaceOnAViewThatRequiresGradErrors) {
  const Tensor x = randn({3, 4}, kFloat64).requires_grad_();
  Tensor y = x * 2.0;
  Tensor row = y.select(0, 1);
  const std::string message = error_of([&] { row.add_(1.0); });
  EXPECT_EQ(message.rfind("add_:", 0), 0u) << message;
  EXPECT_NE(message.find("view"), std::string::npos) << message;
  Tensor leaf_view = x.narrow(0, 0, 1);
  EXPECT_NE(error_of([&] { leaf_view.zero_(); }), "");
  Tensor plain = zeros({3, 4});
  Tensor plain_row = plain.select(0, 1);
  EXPECT_NE(error_of([&] { plain_row.copy_(x.select(0, 0)); }).find("view"), std::string::npos);
  {
    NoGradGuard no_grad;
    EXPECT_EQ(error_of([&] { row.add_(1.0); }), "");
  }
}

TEST(Views, GradientsFlowThroughChainedViews) {
  const Tensor x = arange(12, kFloat64).view({3, 4}).requires_grad_();
  // x.t()[1::2] picks columns 1 and 3 of x; expanding 3 times and selecting the last
  // element of each row uses x[2, 1] and x[2, 3] three times each.
  const Tensor y =
      x.t().slice(0, 1, std::nullopt, 2).unsqueeze(0).expand({3, -1, -1}).select(2, -1);
  EXPECT_EQ(y.sizes(), IntArrayRef({3, 2}));
  // A second path: view, narrow and permute reach x[0, 2], x[0, 3], x[2, 0], x[2, 1].
  const Tensor z = x.view({2, 6}).narrow(1, 2, 2).permute({1, 0}).reshape({-1});
  (y.sum() + (z * 2.0).sum()).backward();
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 0, 2, 2, 0, 0, 0, 0, 2, 5, 0, 3}));
}

TEST(Views, GradientOfTheChainMatchesTheWeightedUpstreamGradient) {
  const Tensor x = arange(6, kFloat64).view({2, 3}).requires_grad_();
  const Tensor out = x.unsqueeze(2).permute({2, 1, 0}).squeeze(0).flatten();  // x.t() as 1-D
  out.backward(arange(6, kFloat64));
  // out[k] = x.t().flatten()[k]: grad x[i][j] = upstream[j * 2 + i].
  EXPECT_EQ(values(x.grad()), (std::vector<double>{0, 2, 4, 1, 3, 5}));
}

// A transposed copy goes tile by tile (kernels/cpu/copy.cpp): every dtype's element size, sides
// that are not multiples of the tile, an input that is itself a slice, and an output whose rows
// are apart (a column slice of a wider tensor), each element checked by index.
// A write whose input overlaps the written-to elements other than one for one would read
// elements it has already overwritten (x[1:].copy_(x[:-1]) smeared x[0] over the whole tensor):
// an error naming the op, as in PyTorch. The same elements, or disjoint parts of one storage,
// are fine.
TEST(Views, PartiallyOverlappingInputsOfWritesAreErrors) {
  Tensor x = arange(6, kFloat64);
  EXPECT_NE(error_of([&] { x.slice(0, 1).copy_(x.slice(0, 0, 5)); }).find("copy_"),
            std::string::npos);
  EXPECT_NE(error_of([&] { x.slice(0, 1).add_(x.slice(0, 0, 5)); }).find("share some memory"),
            std::string::npos);
  Tensor square = arange(4, kFloat64).view({2, 2});
  EXPECT_NE(error_of([&] { square.copy_(square.t()); }).find("strides [1, 2]"), std::string::npos);
  EXPECT_EQ(values(x), (std::vector<double>{0, 1, 2, 3, 4, 5})) << "nothing was written";

  x.add_(x);
  x.copy_(x);
  x.slice(0, 0, 3).copy_(x.slice(0, 3));
  EXPECT_EQ(values(x), (std::vector<double>{6, 8, 10, 6, 8, 10}));
  square.t().mul_(square.t());
  EXPECT_EQ(values(square), (std::vector<double>{0, 1, 4, 9}));
}

TEST(Views, TransposedCopiesPutEveryElementInPlace) {
  for (ScalarType dtype :
       {kBool, kUInt8, kFloat16, kBFloat16, kInt32, kFloat32, kInt64, kFloat64}) {
    SCOPED_TRACE(std::string(to_string(dtype)));
    Generator generator(3);
    // Values every dtype holds exactly.
    const Tensor base = randint(0, dtype == kBool ? 2 : 97, {80, 70}, kFloat64, &generator);
    const Tensor x = base.slice(0, 3, 70).slice(1, 1, 66).to(dtype);  // [67, 65]
    const Tensor y = x.t().contiguous();
    Tensor wide = zeros({65, 90}, dtype);
    wide.slice(1, 5, 72).copy_(x.t());
    const Tensor xd = x.to(kFloat64), yd = y.to(kFloat64), wd = wide.to(kFloat64);
    for (int64_t r = 0; r < 65; ++r) {
      for (int64_t c = 0; c < 67; ++c) {
        const double expected = xd[c][r].item<double>();
        ASSERT_EQ(yd[r][c].item<double>(), expected) << r << ", " << c;
        ASSERT_EQ(wd[r][c + 5].item<double>(), expected) << r << ", " << c;
      }
    }
  }
}

}  // namespace
}  // namespace accel
