// Random numbers: the Philox known answers, reproducibility (seeds, saved states, any thread
// count), thread-safe generators, the distributions' moments on 1e5 samples, and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <thread>
#include <vector>

#include "accel/accel.h"
#include "accel/kernels/common/philox.h"

namespace accel {
namespace {

constexpr int64_t kSamples = 100000;

std::vector<double> values_of(const Tensor& t) {
  Tensor d = t.to(kFloat64).contiguous();
  const double* p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

struct Moments {
  double mean = 0;
  double variance = 0;
};

Moments moments_of(const Tensor& t) {
  const std::vector<double> v = values_of(t);
  Moments m;
  for (double x : v) m.mean += x;
  m.mean /= static_cast<double>(v.size());
  for (double x : v) m.variance += (x - m.mean) * (x - m.mean);
  m.variance /= static_cast<double>(v.size() - 1);
  return m;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() &&
         std::equal(static_cast<const char*>(a.data_ptr()),
                    static_cast<const char*>(a.data_ptr()) + a.nbytes(),
                    static_cast<const char*>(b.data_ptr()));
}

template <typename F>
void expect_error(F f, const std::vector<std::string>& fragments) {
  try {
    f();
    ADD_FAILURE() << "expected accel::Error";
  } catch (const Error& e) {
    for (const std::string& fragment : fragments) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
          << "message '" << e.what() << "' lacks '" << fragment << "'";
    }
  }
}

TEST(Philox, MatchesRandom123KnownAnswers) {
  using random::philox4x32_10;
  using random::PhiloxBlock;
  auto expect_block = [](const PhiloxBlock& got, const PhiloxBlock& want) {
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got.v[i], want.v[i]) << "lane " << i;
  };
  expect_block(philox4x32_10({{0, 0, 0, 0}}, 0),
               {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}});
  expect_block(
      philox4x32_10({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffffffffffull),
      {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}});
  expect_block(
      philox4x32_10({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0x299f31d0a4093822ull),
      {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}});
}

TEST(Random, ManualSeedRepeatsTheStream) {
  manual_seed(42);
  Tensor a = rand({5});
  Tensor b = randn({5});
  manual_seed(42);
  EXPECT_TRUE(same_bits(rand({5}), a));
  EXPECT_TRUE(same_bits(randn({5}), b));
  EXPECT_EQ(default_generator().initial_seed(), 42u);
  manual_seed(43);
  EXPECT_FALSE(same_bits(rand({5}), a));
}

TEST(Random, ManualSeedResetsOffset) {
  Generator g(7);
  rand({100}, {}, &g);
  EXPECT_GT(g.get_state().offset, 0u);
  g.manual_seed(7);
  EXPECT_EQ(g.get_state(), (GeneratorState{7, 0}));
}

TEST(Random, SavedStateResumesTheStream) {
  Generator g(123);
  rand({10}, {}, &g);
  const GeneratorState saved = g.get_state();
  Tensor a = randn({7, 3}, kFloat64, &g);
  Tensor b = randint(0, 100, {9}, kInt64, &g);
  Tensor c = randperm(20, kInt64, &g);

  Generator other(999);
  other.set_state(saved);
  EXPECT_TRUE(same_bits(randn({7, 3}, kFloat64, &other), a));
  EXPECT_TRUE(same_bits(randint(0, 100, {9}, kInt64, &other), b));
  EXPECT_TRUE(same_bits(randperm(20, kInt64, &other), c));
  EXPECT_EQ(other.get_state(), g.get_state());
}

TEST(Random, ConsecutiveDrawsDiffer) {
  Generator g(1);
  Tensor a = rand({4}, {}, &g);
  Tensor b = rand({4}, {}, &g);
  EXPECT_FALSE(same_bits(a, b));
}

TEST(Random, SameBitsForAnyThreadCount) {
  const int64_t n = 3 * kElementwiseGrain + 17;  // large enough to be split across threads
  auto draw_all = [&] {
    Generator g(2024);
    std::vector<Tensor> out;
    out.push_back(rand({n}, {}, &g));
    out.push_back(randn({n}, kFloat64, &g));
    out.push_back(randn({n}, kBFloat16, &g));
    out.push_back(randint(-5, 5, {n}, kInt64, &g));
    out.push_back(bernoulli(full({n}, 0.25), &g));
    Tensor t = empty({n / 7, 7}).t();  // non-contiguous in-place fill
    uniform_(t, -2, 3, &g);
    out.push_back(t.contiguous());
    return out;
  };
  const int threads = get_num_threads();
  set_num_threads(1);
  const std::vector<Tensor> one = draw_all();
  set_num_threads(2);
  const std::vector<Tensor> two = draw_all();
  set_num_threads(threads);
  ASSERT_EQ(one.size(), two.size());
  for (size_t i = 0; i < one.size(); ++i) EXPECT_TRUE(same_bits(one[i], two[i])) << "draw " << i;
}

