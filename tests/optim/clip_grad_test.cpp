// Gradient clipping (nn::utils) against PyTorch's formulas: the total norm returned as a
// tensor, the clip coefficient min(1, max_norm / (norm + 1e-6)), inf-norm, value clipping.
#include "accel/nn/utils/clip_grad.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "accel/accel.h"

namespace accel::nn::utils {
namespace {

Tensor with_grad(std::initializer_list<double> values, std::initializer_list<double> grad) {
  Tensor p = tensor(values).requires_grad_();
  p.set_grad(tensor(grad));
  return p;
}

TEST(ClipGradNorm, ScalesAllGradientsByTheTotalNorm) {
  Tensor p = with_grad({1.0, 2.0}, {3.0, 4.0});
  Tensor q = with_grad({0.0}, {12.0});
  Tensor no_grad = tensor({5.0}).requires_grad_();
  Tensor total = clip_grad_norm_({p, q, no_grad}, 6.5);
  EXPECT_EQ(total.dim(), 0);
  EXPECT_DOUBLE_EQ(total.item<double>(), 13.0);
  const double coef = 6.5 / (13.0 + 1e-6);
  EXPECT_TRUE(p.grad().allclose(tensor({3.0 * coef, 4.0 * coef}), 1e-15, 0));
  EXPECT_TRUE(q.grad().allclose(tensor({12.0 * coef}), 1e-15, 0));
  EXPECT_FALSE(no_grad.grad().defined());
}

TEST(ClipGradNorm, LeavesSmallGradientsUnchanged) {
  Tensor p = with_grad({1.0, 2.0}, {3.0, 4.0});
  EXPECT_DOUBLE_EQ(clip_grad_norm_(p, 10.0).item<double>(), 5.0);
  EXPECT_TRUE(p.grad().equal(tensor({3.0, 4.0})));
}

TEST(ClipGradNorm, InfinityAndOtherNorms) {
  Tensor p = with_grad({1.0, 2.0}, {3.0, -4.0});
  Tensor q = with_grad({0.0}, {2.0});
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_DOUBLE_EQ(clip_grad_norm_({p, q}, 2.0, inf).item<double>(), 4.0);
  EXPECT_TRUE(p.grad().allclose(tensor({1.5, -2.0}), 1e-6, 0));
  Tensor r = with_grad({1.0, 2.0}, {3.0, -4.0});
  EXPECT_DOUBLE_EQ(clip_grad_norm_(r, 100.0, 1.0).item<double>(), 7.0);
  EXPECT_TRUE(clip_grad_norm_(std::vector<Tensor>{}, 1.0).equal(scalar_tensor(0.0, kFloat32)));
}

TEST(ClipGradNorm, NonFiniteNormIsAnErrorOnlyWhenAsked) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor p = with_grad({1.0, 2.0}, {nan, 1.0});
  EXPECT_TRUE(std::isnan(clip_grad_norm_(p, 1.0).item<double>()));
  try {
    clip_grad_norm_(p, 1.0, 2.0, true);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("clip_grad_norm_: the total norm of order 2"),
              std::string::npos)
        << e.what();
  }
}

TEST(ClipGradValue, ClampsEveryElement) {
  Tensor p = with_grad({1.0, 2.0, 3.0}, {-3.0, 0.5, 7.0});
  clip_grad_value_(p, 1.0);
  EXPECT_TRUE(p.grad().equal(tensor({-1.0, 0.5, 1.0})));
}

TEST(ParametersToVector, ConcatenatesFlattenedValues) {
  Tensor p = tensor({1.0, 2.0, 3.0, 4.0}).reshape({2, 2});
  Tensor q = tensor({5.0});
  EXPECT_TRUE(parameters_to_vector({p, q}).equal(tensor({1.0, 2.0, 3.0, 4.0, 5.0})));
}

}  // namespace
}  // namespace accel::nn::utils
