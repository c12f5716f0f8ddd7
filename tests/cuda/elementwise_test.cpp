// The element-wise CUDA kernels (unary ops and gradients, clamp, binary ops, comparisons,
// where/masked_fill, allclose/equal) against the CPU's, through the public API, for every dtype
// each op takes and broadcast, strided, unaligned and large operands. Skipped without a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accel/accel.h"
#include "support/cuda_test.h"
#include "support/expect_error.h"
#include "support/integer_division.h"
#include "support/tensor_compare.h"

namespace accel {
namespace {

using testing::divide_integers;
using testing::expect_error_containing;
using testing::expect_matches_cpu;
using testing::Tolerance;

const Device kGpu(kCUDA, 0);
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

const std::vector<ScalarType> kFloatTypes = {kFloat32, kFloat64, kFloat16, kBFloat16};
const std::vector<ScalarType> kIntegerTypes = {kInt64, kInt32, kUInt8};
const std::vector<ScalarType> kAllTypes = {kFloat32, kFloat64, kFloat16, kBFloat16,
                                           kInt64,   kInt32,   kUInt8,   kBool};

std::string name_of(ScalarType t) { return std::string(to_string(t)); }

// ---- how far a GPU result may be from the CPU's: |gpu - cpu| <= atol + rtol * |cpu| ----

// Selections (abs, relu, clamp, maximum, where, ...), comparisons, integer and bool results,
// and single IEEE-rounded +, -, *, / (both devices round to nearest): no difference at all.
constexpr Tolerance kExact{};

// Results that go through libm functions (exp, log, sin, tanh, erf, pow, ...). CUDA's are
// within 2 ulp per call (4 for powf, by its Math API tables), glibc's within about 1, and a
// formula composes up to four calls and roundings, so float32 allows ~8 ulp (1e-6 relative)
// rather than 2. The absolute part covers cancellation near zeros (1 + erf(x) and 1 + tanh(x)
// for x << 0, cos near pi/2), where a few ulp of an O(1) intermediate, times factors up to
// |x| <= 3, are large against the result. A 16-bit result rounds the float one once: the
// devices may land one step apart (2^-10 relative for float16, 2^-7 for bfloat16).
Tolerance math_tolerance(ScalarType dtype) {
  switch (dtype) {
    case kFloat64:
      return {1e-14, 1e-14};
    case kFloat16:
      return {1e-3, 2e-6};
    case kBFloat16:
      return {8e-3, 2e-6};
    default:
      return {1e-6, 2e-6};
  }
}

// Backward formulas multiply such intermediates by more factors (gelu_tanh's 1 - tanh^2 by
// x/2 and sqrt(2/pi) (1 + 3 * 0.044715 x^2), up to ~2.7 together), so float32 doubles the
// absolute part. Formulas that read the saved output (exp, tanh, sigmoid) start from outputs
// that may already be one 16-bit step apart; grad * y, 1 - y * y and (1 - y) * y turn that into
// at most two steps, relative or absolute.
Tolerance gradient_tolerance(ScalarType dtype) {
  switch (dtype) {
    case kFloat16:
      return {2e-3, 2e-3};
    case kBFloat16:
      return {1.6e-2, 1.6e-2};
    case kFloat64:
      return math_tolerance(dtype);
    default:
      return {1e-6, 4e-6};
  }
}

// ---- inputs: built on the host from a fixed LCG, so both devices get identical values ----

class Draws {
 public:
  explicit Draws(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  double uniform() {  // in [0, 1)
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state_ >> 11) * 0x1.0p-53;
  }

