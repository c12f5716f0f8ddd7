// Reductions give bit-identical results for any thread count: every output is computed by
// one thread with its terms in a fixed order (docs/architecture.md). Each case runs with
// one and with two threads on inputs large enough to be split, and compares the bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "accel/accel.h"
#include "support/thread_count.h"

namespace accel {
namespace {

using testing::ThreadCount;

// Values in [-4, 4) from a fixed linear congruential sequence: the same on every run.
Tensor filled(IntArrayRef sizes, uint64_t seed) {
  Tensor t = empty(sizes, kFloat32);
  float* p = t.data_ptr<float>();
  uint64_t state = seed;
  for (int64_t i = 0; i < t.numel(); ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    p[i] = static_cast<float>(state >> 40) / static_cast<float>(1 << 24) * 8.f - 4.f;
  }
  return t;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() && a.is_contiguous() &&
         b.is_contiguous() && std::memcmp(a.data_ptr(), b.data_ptr(), a.nbytes()) == 0;
}

void expect_thread_independent(const std::function<Tensor()>& f) {
  Tensor one, two;
  {
    ThreadCount threads(1);
    one = f();
  }
  {
    ThreadCount threads(2);
    two = f();
  }
  EXPECT_TRUE(same_bits(one, two));
}

TEST(ReduceDeterminism, SumOfAMillionElements) {
  const Tensor x = filled({1000000}, 1);
  expect_thread_independent([&] { return x.sum(); });
  expect_thread_independent([&] { return x.reshape({2, 500000}).sum({1}); });
  expect_thread_independent([&] { return x.to(kFloat64).sum(); });
  expect_thread_independent([&] { return x.to(kBFloat16).sum(); });
}

TEST(ReduceDeterminism, SumOverDimZero) {
  const Tensor x = filled({4096, 512}, 2);
  expect_thread_independent([&] { return x.sum({0}); });
  expect_thread_independent([&] { return x.mean({0}, true); });
  expect_thread_independent([&] { return x.reshape({64, 64, 512}).sum({0, 2}); });
}

TEST(ReduceDeterminism, SoftmaxAndLogSoftmax) {
  const Tensor x = filled({512, 4096}, 3);
  expect_thread_independent([&] { return softmax(x, 1); });
  expect_thread_independent([&] { return log_softmax(x, 1); });
  expect_thread_independent([&] { return softmax(x, 0); });
  expect_thread_independent([&] { return logsumexp(x, {1}); });
  const Tensor g = filled({512, 4096}, 4);
  expect_thread_independent([&] {
    Tensor leaf = x.clone().requires_grad_();
    log_softmax(leaf, 1).backward(g);
    return leaf.grad();
  });
  expect_thread_independent([&] {
    Tensor leaf = x.clone().requires_grad_();
    softmax(leaf, 1).backward(g);
    return leaf.grad();
  });
}

TEST(ReduceDeterminism, OtherReductions) {
  const Tensor x = filled({512, 4096}, 5);
  expect_thread_independent([&] { return x.var({1}); });
  expect_thread_independent([&] { return x.std({0}); });
  expect_thread_independent([&] { return amax(x, {1}); });
  expect_thread_independent([&] { return argmin(x, 0); });
  expect_thread_independent([&] { return (x * 0.01 + 1.0).prod(1); });
}

}  // namespace
}  // namespace accel