TEST(Random, GeneratorIsThreadSafe) {
  Generator g(5);
  constexpr int kDraws = 500;
  auto work = [&] {
    for (int i = 0; i < kDraws; ++i) rand({8}, {}, &g);  // two blocks each
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  EXPECT_EQ(g.get_state().offset, 2u * 2u * kDraws);
}

TEST(Random, RandIsUniformOnUnitInterval) {
  manual_seed(0);
  for (ScalarType dtype : {kFloat32, kFloat64}) {
    Tensor u = rand({kSamples}, dtype);
    EXPECT_EQ(u.dtype(), dtype);
    const std::vector<double> v = values_of(u);
    EXPECT_GE(*std::min_element(v.begin(), v.end()), 0.0);
    EXPECT_LT(*std::max_element(v.begin(), v.end()), 1.0);
    const Moments m = moments_of(u);
    EXPECT_NEAR(m.mean, 0.5, 0.005);  // ~5 standard errors
    EXPECT_NEAR(m.variance, 1.0 / 12, 0.002);
  }
  for (ScalarType dtype : {kFloat16, kBFloat16}) {
    Tensor u = rand({kSamples}, dtype);
    const std::vector<double> v = values_of(u);
    EXPECT_GE(*std::min_element(v.begin(), v.end()), 0.0);
    EXPECT_LT(*std::max_element(v.begin(), v.end()), 1.0);
    EXPECT_NEAR(moments_of(u).mean, 0.5, 0.01);
  }
}

TEST(Random, RandnIsStandardNormal) {
  manual_seed(1);
  for (ScalarType dtype : {kFloat32, kFloat64, kBFloat16}) {
    const Moments m = moments_of(randn({kSamples}, dtype));
    EXPECT_NEAR(m.mean, 0.0, 0.016) << to_string(dtype);
    EXPECT_NEAR(m.variance, 1.0, 0.025) << to_string(dtype);
  }
  // The fraction within one standard deviation (68.27%) checks the shape, not just moments.
  const std::vector<double> v = values_of(randn({kSamples}));
  const double inside =
      std::count_if(v.begin(), v.end(), [](double x) { return std::fabs(x) < 1; });
  EXPECT_NEAR(inside / kSamples, 0.6827, 0.008);
}

// The CPU samples a chunk of values at a time (Philox blocks in batches, Box-Muller on vectors);
// each value must still be the one kernels/common/philox.h defines for its index: uniforms and
// integers bit for bit, normals within rounding of the scalar formula (vector log1p, sin and cos
// against libm's). Sizes cover partial chunks and vectors; the fill of a narrowed tensor gives runs
// of 3 that start at odd indices.
TEST(Random, ChunkedSamplesAreThePerIndexFormulas) {
  for (ScalarType dtype : {kFloat32, kFloat64}) {
    for (int64_t n : {1, 7, 64, 65, 1000}) {
      Generator g(99);
      const GeneratorState before = g.get_state();
      const Tensor u = rand({n}, dtype, &g);
      const std::vector<double> got_u = values_of(u);
      random::PhiloxCursor cursor(random::PhiloxDraw{before.seed, before.offset});
      for (int64_t i = 0; i < n; ++i) {
        const double want = dtype == kFloat32
                                ? random::uniform_at<float>(cursor, static_cast<uint64_t>(i), 24)
                                : random::uniform_at<double>(cursor, static_cast<uint64_t>(i), 53);
        EXPECT_EQ(got_u[static_cast<size_t>(i)], want) << to_string(dtype) << " rand, n " << n;
      }
      const GeneratorState before_integers = g.get_state();
      const std::vector<double> got_i = values_of(randint(-7, 1000, {n}, kInt64, &g));
      random::PhiloxCursor integer_cursor(
          random::PhiloxDraw{before_integers.seed, before_integers.offset});
      for (int64_t i = 0; i < n; ++i) {
        EXPECT_EQ(got_i[static_cast<size_t>(i)],
                  random::integer_at(integer_cursor, static_cast<uint64_t>(i), -7, 1007))
            << "randint, n " << n;
      }
      const GeneratorState middle = g.get_state();
      Tensor z = empty({n, 5}, dtype).narrow(1, 0, 3);
      normal_(z, 0, 1, &g);
      const std::vector<double> got_z = values_of(z.contiguous());
      random::PhiloxCursor normal_cursor(random::PhiloxDraw{middle.seed, middle.offset});
      const double tolerance = dtype == kFloat32 ? 2e-6 : 1e-14;
      for (int64_t i = 0; i < 3 * n; ++i) {
        const double want =
            dtype == kFloat32 ? random::normal_at<float>(normal_cursor, static_cast<uint64_t>(i))
                              : random::normal_at<double>(normal_cursor, static_cast<uint64_t>(i));
        EXPECT_NEAR(got_z[static_cast<size_t>(i)], want, tolerance * (1 + std::fabs(want)))
            << to_string(dtype) << " normal_, n " << n << ", value " << i;
      }
    }
  }
}

// randperm is Fisher-Yates with swap i's partner drawn from value i's 64 bits.
TEST(Random, RandpermIsFisherYatesOnThePerIndexIntegers) {
  Generator g(123);
  const GeneratorState before = g.get_state();
  const std::vector<double> got = values_of(randperm(300, kInt64, &g));
  random::PhiloxCursor cursor(random::PhiloxDraw{before.seed, before.offset});
  std::vector<double> want(300);
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<double>(i);
  for (int64_t i = 0; i + 1 < 300; ++i) {
    const int64_t j = random::integer_at(cursor, static_cast<uint64_t>(i), i, 300 - i);
    std::swap(want[static_cast<size_t>(i)], want[static_cast<size_t>(j)]);
  }
  EXPECT_EQ(got, want);
}

TEST(Random, RandRespectsOptions) {
  Tensor r = rand({2, 3}, TensorOptions(kFloat64).requires_grad(true));
  EXPECT_EQ(r.sizes(), IntArrayRef({2, 3}));
  EXPECT_TRUE(r.requires_grad());
  EXPECT_EQ(rand({}).dim(), 0);
  EXPECT_EQ(rand({0, 4}).numel(), 0);
  expect_error([] { rand({3}, kInt64); }, {"rand", "int64"});
  expect_error([] { randn({3}, kBool); }, {"randn", "bool"});
}

TEST(Random, RandintStaysInBoundsAndCoversThem) {
  manual_seed(2);
  Tensor r = randint(-3, 5, {kSamples});
  EXPECT_EQ(r.dtype(), kInt64);
  std::vector<int64_t> counts(8, 0);
  const int64_t* p = r.data_ptr<int64_t>();
  for (int64_t i = 0; i < r.numel(); ++i) {
    ASSERT_GE(p[i], -3);
    ASSERT_LT(p[i], 5);
    ++counts[p[i] + 3];
  }
  for (int64_t c : counts) EXPECT_NEAR(static_cast<double>(c) / kSamples, 1.0 / 8, 0.006);

  Tensor f = randint(10, {1000}, kFloat32);
  EXPECT_EQ(f.dtype(), kFloat32);
  for (double x : values_of(f)) {
    ASSERT_EQ(x, std::floor(x));
    ASSERT_GE(x, 0);
    ASSERT_LT(x, 10);
  }
  Tensor wide =
      randint(std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), {16});
  EXPECT_EQ(wide.numel(), 16);
  Tensor bytes = randint(250, 256, {100}, kUInt8);
  for (double x : values_of(bytes)) ASSERT_GE(x, 250);
}