 private:
  uint64_t state_;
};

int64_t numel_of(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// Values uniform in [lo, hi), rounded to dtype.
Tensor uniform(IntArrayRef sizes, double lo, double hi, ScalarType dtype, uint64_t seed) {
  Draws draws(seed);
  std::vector<double> v(static_cast<size_t>(numel_of(sizes)));
  for (double& x : v) x = lo + (hi - lo) * draws.uniform();
  return tensor(v).view(sizes).to(dtype);
}

// Operands for the binary and selection tests, drawn so that ties, zeros and NaN all occur:
// floating dtypes get multiples of 1/4 in [-3, 3] (exact in every float type) and ~4% NaN,
// signed integers -6..6, uint8 0..12, bool false/true.
Tensor sample(IntArrayRef sizes, ScalarType dtype, uint64_t seed) {
  Draws draws(seed);
  std::vector<double> v(static_cast<size_t>(numel_of(sizes)));
  for (double& x : v) {
    const int k = static_cast<int>(draws.uniform() * 26);  // 0..25
    if (is_floating_point(dtype)) {
      x = k == 25 ? kNan : (k - 12) * 0.25;
    } else if (dtype == kBool) {
      x = k % 2;
    } else {
      x = dtype == kUInt8 ? k % 13 : k % 13 - 6;
    }
  }
  return tensor(v).view(sizes).to(dtype);
}

// ---- unary ops and their gradients ----

struct UnaryCase {
  const char* name;
  Tensor (*fn)(const Tensor&);
  double lo, hi;  // the input range: log, sqrt and rsqrt take positive inputs
  bool exact;     // a selection, with no rounding anywhere
};

const UnaryCase kUnaryCases[] = {
    {"exp", [](const Tensor& x) { return exp(x); }, -3, 3, false},
    {"log", [](const Tensor& x) { return log(x); }, 0.05, 4, false},
    {"sqrt", [](const Tensor& x) { return sqrt(x); }, 0.05, 4, false},
    {"rsqrt", [](const Tensor& x) { return rsqrt(x); }, 0.05, 4, false},
    {"abs", [](const Tensor& x) { return abs(x); }, -3, 3, true},
    {"sin", [](const Tensor& x) { return sin(x); }, -3, 3, false},
    {"cos", [](const Tensor& x) { return cos(x); }, -3, 3, false},
    {"tanh", [](const Tensor& x) { return tanh(x); }, -3, 3, false},
    {"sigmoid", [](const Tensor& x) { return sigmoid(x); }, -3, 3, false},
    {"relu", [](const Tensor& x) { return relu(x); }, -3, 3, true},
    {"gelu", [](const Tensor& x) { return gelu(x); }, -3, 3, false},
    {"gelu_tanh", [](const Tensor& x) { return x.gelu("tanh"); }, -3, 3, false},
    {"silu", [](const Tensor& x) { return silu(x); }, -3, 3, false},
};

TEST(CudaElementwise, UnaryOpsAndGradientsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (const UnaryCase& c : kUnaryCases) {
    for (ScalarType dtype : kFloatTypes) {
      const std::string what = std::string(c.name) + " " + name_of(dtype);
      const Tolerance tol = c.exact ? kExact : math_tolerance(dtype);
      // 67 x 45 elements: not a multiple of any packet width, so the tail path runs too.
      const Tensor x = uniform({67, 45}, c.lo, c.hi, dtype, 1);
      const Tensor on_gpu = x.to(kGpu);
      expect_matches_cpu(c.fn(on_gpu), c.fn(x), tol, what + " forward");
      expect_matches_cpu(c.fn(on_gpu.t()), c.fn(x.t()), tol, what + " forward, transposed input");

      const Tensor cpu_leaf = x.clone().requires_grad_();
      const Tensor gpu_leaf = x.to(kGpu).requires_grad_();
      const Tensor upstream = uniform({67, 45}, -1, 1, dtype, 2);
      c.fn(cpu_leaf).backward(upstream);
      c.fn(gpu_leaf).backward(upstream.to(kGpu));
      ASSERT_TRUE(gpu_leaf.grad().defined()) << what << ": no gradient";
      expect_matches_cpu(gpu_leaf.grad(), cpu_leaf.grad(),
                         c.exact ? kExact : gradient_tolerance(dtype), what + " gradient");
    }
  }
}

TEST(CudaElementwise, UnaryOpsOnIntegersMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : kIntegerTypes) {
    const std::string what = name_of(dtype);
    const Tensor x = sample({9, 31}, dtype, 3);
    const Tensor on_gpu = x.to(kGpu);
    expect_matches_cpu(abs(on_gpu), abs(x), kExact, "abs " + what);  // keeps the integer type
    expect_matches_cpu(relu(on_gpu), relu(x), kExact, "relu " + what);
    expect_matches_cpu(exp(on_gpu), exp(x), math_tolerance(kFloat32), "exp " + what);  // float32
  }
}

// ---- clamp ----

// Multiples of 1/8 in [-3.75, 3.75] (exact in every float type, some exactly on the bounds
// below), then NaN and both infinities.
Tensor clamp_input(ScalarType dtype) {
  std::vector<double> v;
  for (int i = -30; i <= 30; ++i) v.push_back(i * 0.125);
  v.insert(v.end(), {kNan, -kInf, kInf});
  return tensor(v).to(dtype);
}

TEST(CudaElementwise, ClampAndItsGradientMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  using Bounds = std::pair<std::optional<Scalar>, std::optional<Scalar>>;
  const std::vector<Bounds> bounds = {{-1.5, 2.25}, {-1.5, std::nullopt}, {std::nullopt, 2.25}};
  for (ScalarType dtype : kFloatTypes) {
    const Tensor x = clamp_input(dtype);
    const Tensor on_gpu = x.to(kGpu);
    const Tensor upstream = uniform({x.numel()}, -1, 1, dtype, 4);
    for (const auto& [lo, hi] : bounds) {
      const std::string what =
          "clamp(" + std::string(lo ? "min" : "") + (hi ? " max" : "") + ") " + name_of(dtype);
      expect_matches_cpu(clamp(on_gpu, lo, hi), clamp(x, lo, hi), kExact, what);
      // The gradient passes strictly inside the bounds only: 0 on them and at NaN.
      const Tensor cpu_leaf = x.clone().requires_grad_();
      const Tensor gpu_leaf = x.to(kGpu).requires_grad_();
      clamp(cpu_leaf, lo, hi).backward(upstream);
      clamp(gpu_leaf, lo, hi).backward(upstream.to(kGpu));
      expect_matches_cpu(gpu_leaf.grad(), cpu_leaf.grad(), kExact, what + " gradient");
    }
    // min > max gives max everywhere; a NaN bound gives NaN everywhere.
    expect_matches_cpu(clamp(on_gpu, 2.0, -1.0), clamp(x, 2.0, -1.0), kExact,
                       "clamp min > max " + name_of(dtype));
    expect_matches_cpu(clamp(on_gpu, kNan, std::nullopt), clamp(x, kNan, std::nullopt), kExact,
                       "clamp NaN min " + name_of(dtype));
  }
  for (ScalarType dtype : kIntegerTypes) {
    const Tensor x = sample({64}, dtype, 5);
    const Tensor on_gpu = x.to(kGpu);
    for (const auto& [lo, hi] : std::vector<Bounds>{{2, 7}, {4, std::nullopt}, {std::nullopt, 3}}) {
      expect_matches_cpu(clamp(on_gpu, lo, hi), clamp(x, lo, hi), kExact,
                         "clamp " + name_of(dtype));
    }
    // A float bound promotes to float32.
    expect_matches_cpu(clamp(on_gpu, 1.5, std::nullopt), clamp(x, 1.5, std::nullopt), kExact,
                       "clamp with a float bound " + name_of(dtype));
  }
}

// ---- binary ops and comparisons ----

struct BinaryCase {
  const char* name;
  Tensor (*fn)(const Tensor&, const Tensor&);
  bool uses_libm;   // pow: compared with math_tolerance
  bool takes_bool;  // whether the op accepts two bool operands
};

// alpha = 2 and 3 keep alpha * b exact on the sampled values, so contracting a + alpha * b into
// one fused multiply-add (either device may) cannot change the result.
const BinaryCase kBinaryCases[] = {
    {"add", [](const Tensor& a, const Tensor& b) { return a + b; }, false, true},
    {"add_alpha", [](const Tensor& a, const Tensor& b) { return add(a, b, 2); }, false, false},
    {"sub", [](const Tensor& a, const Tensor& b) { return a - b; }, false, false},
    {"sub_alpha", [](const Tensor& a, const Tensor& b) { return sub(a, b, 3); }, false, false},
    {"mul", [](const Tensor& a, const Tensor& b) { return a * b; }, false, true},
    {"div", [](const Tensor& a, const Tensor& b) { return a / b; }, false, true},
    {"pow", [](const Tensor& a, const Tensor& b) { return pow(a, b); }, true, false},
    {"maximum", [](const Tensor& a, const Tensor& b) { return maximum(a, b); }, false, true},
    {"minimum", [](const Tensor& a, const Tensor& b) { return minimum(a, b); }, false, true},
    {"eq", [](const Tensor& a, const Tensor& b) { return eq(a, b); }, false, true},
    {"ne", [](const Tensor& a, const Tensor& b) { return ne(a, b); }, false, true},
    {"lt", [](const Tensor& a, const Tensor& b) { return lt(a, b); }, false, true},
    {"le", [](const Tensor& a, const Tensor& b) { return le(a, b); }, false, true},
    {"gt", [](const Tensor& a, const Tensor& b) { return gt(a, b); }, false, true},
    {"ge", [](const Tensor& a, const Tensor& b) { return ge(a, b); }, false, true},
};

// The operand layouts: one contiguous shape (the ops' flat fast path), broadcast shapes, a
// transposed and a step-2 slice (the strided kernel), and a 0-dim operand (stride 0).
enum class Layout { Same, Broadcast, Strided, ZeroDim };
const std::pair<Layout, const char*> kLayouts[] = {{Layout::Same, "same shape"},
                                                   {Layout::Broadcast, "broadcast"},
                                                   {Layout::Strided, "strided"},
                                                   {Layout::ZeroDim, "0-dim b"}};

// Operands a and b of `dtype` laid out as `layout` on `device`, from the same values on every
// device (views are taken after the move, so they are views on the device).
std::pair<Tensor, Tensor> operands(Layout layout, ScalarType dtype, Device device) {
  switch (layout) {
    case Layout::Same:
      return {sample({37, 29}, dtype, 6).to(device), sample({37, 29}, dtype, 7).to(device)};
    case Layout::Broadcast:
      return {sample({5, 1, 7}, dtype, 8).to(device), sample({3, 7}, dtype, 9).to(device)};
    case Layout::Strided:
      return {sample({29, 37}, dtype, 10).to(device).t(),
              sample({37, 58}, dtype, 11).to(device).slice(1, std::nullopt, std::nullopt, 2)};
    case Layout::ZeroDim:
      return {sample({37, 29}, dtype, 12).to(device), sample({1}, dtype, 13).to(device)[0]};
  }
  return {};
}

TEST(CudaElementwise, BinaryOpsAndComparisonsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : kAllTypes) {
    for (const auto& [layout, layout_name] : kLayouts) {
      const auto [a, b] = operands(layout, dtype, Device(kCPU));
      const auto [a_gpu, b_gpu] = operands(layout, dtype, kGpu);
      for (const BinaryCase& c : kBinaryCases) {
        if (dtype == kBool && !c.takes_bool) continue;
        const Tensor expected = c.fn(a, b);
        const Tolerance tol = c.uses_libm ? math_tolerance(expected.dtype()) : kExact;
        expect_matches_cpu(c.fn(a_gpu, b_gpu), expected, tol,
                           std::string(c.name) + " " + name_of(dtype) + ", " + layout_name);
      }
    }
  }
}

TEST(CudaElementwise, TensorScalarOpsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : kFloatTypes) {
    const Tensor x = sample({41, 13}, dtype, 14);
    const Tensor on_gpu = x.to(kGpu);
    const std::string what = " " + name_of(dtype);
    expect_matches_cpu(on_gpu * 2.5, x * 2.5, kExact, "x * 2.5" + what);
    expect_matches_cpu(on_gpu - 0.75, x - 0.75, kExact, "x - 0.75" + what);
    expect_matches_cpu(gt(on_gpu, 0.5), gt(x, 0.5), kExact, "x > 0.5" + what);
    expect_matches_cpu(pow(on_gpu, 3), pow(x, 3), math_tolerance(dtype), "x ** 3" + what);
  }
  for (ScalarType dtype : kIntegerTypes) {
    const Tensor x = sample({41, 13}, dtype, 15);
    const Tensor on_gpu = x.to(kGpu);
    const std::string what = " " + name_of(dtype);
    expect_matches_cpu(on_gpu + 3, x + 3, kExact, "x + 3" + what);
    expect_matches_cpu(on_gpu * 2, x * 2, kExact, "x * 2" + what);
    expect_matches_cpu(on_gpu * 0.5, x * 0.5, kExact, "x * 0.5 (float32)" + what);
    expect_matches_cpu(ge(on_gpu, 1), ge(x, 1), kExact, "x >= 1" + what);
  }
}

