// Element-wise unary ops and clamp: the PyTorch-fixture table (tests/reference/cases_unary.py)
// plus dtype rules, in-place clamp_, kink gradients and error messages.
#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include "support/expect_error.h"
#include "support/op_harness.h"
#include "support/thread_count.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::OpCase;
using V = std::vector<Tensor>;

const std::vector<OpCase> kUnaryCases = {
    {"exp", [](const V& x) { return exp(x[0]); }},
    {"exp_strided", [](const V& x) { return x[0].t().exp(); }},
    {"log", [](const V& x) { return log(x[0]); }},
    {"sqrt", [](const V& x) { return sqrt(x[0]); }},
    {"rsqrt", [](const V& x) { return rsqrt(x[0]); }},
    {"abs", [](const V& x) { return abs(x[0]); }},
    {"sin", [](const V& x) { return sin(x[0]); }},
    {"cos", [](const V& x) { return cos(x[0]); }},
    {"tanh", [](const V& x) { return tanh(x[0]); }},
    {"sigmoid", [](const V& x) { return sigmoid(x[0]); }},
    {"relu", [](const V& x) { return relu(x[0]); }},
    {"gelu", [](const V& x) { return gelu(x[0]); }},
    {"gelu_tanh", [](const V& x) { return x[0].gelu("tanh"); }},
    {"silu", [](const V& x) { return silu(x[0]); }},
    {"clamp_min", [](const V& x) { return x[0].clamp_min(-0.5); }},
    {"clamp_max", [](const V& x) { return clamp(x[0], std::nullopt, 0.25); }},
    {"clamp_both", [](const V& x) { return x[0].clamp(-0.5, 0.5); }},
    {"exp_int64", [](const V& x) { return exp(x[0]); }, {kFloat32}},
    {"abs_int64", [](const V& x) { return abs(x[0]); }},
    {"relu_int64", [](const V& x) { return relu(x[0]); }},
    {"clamp_int64", [](const V& x) { return clamp(x[0], -1, 2); }},
    {"log1p", [](const V& x) { return log1p(x[0]); }},
    {"expm1", [](const V& x) { return x[0].expm1(); }},
    {"erf", [](const V& x) { return erf(x[0]); }},
    {"floor", [](const V& x) { return floor(x[0] * 3); }},
    {"ceil", [](const V& x) { return (x[0] * 3).ceil(); }},
    {"round", [](const V& x) { return round(x[0] * 3); }},
    {"trunc", [](const V& x) { return trunc(x[0] * 3); }},
    {"sign", [](const V& x) { return x[0].sign(); }},
    {"tan", [](const V& x) { return x[0].tan(); }},
    {"asin", [](const V& x) { return asin(x[0]); }},
    {"acos", [](const V& x) { return acos(x[0]); }},
    {"atan", [](const V& x) { return atan(x[0]); }},
    {"sinh", [](const V& x) { return sinh(x[0]); }},
    {"cosh", [](const V& x) { return cosh(x[0]); }},
    {"asinh", [](const V& x) { return asinh(x[0]); }},
    {"acosh", [](const V& x) { return acosh(x[0] + 1.5); }},
    {"atanh", [](const V& x) { return atanh(x[0]); }},
    {"log2", [](const V& x) { return log2(x[0]); }},
    {"log10", [](const V& x) { return x[0].log10(); }},
    {"exp2", [](const V& x) { return exp2(x[0]); }},
    {"erfc", [](const V& x) { return erfc(x[0]); }},
    {"erfinv", [](const V& x) { return erfinv(x[0]); }},
    {"erfinv_tails", [](const V& x) { return x[0].erfinv(); }, {kFloat32}},
    {"erfinv_far_tail", [](const V& x) { return erfinv(1 - x[0]); }, {}},
    {"lgamma", [](const V& x) { return lgamma(x[0]); }},
    {"lgamma_negative", [](const V& x) { return x[0].lgamma(); }, {kFloat32}},
    {"digamma", [](const V& x) { return digamma(x[0]); }},
    {"digamma_negative", [](const V& x) { return x[0].digamma(); }, {kFloat32}},
    {"digamma_large", [](const V& x) { return digamma(x[0] * 30); }},
};

ACCEL_OP_TEST_SUITE(UnaryOps, "ops_unary.json", kUnaryCases);

void expect_error_mentions(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
    FAIL() << "expected an accel::Error";
  } catch (const Error& e) {
    for (const std::string& part : parts) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  }
}