TEST(Random, RandintErrors) {
  expect_error([] { randint(5, 5, {3}); }, {"randint", "low=5", "high=5"});
  expect_error([] { randint(0, 300, {3}, kUInt8); }, {"randint", "uint8"});
  expect_error([] { randint(-1, 1, {3}, kBool); }, {"randint", "bool"});
}

TEST(Random, RandpermIsAPermutation) {
  manual_seed(3);
  for (int64_t n : {0, 1, 2, 10, 1000}) {
    Tensor p = randperm(n);
    EXPECT_EQ(p.dtype(), kInt64);
    EXPECT_EQ(p.numel(), n);
    std::vector<double> v = values_of(p);
    std::sort(v.begin(), v.end());
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(v[i], static_cast<double>(i));
  }
  Generator a(9), b(9);
  EXPECT_TRUE(same_bits(randperm(50, kInt64, &a), randperm(50, kInt64, &b)));
  Tensor f = randperm(5, kFloat32);
  EXPECT_EQ(f.dtype(), kFloat32);
}

TEST(Random, RandpermPlacesEachValueUniformly) {
  Generator g(4);
  constexpr int kDraws = 20000;
  std::vector<int> first(6, 0);
  for (int i = 0; i < kDraws; ++i) ++first[randperm(6, kInt64, &g).data_ptr<int64_t>()[0]];
  for (int c : first) EXPECT_NEAR(static_cast<double>(c) / kDraws, 1.0 / 6, 0.015);
}