// ---- integer division, which only the kernel table reaches ----

TEST(CudaElementwise, IntegerDivisionByZeroRaisesAtTheNextSync) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : {kInt64, kInt32, kUInt8, kBool}) {
    const std::string what = "div " + name_of(dtype);
    const bool is_bool = dtype == kBool;
    const bool is_signed = dtype == kInt64 || dtype == kInt32;
    // Divisors without a zero: C++'s truncating quotients, as on the CPU.
    const Tensor a =
        is_bool ? tensor({true, false, true}) : tensor({7, is_signed ? -7 : 200, 9, 12}).to(dtype);
    const Tensor b =
        is_bool ? tensor({true, true, true}) : tensor({2, 2, is_signed ? -4 : 4, 5}).to(dtype);
    expect_matches_cpu(divide_integers(a.to(kGpu), b.to(kGpu)), divide_integers(a, b), kExact,
                       what);
    if (is_signed) {  // the one overflowing quotient, the minimum over -1, wraps on both devices
      const int64_t lowest = dtype == kInt64 ? std::numeric_limits<int64_t>::min()
                                             : std::numeric_limits<int32_t>::min();
      const Tensor minimum = tensor(std::vector<int64_t>{lowest}).to(dtype);
      const Tensor minus_one = tensor({-1}).to(dtype);
      expect_matches_cpu(divide_integers(minimum.to(kGpu), minus_one.to(kGpu)),
                         divide_integers(minimum, minus_one), kExact, what + ": minimum / -1");
    }

    // With a zero divisor the CPU throws at once; the GPU writes 0 there and raises the error
    // at the next synchronization (the copy to the host), once.
    const Tensor zero = is_bool ? tensor({true, false, true}) : tensor({2, 0, 4, 5}).to(dtype);
    expect_error_containing([&] { (void)divide_integers(a, zero); },
                            "div: integer division by zero");
    Tensor quotient;
    EXPECT_NO_THROW(quotient = divide_integers(a.to(kGpu), zero.to(kGpu))) << what;
    expect_error_containing([&] { (void)quotient.cpu(); }, "div: integer division by zero");
    const Tensor back = quotient.cpu();  // the error was raised once and cleared
    EXPECT_EQ(back[1].item<int64_t>(), 0) << what << ": the quotient where the divisor is 0";
    EXPECT_EQ(back[0].item<int64_t>(), divide_integers(a[0], zero[0]).item<int64_t>()) << what;
  }
}