// The functions that run on SLEEF's vectors give every element the same value wherever it sits:
// at any offset in a vector, in a short tail, in a strided view, as a single element, in any
// dtype's conversion path and at any thread count.
TEST(Unary, VectorMathIsTheSameForEveryElementAndThreadCount) {
  const std::vector<std::pair<const char*, std::function<Tensor(const Tensor&)>>> functions = {
      {"exp", [](const Tensor& x) { return exp(x); }},
      {"log", [](const Tensor& x) { return log(x.abs()); }},
      {"sin", [](const Tensor& x) { return sin(x); }},
      {"cos", [](const Tensor& x) { return cos(x); }},
      {"tanh", [](const Tensor& x) { return tanh(x); }},
      {"sigmoid", [](const Tensor& x) { return sigmoid(x); }},
      {"gelu", [](const Tensor& x) { return gelu(x); }},
      {"gelu_tanh", [](const Tensor& x) { return gelu(x, "tanh"); }},
      {"silu", [](const Tensor& x) { return silu(x); }},
      {"log1p", [](const Tensor& x) { return log1p(x.abs()); }},
      {"expm1", [](const Tensor& x) { return expm1(x); }},
      {"erf", [](const Tensor& x) { return erf(x); }},
  };
  manual_seed(7);
  const int64_t n = 3 * kElementwiseGrain + 5;  // several threads' shares and a short tail
  for (ScalarType dtype : {kFloat32, kFloat64, kBFloat16}) {
    const Tensor x = (randn({n}) * 4).to(dtype);
    for (const auto& [name, f] : functions) {
      SCOPED_TRACE(std::string(name) + " " + std::string(to_string(dtype)));
      // Forward and gradient (whose formulas also run on vectors) at one and two threads.
      auto forward_and_gradient = [&, &f = f](int thread_count) {
        testing::ThreadCount threads(thread_count);
        const Tensor leaf = x.detach().requires_grad_();
        const Tensor y = f(leaf);
        return std::pair{y.detach(), autograd::grad({y.sum()}, {leaf})[0]};
      };
      const auto [one_thread, one_thread_grad] = forward_and_gradient(1);
      const auto [two_threads, two_threads_grad] = forward_and_gradient(2);
      EXPECT_TRUE(one_thread.equal(two_threads));
      EXPECT_TRUE(one_thread_grad.equal(two_threads_grad));
      // Every third element (a strided view), and elements alone, at offsets 0 to 20.
      EXPECT_TRUE(f(x.slice(0, 1, n, 3)).equal(one_thread.slice(0, 1, n, 3)));
      for (int64_t i = 0; i <= 20; ++i)
        EXPECT_TRUE(f(x.slice(0, i, i + 1)).equal(one_thread[i].view({1})));
    }
  }
}

TEST(Unary, IntegerInputsGiveDefaultFloatOrKeepType) {
  const Tensor i = tensor({-2, 0, 3});
  for (const Tensor& r : {exp(i), log(i), sqrt(i), rsqrt(i), sin(i), cos(i), tanh(i), sigmoid(i)}) {
    EXPECT_EQ(r.dtype(), kFloat32);
  }
  EXPECT_EQ(abs(i).dtype(), kInt64);
  EXPECT_EQ(abs(i)[0].item<int64_t>(), 2);
  for (const Tensor& r : {floor(i), ceil(i), round(i), trunc(i)}) EXPECT_TRUE(r.equal(i));
  EXPECT_TRUE(sign(i).equal(tensor({-1, 0, 1})));
  EXPECT_EQ(erf(i).dtype(), kFloat32);
  // Halves round to even; NaN's sign is 0, as torch.sign.
  EXPECT_TRUE(round(tensor({0.5f, 1.5f, 2.5f, -0.5f})).equal(tensor({0.f, 2.f, 2.f, -0.f})));
  EXPECT_EQ(sign(tensor({NAN})).item<float>(), 0.f);
  EXPECT_EQ(relu(i).dtype(), kInt64);
  EXPECT_EQ(relu(i)[0].item<int64_t>(), 0);
  EXPECT_EQ(abs(tensor({1, 2}, kUInt8)).dtype(), kUInt8);
  EXPECT_EQ(exp(tensor({true, false})).dtype(), kFloat32);
  EXPECT_FLOAT_EQ(exp(tensor({true, false}))[1].item<float>(), 1.f);
}

TEST(Unary, HalfPrecisionKeepsDtype) {
  const Tensor h = tensor({-1.f, 0.5f, 2.f}).to(kFloat16);
  EXPECT_EQ(gelu(h).dtype(), kFloat16);
  EXPECT_NEAR(sigmoid(h)[2].item<double>(), 0.8808, 1e-3);
  const Tensor b = tensor({-1.f, 0.5f, 2.f}).to(kBFloat16);
  EXPECT_EQ(abs(b).dtype(), kBFloat16);
  EXPECT_EQ(abs(b)[0].item<float>(), 1.f);
}

TEST(Unary, BoolInputsRejectedWherePyTorchRejectsThem) {
  const Tensor b = tensor({true, false});
  expect_error_mentions([&] { (void)abs(b); }, {"abs", "bool"});
  expect_error_mentions([&] { (void)relu(b); }, {"relu", "bool"});
  // gelu and silu take floating inputs only.
  expect_error_mentions([] { (void)gelu(tensor({1, 2})); }, {"gelu", "int64"});
  expect_error_mentions([] { (void)silu(tensor({true})); }, {"silu", "bool"});
}