TEST(Random, RandpermErrors) {
  expect_error([] { randperm(-1); }, {"randperm", "-1"});
  expect_error([] { randperm(300, kUInt8); }, {"randperm", "300", "uint8"});
  expect_error([] { randperm(3, kBool); }, {"randperm", "bool"});
}

TEST(Random, BernoulliFollowsEachProbability) {
  manual_seed(5);
  Tensor p = full({kSamples}, 0.3);
  Tensor x = bernoulli(p);
  EXPECT_EQ(x.dtype(), kFloat32);
  EXPECT_EQ(x.sizes(), p.sizes());
  for (double v : values_of(x)) ASSERT_TRUE(v == 0 || v == 1);
  EXPECT_NEAR(moments_of(x).mean, 0.3, 0.008);

  Tensor edges = bernoulli(tensor({0.0, 1.0, 0.0, 1.0}));
  EXPECT_EQ(edges.dtype(), kFloat64);
  EXPECT_EQ(values_of(edges), (std::vector<double>{0, 1, 0, 1}));

  Tensor scalar_p = bernoulli({kSamples}, 0.8, kFloat64);
  EXPECT_EQ(scalar_p.dtype(), kFloat64);
  EXPECT_NEAR(moments_of(scalar_p).mean, 0.8, 0.007);
  Tensor mask = bernoulli({kSamples}, 0.5, kBool);
  EXPECT_EQ(mask.dtype(), kBool);
  EXPECT_NEAR(moments_of(mask).mean, 0.5, 0.008);
}

TEST(Random, BernoulliErrors) {
  expect_error([] { bernoulli(tensor({0.5, 1.5})); }, {"bernoulli", "1.5"});
  expect_error([] { bernoulli(tensor({-0.25f})); }, {"bernoulli", "-0.25"});
  expect_error([] { bernoulli(tensor({1, 0})); }, {"bernoulli", "int64"});
  expect_error([] { bernoulli({3}, 2.0); }, {"bernoulli", "2"});
}

TEST(Random, UniformInPlaceFillsRangeAndBumpsVersion) {
  manual_seed(6);
  Tensor t = zeros({kSamples});
  void* data = t.data_ptr();
  const uint32_t version = t.version();
  Tensor& result = uniform_(t, -2, 6);
  EXPECT_TRUE(result.is_same(t));
  EXPECT_EQ(t.data_ptr(), data);
  EXPECT_GT(t.version(), version);
  const std::vector<double> v = values_of(t);
  EXPECT_GE(*std::min_element(v.begin(), v.end()), -2.0);
  EXPECT_LT(*std::max_element(v.begin(), v.end()), 6.0);
  const Moments m = moments_of(t);
  EXPECT_NEAR(m.mean, 2.0, 0.04);
  EXPECT_NEAR(m.variance, 64.0 / 12, 0.1);
}

TEST(Random, NormalInPlaceHasMeanAndStd) {
  manual_seed(7);
  Tensor t = empty({kSamples}, kFloat64);
  const uint32_t version = t.version();
  normal_(t, 3, 0.5);
  EXPECT_GT(t.version(), version);
  const Moments m = moments_of(t);
  EXPECT_NEAR(m.mean, 3.0, 0.008);
  EXPECT_NEAR(std::sqrt(m.variance), 0.5, 0.006);
}

TEST(Random, InPlaceErrors) {
  Tensor ints = zeros({3}, kInt64);
  expect_error([&] { uniform_(ints); }, {"uniform_", "int64"});
  Tensor t = zeros({3});
  expect_error([&] { uniform_(t, 1, 0); }, {"uniform_", "from=1", "to=0"});
  expect_error([&] { uniform_(t, -3e38, 3e38); }, {"uniform_", "float32"});
  expect_error([&] { normal_(t, 0, -1); }, {"normal_", "-1"});
  Tensor leaf = zeros({3}).requires_grad_();
  expect_error([&] { normal_(leaf); }, {"normal_"});
  NoGradGuard no_grad;
  normal_(leaf);  // initializing parameters under no_grad is allowed
}

}  // namespace
}  // namespace accel