// ---- where and masked_fill ----

TEST(CudaElementwise, WhereAndMaskedFillMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  const Tensor condition = sample({4, 1}, kBool, 16);  // broadcast along the columns
  const Tensor mask = sample({6}, kBool, 17);          // broadcast along the rows
  for (ScalarType dtype : kAllTypes) {
    const std::string what = " " + name_of(dtype);
    const Tensor a = sample({4, 6}, dtype, 18);
    const Tensor b = sample({6, 4}, dtype, 19);  // used transposed: strided
    const Tensor a_gpu = a.to(kGpu), b_gpu = b.to(kGpu);
    const Tensor c_gpu = condition.to(kGpu), m_gpu = mask.to(kGpu);
    const Scalar value = dtype == kBool             ? Scalar(true)
                         : is_floating_point(dtype) ? Scalar(-2.5)
                                                    : Scalar(7);
    expect_matches_cpu(where(c_gpu, a_gpu, b_gpu.t()), where(condition, a, b.t()), kExact,
                       "where" + what);
    expect_matches_cpu(masked_fill(a_gpu, m_gpu, value), masked_fill(a, mask, value), kExact,
                       "masked_fill" + what);
    expect_matches_cpu(where(c_gpu, a_gpu, value), where(condition, a, value), kExact,
                       "where(c, x, scalar)" + what);
    expect_matches_cpu(where(c_gpu, value, a_gpu), where(condition, value, a), kExact,
                       "where(c, scalar, x)" + what);
  }
  // Their gradients zero the unselected places.
  const Tensor upstream = uniform({4, 6}, -1, 1, kFloat32, 20);
  const Tensor x = sample({4, 6}, kFloat32, 21);
  const Tensor cpu_leaf = x.clone().requires_grad_();
  const Tensor gpu_leaf = x.to(kGpu).requires_grad_();
  where(condition, cpu_leaf, 0.0).backward(upstream);
  where(condition.to(kGpu), gpu_leaf, 0.0).backward(upstream.to(kGpu));
  expect_matches_cpu(gpu_leaf.grad(), cpu_leaf.grad(), kExact, "where gradient");
}