TEST(Unary, GradientsAtKinksFollowPyTorch) {
  const Tensor x = tensor({0.0, -1.0, 2.0}).requires_grad_();
  relu(x).sum().backward();
  EXPECT_EQ(x.grad()[0].item<double>(), 0.0);
  EXPECT_EQ(x.grad()[2].item<double>(), 1.0);
  const Tensor y = tensor({0.0, -1.0, 2.0}).requires_grad_();
  abs(y).sum().backward();
  EXPECT_EQ(y.grad()[0].item<double>(), 0.0);
  EXPECT_EQ(y.grad()[1].item<double>(), -1.0);
  // clamp passes the gradient strictly inside the bounds only (0 at a bound, as PyTorch 2.x).
  const Tensor z = tensor({0.0, 1.0, 2.0, -1.0, 3.0}).requires_grad_();
  clamp(z, 0.0, 2.0).sum().backward();
  EXPECT_TRUE(z.grad().equal(tensor({0.0, 1.0, 0.0, 0.0, 0.0})));
}

TEST(Unary, ClampPromotesAndPropagatesNan) {
  const Tensor i = tensor({1, 5});
  EXPECT_EQ(clamp(i, 0, 3).dtype(), kInt64);
  EXPECT_EQ(clamp(i, 1.5, std::nullopt).dtype(), kFloat32);
  const double nan = std::nan("");
  const Tensor c = clamp(tensor({1.0, nan}), 3.0, std::nullopt);
  EXPECT_EQ(c[0].item<double>(), 3.0);
  EXPECT_TRUE(std::isnan(c[1].item<double>()));
  EXPECT_TRUE(std::isnan(clamp(tensor({1.0}), nan, std::nullopt)[0].item<double>()));
  EXPECT_TRUE(clamp(tensor({1.0, 5.0}), 3.0, 2.0).equal(tensor({2.0, 2.0})));  // min > max
}

// An integer bound beyond an integer tensor's range clamps nothing (torch.clamp(uint8,
// max=1000)); stored as the tensor's type it used to wrap (1000 became 232). A bound that does
// not fit a float16 tensor is an error, as in PyTorch.
TEST(Unary, IntegerBoundsBeyondTheTypesRangeClampNothing) {
  const Tensor bytes = tensor({int64_t{255}, int64_t{3}}).to(kUInt8);
  EXPECT_TRUE(bytes.clamp(std::nullopt, 1000).equal(bytes));
  EXPECT_TRUE(bytes.clamp(-1, std::nullopt).equal(bytes));
  EXPECT_TRUE(bytes.clamp(4, 300).equal(tensor({int64_t{255}, int64_t{4}}).to(kUInt8)));
  const Tensor ints = tensor({int64_t{5}, int64_t{-3}}).to(kInt32);
  EXPECT_TRUE(ints.clamp(-(int64_t{1} << 40), int64_t{1} << 40).equal(ints));
  EXPECT_TRUE(ints.clamp(std::nullopt, 2).equal(tensor({int64_t{2}, int64_t{-3}}).to(kInt32)));
  expect_error_containing([] { (void)ones({2}, kFloat16).clamp(std::nullopt, 1e6); }, "float16");
}

TEST(Unary, ClampInPlaceKeepsStorageAndBumpsVersion) {
  Tensor a = tensor({-2.f, 0.5f, 3.f});
  void* before = a.data_ptr();
  const uint32_t v = a.version();
  const Tensor& r = a.clamp_(-1.f, 1.f);
  EXPECT_TRUE(r.is_same(a));
  EXPECT_EQ(a.data_ptr(), before);
  EXPECT_EQ(a.version(), v + 1);
  EXPECT_TRUE(a.equal(tensor({-1.f, 0.5f, 1.f})));
  Tensor strided = zeros({3, 2}).t();
  strided.clamp_(1.f);
  EXPECT_TRUE(strided.equal(ones({2, 3})));
}

TEST(Unary, ClampInPlaceRecordsHistory) {
  const Tensor leaf = tensor({-2.0, 0.5, 3.0}).requires_grad_();
  Tensor a = leaf * 2.0;
  a.clamp_(-1.5, 1.5);
  EXPECT_TRUE(a.grad_fn() != nullptr);
  EXPECT_TRUE(a.equal(tensor({-1.5, 1.0, 1.5})));
  a.sum().backward();
  EXPECT_TRUE(leaf.grad().equal(tensor({0.0, 2.0, 0.0})));
}

TEST(Unary, ClampInPlaceRejectsUnsafeCastAndLeaves) {
  Tensor i = tensor({1, 5});
  expect_error_mentions([&] { i.clamp_(0.5); }, {"clamp_", "float32", "int64"});
  Tensor leaf = ones({2}).requires_grad_();
  EXPECT_THROW(leaf.clamp_(0.f), Error);
}

TEST(Unary, Errors) {
  expect_error_mentions([] { (void)clamp(ones({2}), std::nullopt, std::nullopt); },
                        {"clamp", "min", "max"});
  expect_error_mentions([] { (void)gelu(ones({2}), "sigmoid"); }, {"gelu", "sigmoid"});
}

}  // namespace
}  // namespace accel