// ---- allclose and equal ----

// allclose(a, b, ...) is `expected` on the CPU and on the GPU.
void expect_allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan,
                     bool expected, const std::string& what) {
  EXPECT_EQ(allclose(a, b, rtol, atol, equal_nan), expected) << what << " on the CPU";
  EXPECT_EQ(allclose(a.to(kGpu), b.to(kGpu), rtol, atol, equal_nan), expected)
      << what << " on the GPU";
}

TEST(CudaElementwise, AllcloseAndEqualMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype : kFloatTypes) {
    const std::string what = " " + name_of(dtype);
    const Tensor x = uniform({33, 17}, -3, 3, dtype, 22);
    const Tensor y = x * 1.01;  // 1% apart (bfloat16 rounds 1.01 to 1.0078)
    expect_allclose(x, x, 1e-5, 1e-8, false, true, "x vs x" + what);
    expect_allclose(x, y, 1e-5, 1e-8, false, false, "x vs 1.01 x" + what);
    expect_allclose(x, y, 0.05, 1e-3, false, true, "x vs 1.01 x, rtol 0.05" + what);
    const Tensor nan = tensor({1.0, kNan, 3.0}).to(dtype);
    expect_allclose(nan, nan, 1e-5, 1e-8, false, false, "NaN" + what);
    expect_allclose(nan, nan, 1e-5, 1e-8, true, true, "NaN, equal_nan" + what);
    const Tensor inf = tensor({kInf, -kInf, 1.0}).to(dtype);
    expect_allclose(inf, inf, 1e-5, 1e-8, false, true, "infinities" + what);
    expect_allclose(inf, tensor({kInf, kInf, 1.0}).to(dtype), 1e-5, 1e-8, false, false,
                    "inf vs -inf" + what);
    // Broadcast: a column against a matrix made of it.
    const Tensor column = uniform({5, 1}, -3, 3, dtype, 23);
    const Tensor matrix = column.expand({5, 4}).contiguous();
    expect_allclose(column, matrix, 1e-5, 1e-8, false, true, "broadcast" + what);
    expect_allclose(column, matrix * 2.0, 1e-5, 1e-8, false, false, "broadcast, 2x" + what);
  }
  for (ScalarType dtype : {kInt64, kInt32, kUInt8, kBool}) {
    const std::string what = " " + name_of(dtype);
    const Tensor x = sample({33, 17}, dtype, 24);
    expect_allclose(x, x, 1e-5, 1e-8, false, true, "x vs x" + what);
    if (dtype == kBool) {
      expect_allclose(x, eq(x, false), 1e-5, 1e-8, false, false, "x vs not x" + what);
    } else {
      expect_allclose(x, x + 1, 1e-5, 1e-8, false, false, "x vs x + 1" + what);
      expect_allclose(x, x + 1, 0, 1, false, true, "x vs x + 1, atol 1" + what);
    }
  }
  // equal promotes dtypes and requires the same sizes.
  const Tensor i = sample({7, 3}, kInt64, 25);
  EXPECT_TRUE(equal(i.to(kGpu), i.to(kFloat32).to(kGpu)));
  EXPECT_FALSE(equal(i.to(kGpu), (i + 1).to(kGpu)));
  EXPECT_FALSE(equal(i.to(kGpu), i.t().contiguous().to(kGpu)));
  // A large pair that differs only in its last element: every element is visited.
  const int64_t n = 3'000'001;
  const Tensor big = uniform({n}, -1, 1, kFloat32, 26);
  const Tensor last_changed = masked_fill(big, eq(arange(n, kInt64), n - 1), 5.0);
  expect_allclose(big, big, 1e-5, 1e-8, false, true, "large, equal");
  expect_allclose(big, last_changed, 1e-5, 1e-8, false, false, "large, last element differs");
}

// ---- large and unaligned operands ----

// A few million elements: the vectorized contiguous path with many blocks and a ragged tail.
TEST(CudaElementwise, LargeContiguousOperandsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  const int64_t n = (int64_t{1} << 22) + 3;
  for (ScalarType dtype : {kFloat32, kFloat16, kInt64}) {
    const std::string what = " " + name_of(dtype) + ", " + std::to_string(n) + " elements";
    const Tensor a = sample({n}, dtype, 27), b = sample({n}, dtype, 28);
    const Tensor a_gpu = a.to(kGpu), b_gpu = b.to(kGpu);
    expect_matches_cpu(a_gpu + b_gpu, a + b, kExact, "add" + what);
    expect_matches_cpu(a_gpu * b_gpu, a * b, kExact, "mul" + what);
    expect_matches_cpu(gt(a_gpu, b_gpu), gt(a, b), kExact, "gt" + what);
    expect_matches_cpu(where(gt(a_gpu, b_gpu), a_gpu, b_gpu), where(gt(a, b), a, b), kExact,
                       "where" + what);
    expect_matches_cpu(relu(a_gpu), relu(a), kExact, "relu" + what);
    if (is_floating_point(dtype)) {
      expect_matches_cpu(sigmoid(a_gpu), sigmoid(a), math_tolerance(dtype), "sigmoid" + what);
    }
  }
}

// Views that start one element into their storage are contiguous but not aligned for 16-byte
// packets: the one-element-at-a-time contiguous path.
TEST(CudaElementwise, UnalignedContiguousViewsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (int64_t n : {int64_t{1000}, (int64_t{1} << 20) + 5}) {
    for (ScalarType dtype : {kFloat32, kFloat64, kFloat16, kInt32}) {
      const std::string what = " " + name_of(dtype) + ", " + std::to_string(n) + " elements";
      const Tensor base_a = sample({n + 1}, dtype, 29), base_b = sample({n + 1}, dtype, 30);
      const Tensor a = base_a.narrow(0, 1, n), b = base_b.narrow(0, 1, n);
      const Tensor a_gpu = base_a.to(kGpu).narrow(0, 1, n);
      const Tensor b_gpu = base_b.to(kGpu).narrow(0, 1, n);
      ASSERT_TRUE(a_gpu.is_contiguous());
      expect_matches_cpu(a_gpu + b_gpu, a + b, kExact, "add" + what);
      expect_matches_cpu(relu(a_gpu), relu(a), kExact, "relu" + what);
      expect_matches_cpu(clamp(a_gpu, -1, 1), clamp(a, -1, 1), kExact, "clamp" + what);
      expect_matches_cpu(where(gt(a_gpu, b_gpu), a_gpu, b_gpu), where(gt(a, b), a, b), kExact,
                         "where" + what);
      if (is_floating_point(dtype)) {
        expect_matches_cpu(exp(a_gpu), exp(a), math_tolerance(dtype), "exp" + what);
      }
    }
  }
}

}  // namespace
}  // namespace accel
