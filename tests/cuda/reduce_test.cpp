// The CUDA reductions and softmax against the CPU kernels, through the public ops: every shape
// class the CUDA fold treats differently (long and short contiguous rows, columns, chunked
// reductions, one term, none), special values, every dtype, gradients, and that repeated runs
// give the same bits. Each test skips itself without a CUDA device.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "accel/accel.h"
#include "support/cuda_test.h"
#include "support/tensor_compare.h"

namespace accel {
namespace {

const Device kGpu(kCUDA, 0);
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const std::vector<ScalarType> kFloatTypes = {kFloat32, kFloat64, kFloat16, kBFloat16};

using Op = std::function<Tensor(const Tensor&)>;
using testing::expect_same_bits;
using testing::Tolerance;

// How far a CUDA result may be from the CPU's, which combines terms in another order: rtol
// relative to the CPU's value, atol absolute, times the magnitude a check is given (1 when none).
//
// Results computed from sums (means, variances, softmax, logsumexp, products of a few dozen
// terms): float64 and float32 differ by the summation order's rounding; a 16-bit result may
// also round to the neighbouring value, one step being 2^-10 of it for float16 and 2^-7 for
// bfloat16. Integer and bool results, and max/min, must be exact.
Tolerance tolerance(ScalarType t) {
  switch (t) {
    case kFloat64:
      return {1e-10, 1e-12};
    case kFloat32:
      return {1e-5, 1e-6};
    case kFloat16:
      return {2e-3, 1e-4};
    case kBFloat16:
      return {1.6e-2, 1e-3};
    default:
      return {0, 0};
  }
}

// Sums, whose atol applies to the sum of the terms' magnitudes (which bounds the rounding of
// any summation order): 1e-5 of it in float32 (about 170 float32 epsilons, well above what
// sums of up to 10^7 terms in blocked orders reach), 1e-12 in float64; 16-bit sums
// accumulate in float32 and round once, so their rtol is tolerance()'s.
Tolerance sum_tolerance(ScalarType t) {
  switch (t) {
    case kFloat64:
      return {1e-12, 1e-12};
    case kFloat32:
      return {1e-5, 1e-5};
    case kFloat16:
    case kBFloat16:
      return {tolerance(t).rtol, 1e-5};
    default:
      return {0, 0};
  }
}

// Normal values from a fixed seed: the same on every run.
Tensor normal(IntArrayRef sizes, ScalarType dtype, uint64_t seed) {
  Generator generator(seed);
  return randn(sizes, kFloat64, &generator).to(dtype);
}

// Integers in [low, high) as `dtype`, with many ties.
Tensor integers(int64_t low, int64_t high, IntArrayRef sizes, ScalarType dtype, uint64_t seed) {
  Generator generator(seed);
  return randint(low, high, sizes, kInt64, &generator).to(dtype);
}

// A CPU tensor of `dtype` holding `values`, shaped `sizes`.
Tensor values_of(const std::vector<double>& values, IntArrayRef sizes, ScalarType dtype) {
  return tensor(values, kFloat64).reshape(sizes).to(dtype);
}

// f on the GPU (x moved there) against f on the CPU; atol scales with `magnitude`, a CPU tensor
// shaped like f's result, where given.
void expect_gpu_matches_cpu(const Op& f, const Tensor& x, Tolerance tol, const std::string& what,
                            const Tensor& magnitude = {}) {
  testing::expect_matches_cpu(f(x.to(kGpu)), f(x), tol, what, magnitude);
}

// The gradient of f at x (on x's device) for the upstream gradient `grad` (on the CPU).
Tensor gradient_of(const Op& f, const Tensor& x, const Tensor& grad) {
  Tensor leaf = x.detach().clone().requires_grad_();
  f(leaf).backward(grad.to(x.device()));
  return leaf.grad();
}

// f's gradient on the GPU against the CPU's, for a random upstream gradient.
void expect_gradients_match(const Op& f, const Tensor& x, Tolerance tol, const std::string& what) {
  const Tensor out = f(x);
  const Tensor grad = normal(out.sizes(), out.dtype(), 99);
  testing::expect_matches_cpu(gradient_of(f, x.to(kGpu), grad), gradient_of(f, x, grad), tol,
                              what + " gradient");
}

std::string describe(const std::string& name, ScalarType t) {
  return name + " (" + std::string(to_string(t)) + ")";
}

// Shapes and reduced dims covering the CUDA fold's layouts: rows (inner == 1) long enough for
// a warp or more per row, short rows, rows and columns cut into chunks whose partial results
// a second pass combines, a few outputs with a long reduction, one term, no terms, no outputs,
// dims that need a permuted copy, and every dim.
struct ReduceCase {
  std::string name;
  std::vector<int64_t> sizes;
  std::vector<int64_t> dims;  // empty: all dims
};

const std::vector<ReduceCase> kReduceCases = {
    {"warp_rows", {64, 1000}, {1}},       {"short_rows", {1000, 7}, {1}},
    {"chunked_rows", {3, 100000}, {1}},   {"columns", {16, 300, 40}, {1}},
    {"chunked_columns", {5000, 33}, {0}}, {"narrow_long_columns", {200000, 3}, {0}},
    {"one_term", {5, 1, 6}, {1}},         {"no_terms", {4, 0, 3}, {1}},
    {"no_outputs", {0, 5}, {1}},          {"permuted_dims", {6, 7, 8}, {0, 2}},
    {"all_dims", {37, 53, 11}, {}},
};

TEST(CudaReduce, SumAndMeanMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : kFloatTypes) {
    for (const ReduceCase& c : kReduceCases) {
      const Tensor x = normal(c.sizes, t, 1);
      const Tensor magnitude = x.to(kFloat64).abs().sum(c.dims);
      expect_gpu_matches_cpu([&](const Tensor& a) { return a.sum(c.dims); }, x, sum_tolerance(t),
                             describe("sum " + c.name, t), magnitude);
      const int64_t terms =
          std::max<int64_t>(1, x.numel() / std::max<int64_t>(1, magnitude.numel()));
      expect_gpu_matches_cpu([&](const Tensor& a) { return a.mean(c.dims); }, x, sum_tolerance(t),
                             describe("mean " + c.name, t), magnitude / static_cast<double>(terms));
    }
    const Tensor x = normal({64, 300}, t, 2);
    expect_gradients_match([](const Tensor& a) { return a.sum({1}); }, x, tolerance(t),
                           describe("sum", t));
    expect_gradients_match([](const Tensor& a) { return a.mean({0}); }, x, tolerance(t),
                           describe("mean", t));
  }
}

// The 2-norm folds the squares in sum's order on both devices.
TEST(CudaReduce, TwoNormMatchesCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : kFloatTypes) {
    for (const ReduceCase& c : kReduceCases) {
      const Tensor x = normal(c.sizes, t, 14);
      const Tensor magnitude = x.to(kFloat64).square().sum(c.dims).sqrt();
      expect_gpu_matches_cpu([&](const Tensor& a) { return a.norm(2, c.dims, false); }, x,
                             sum_tolerance(t), describe("norm " + c.name, t), magnitude);
    }
    const Tensor x = normal({64, 300}, t, 15);
    expect_gradients_match([](const Tensor& a) { return a.norm(2, {1}, false); }, x, tolerance(t),
                           describe("norm", t));
  }
}

TEST(CudaReduce, SumOfIntegersAndBoolsIsExact) {
  ACCEL_REQUIRE_CUDA();
  for (const ReduceCase& c : kReduceCases) {
    for (ScalarType t : {kInt32, kInt64, kUInt8}) {
      const Tensor x =
          t == kUInt8 ? integers(0, 256, c.sizes, t, 3) : integers(-1000, 1000, c.sizes, t, 3);
      expect_gpu_matches_cpu([&](const Tensor& a) { return a.sum(c.dims); }, x, {0, 0},
                             describe("sum " + c.name, t));
      // Keeping the dtype: uint8 sums wrap around modulo 256 on both devices.
      expect_gpu_matches_cpu([&](const Tensor& a) { return a.sum(c.dims, false, t); }, x, {0, 0},
                             describe("sum keeping the dtype " + c.name, t));
    }
    const Tensor flags = normal(c.sizes, kFloat32, 4).gt(0.5);
    expect_gpu_matches_cpu([&](const Tensor& a) { return a.sum(c.dims); }, flags, {0, 0},
                           describe("sum " + c.name, kBool));
  }
  const Tensor big = integers(-1000, 1000, {10'000'000}, kInt32, 5);
  expect_gpu_matches_cpu([](const Tensor& a) { return a.sum(); }, big, {0, 0}, "sum of 10M int32");
}

TEST(CudaReduce, SumIntoAnotherFloatType) {
  ACCEL_REQUIRE_CUDA();
  const Tensor x = normal({3, 100000}, kFloat16, 6);
  const Tensor magnitude = x.to(kFloat64).abs().sum({1});
  expect_gpu_matches_cpu([](const Tensor& a) { return a.sum({1}, false, kFloat32); }, x,
                         sum_tolerance(kFloat32), "sum of float16 into float32", magnitude);
  expect_gpu_matches_cpu([](const Tensor& a) { return a.sum({1}, false, kFloat64); }, x,
                         sum_tolerance(kFloat64), "sum of float16 into float64", magnitude);
}

// Products of at most 64 terms near 1 stay far from overflow, and their rounding within
// tolerance(): 64 float32 roundings are below 4e-6.
TEST(CudaReduce, ProdAndItsGradientMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : kFloatTypes) {
    const Tensor x = (normal({40, 64}, kFloat64, 7) * 0.05 + 1.0).to(t);
    expect_gpu_matches_cpu([](const Tensor& a) { return a.prod(1); }, x, tolerance(t),
                           describe("prod rows", t));
    expect_gpu_matches_cpu([](const Tensor& a) { return a.prod(0); }, x, tolerance(t),
                           describe("prod columns", t));
    expect_gpu_matches_cpu([](const Tensor& a) { return a.slice(0, 0, 4).slice(1, 0, 16).prod(); },
                           x, tolerance(t), describe("prod of all of a [4, 16]", t));
    expect_gpu_matches_cpu([](const Tensor& a) { return a.slice(1, 0, 0).prod(1); }, x, {0, 0},
                           describe("prod of no terms", t));
    expect_gradients_match([](const Tensor& a) { return a.prod(1); }, x, tolerance(t),
                           describe("prod rows", t));
    expect_gradients_match([](const Tensor& a) { return a.prod(0); }, x, tolerance(t),
                           describe("prod columns", t));
    // Rows without zeros, with one, and with two: the product of the others, as PyTorch.
    const Tensor zeros_in_rows =
        values_of({2, 3, 0.5, -1, 4, 2, 0, 0.5, -1, 4, 2, 0, 0.5, 0, 4}, {3, 5}, t);
    expect_gpu_matches_cpu([](const Tensor& a) { return a.prod(1); }, zeros_in_rows, tolerance(t),
                           describe("prod with zeros", t));
    expect_gradients_match([](const Tensor& a) { return a.prod(1); }, zeros_in_rows, tolerance(t),
                           describe("prod with zeros in rows", t));
    expect_gradients_match([](const Tensor& a) { return a.t().contiguous().prod(0); },
                           zeros_in_rows, tolerance(t), describe("prod with zeros in columns", t));
  }
  // Integer products are exact, into int64: factors of 1 and 2 (and -1, -2 where signed).
  const Tensor magnitudes = integers(1, 3, {6, 50}, kInt64, 8);
  const Tensor signs = integers(0, 2, {6, 50}, kInt64, 20) * 2 - 1;
  for (ScalarType t : {kInt32, kInt64, kUInt8, kBool}) {
    const Tensor x = (t == kInt32 || t == kInt64 ? magnitudes * signs : magnitudes).to(t);
    expect_gpu_matches_cpu([](const Tensor& a) { return a.prod(1); }, x, {0, 0},
                           describe("prod", t));
    expect_gpu_matches_cpu([](const Tensor& a) { return a.prod(0); }, x, {0, 0},
                           describe("prod over dim 0", t));
    expect_gpu_matches_cpu([](const Tensor& a) { return a.slice(1, 0, 10).prod(); }, x, {0, 0},
                           describe("prod of all", t));
  }
  // Overflow wraps around modulo 2^64 on both devices: 2^70 gives 0, 3^70 the same residue.
  for (int64_t factor : {2, 3}) {
    expect_gpu_matches_cpu([](const Tensor& a) { return a.prod(); }, full({70}, factor, kInt64),
                           {0, 0}, "prod of 70 factors of " + std::to_string(factor));
  }
}

// Every max/min flavour over one input, values and indices exact.
void expect_extrema_match(const Tensor& x, int64_t dim, const std::string& what) {
  const std::vector<std::pair<std::string, Op>> ops = {
      {"max()", [](const Tensor& a) { return a.max(); }},
      {"min()", [](const Tensor& a) { return a.min(); }},
      {"max(dim) values", [dim](const Tensor& a) { return std::get<0>(a.max(dim)); }},
      {"max(dim) indices", [dim](const Tensor& a) { return std::get<1>(a.max(dim)); }},
      {"min(dim) values", [dim](const Tensor& a) { return std::get<0>(a.min(dim, true)); }},
      {"min(dim) indices", [dim](const Tensor& a) { return std::get<1>(a.min(dim, true)); }},
      {"amax(dim)", [dim](const Tensor& a) { return a.amax({dim}); }},
      {"amin(all)", [](const Tensor& a) { return a.amin(); }},
      {"argmax(dim)", [dim](const Tensor& a) { return a.argmax(dim); }},
      {"argmin(dim)", [dim](const Tensor& a) { return a.argmin(dim); }},
      {"argmax()", [](const Tensor& a) { return a.argmax(); }},
      {"argmin()", [](const Tensor& a) { return a.argmin(); }},
  };
  for (const auto& [name, f] : ops) {
    expect_gpu_matches_cpu(f, x, {0, 0}, describe(what + " " + name, x.dtype()));
  }
}

TEST(CudaReduce, MaxAndMinWithTiesMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : {kFloat32, kFloat64, kFloat16, kBFloat16, kInt32, kInt64, kUInt8, kBool}) {
    const int64_t low = t == kUInt8 || t == kBool ? 0 : -5;
    const int64_t high = t == kBool ? 2 : 5;
    for (const ReduceCase& c : kReduceCases) {
      if (c.dims.size() != 1) continue;
      const Tensor x = integers(low, high, c.sizes, t, 9);
      if (x.numel() == 0) continue;  // max of nothing is an error, on every device
      expect_extrema_match(x, c.dims[0], c.name);
    }
  }
  for (ScalarType t : kFloatTypes) {
    const Tensor x = normal({300, 40}, t, 10);
    expect_gradients_match([](const Tensor& a) { return std::get<0>(a.max(1)); }, x, {0, 0},
                           describe("max(dim)", t));
    expect_gradients_match([](const Tensor& a) { return std::get<0>(a.min(0)); }, x, {0, 0},
                           describe("min(dim 0)", t));
    // Ties share amax's gradient: the split runs through element-wise kernels.
    const Tensor ties = integers(-3, 3, {50, 40}, t, 11);
    expect_gradients_match([](const Tensor& a) { return a.amax({1}); }, ties, tolerance(t),
                           describe("amax with ties", t));
  }
}

// Rows of 5 holding NaN and infinities; NaN counts as the extremum, the first one's index.
const std::vector<double> kSpecialRows = {
    1,     kNan,  3,     kNan,  2,      // NaN wins, at index 1
    -kInf, -kInf, -kInf, -kInf, -kInf,  // all -inf
    kInf,  1,     kInf,  0,     -1,     // +inf twice
    -kInf, 0,     -kInf, 1,     -kInf,  // finite among -inf
    kNan,  kNan,  1,     2,     3,      // NaN first
    1000,  1000,  -1000, 999,   0,      // large values: stability
    kInf,  kNan,  -kInf, 0,     1,      // everything
};

TEST(CudaReduce, MaxAndMinOfNanAndInfinityMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : kFloatTypes) {
    const Tensor rows = values_of(kSpecialRows, {7, 5}, t);
    expect_extrema_match(rows, 1, "special rows");
    expect_extrema_match(rows.t().contiguous(), 0, "special columns");
  }
}

TEST(CudaReduce, VarAndStdMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : kFloatTypes) {
    for (const ReduceCase& c : kReduceCases) {
      const Tensor x = normal(c.sizes, t, 12) * 3.0 + 1.0;
      for (int64_t correction : {0, 1, 2}) {
        const std::string what = c.name + " correction " + std::to_string(correction);
        expect_gpu_matches_cpu([&](const Tensor& a) { return a.var(c.dims, correction); }, x,
                               tolerance(t), describe("var " + what, t));
        expect_gpu_matches_cpu([&](const Tensor& a) { return a.std(c.dims, correction, true); }, x,
                               tolerance(t), describe("std " + what, t));
      }
    }
    // More correction than terms: the divisor is 0, giving inf (nan for a constant row).
    const Tensor pairs = values_of({1, 2, 3, 3}, {2, 2}, t);
    expect_gpu_matches_cpu([](const Tensor& a) { return a.var({1}, 3); }, pairs, tolerance(t),
                           describe("var with correction beyond the count", t));
    const Tensor x = normal({64, 300}, t, 13);
    expect_gradients_match([](const Tensor& a) { return a.var({1}); }, x, tolerance(t),
                           describe("var rows", t));
    expect_gradients_match([](const Tensor& a) { return a.std({0}, 0); }, x, tolerance(t),
                           describe("std columns", t));
  }
}

TEST(CudaReduce, LogsumexpMatchesCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : kFloatTypes) {
    for (const ReduceCase& c : kReduceCases) {
      const Tensor x = normal(c.sizes, t, 14) * 4.0;
      expect_gpu_matches_cpu([&](const Tensor& a) { return a.logsumexp(c.dims); }, x, tolerance(t),
                             describe("logsumexp " + c.name, t));
    }
    // NaN gives NaN, +inf gives inf, all -inf (like no terms) gives -inf.
    const Tensor rows = values_of(kSpecialRows, {7, 5}, t);
    expect_gpu_matches_cpu([](const Tensor& a) { return a.logsumexp({1}); }, rows, tolerance(t),
                           describe("logsumexp of special rows", t));
    expect_gpu_matches_cpu([](const Tensor& a) { return a.t().contiguous().logsumexp({0}); }, rows,
                           tolerance(t), describe("logsumexp of special columns", t));
    const Tensor x = normal({64, 300}, t, 15);
    expect_gradients_match([](const Tensor& a) { return a.logsumexp({1}); }, x, tolerance(t),
                           describe("logsumexp rows", t));
    expect_gradients_match([](const Tensor& a) { return a.logsumexp({0}, true); }, x, tolerance(t),
                           describe("logsumexp columns", t));
  }
}

// Lines of every kind the softmax kernels distinguish: short rows (a warp each), rows of a
// warp's full 1024, longer rows (a block each, up to a GPT-2 vocabulary), lines across inner
// dims (a thread each), one element, no elements, no lines.
struct SoftmaxCase {
  std::string name;
  std::vector<int64_t> sizes;
  int64_t dim;
};

const std::vector<SoftmaxCase> kSoftmaxCases = {
    {"short_rows", {8, 10}, 1},       {"warp_rows", {64, 1024}, 1},
    {"block_rows", {16, 5000}, 1},    {"vocabulary_rows", {2, 50257}, 1},
    {"inner_lines", {4, 7, 5, 3}, 1}, {"dim_zero", {300, 20}, 0},
    {"one_element", {6, 1}, 1},       {"no_elements", {4, 0}, 1},
    {"no_lines", {0, 3}, 1},
};

TEST(CudaReduce, SoftmaxAndLogSoftmaxMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType t : kFloatTypes) {
    for (const SoftmaxCase& c : kSoftmaxCases) {
      const Tensor x = normal(c.sizes, t, 16) * 3.0;
      const Op soft = [&](const Tensor& a) { return softmax(a, c.dim); };
      const Op log_soft = [&](const Tensor& a) { return log_softmax(a, c.dim); };
      expect_gpu_matches_cpu(soft, x, tolerance(t), describe("softmax " + c.name, t));
      expect_gpu_matches_cpu(log_soft, x, tolerance(t), describe("log_softmax " + c.name, t));
      if (x.numel() == 0) continue;
      expect_gradients_match(soft, x, tolerance(t), describe("softmax " + c.name, t));
      expect_gradients_match(log_soft, x, tolerance(t), describe("log_softmax " + c.name, t));
    }
    // A NaN or +inf makes its row NaN; -inf terms get probability 0; large values stay finite.
    const Tensor rows = values_of(kSpecialRows, {7, 5}, t);
    expect_gpu_matches_cpu([](const Tensor& a) { return softmax(a, 1); }, rows, tolerance(t),
                           describe("softmax of special rows", t));
    expect_gpu_matches_cpu([](const Tensor& a) { return log_softmax(a, 1); }, rows, tolerance(t),
                           describe("log_softmax of special rows", t));
    expect_gpu_matches_cpu([](const Tensor& a) { return softmax(a.t().contiguous(), 0); }, rows,
                           tolerance(t), describe("softmax of special columns", t));
    expect_gpu_matches_cpu([](const Tensor& a) { return log_softmax(a.t().contiguous(), 0); }, rows,
                           tolerance(t), describe("log_softmax of special columns", t));
  }
}

// The op layer makes strided inputs contiguous before the kernels see them.
TEST(CudaReduce, NonContiguousInputsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  const Tensor base = normal({300, 500}, kFloat32, 17);
  const Tensor x = base.t();                  // [500, 300], transposed
  const Tensor y = base.slice(1, 0, 500, 2);  // [300, 250], every other column
  const Tolerance tol = tolerance(kFloat32);
  for (const auto& [name, input] : {std::pair{"transposed", x}, std::pair{"strided", y}}) {
    const std::string what = name;
    expect_gpu_matches_cpu([](const Tensor& a) { return a.sum({0}); }, input,
                           sum_tolerance(kFloat32), what + " sum over dim 0",
                           input.abs().sum({0}).to(kFloat64));
    expect_gpu_matches_cpu([](const Tensor& a) { return a.sum({1}); }, input,
                           sum_tolerance(kFloat32), what + " sum over dim 1",
                           input.abs().sum({1}).to(kFloat64));
    expect_gpu_matches_cpu([](const Tensor& a) { return std::get<1>(a.max(1)); }, input, {0, 0},
                           what + " argmax along dim 1");
    expect_gpu_matches_cpu([](const Tensor& a) { return a.var({0}); }, input, tol,
                           what + " var over dim 0");
    expect_gpu_matches_cpu([](const Tensor& a) { return softmax(a, 1); }, input, tol,
                           what + " softmax");
    expect_gpu_matches_cpu([](const Tensor& a) { return a.logsumexp({0}); }, input, tol,
                           what + " logsumexp");
    expect_gradients_match([](const Tensor& a) { return log_softmax(a, 0); }, input, tol,
                           what + " log_softmax over dim 0");
  }
}

// All dims of 10M elements: chunks of a row folded by many blocks, then combined. The terms are
// positive, so a sum's tolerance (relative to the sum of |terms|) is relative to the result
// itself: a lost or repeated chunk would show.
TEST(CudaReduce, LargeReductionsOverAllDimsMatchCpu) {
  ACCEL_REQUIRE_CUDA();
  const Tensor x = normal({10'000'000}, kFloat32, 18).abs();
  const Tensor magnitude = x.to(kFloat64).abs().sum();
  const Tolerance tol = tolerance(kFloat32);
  expect_gpu_matches_cpu([](const Tensor& a) { return a.sum(); }, x, sum_tolerance(kFloat32),
                         "sum of 10M", magnitude);
  expect_gpu_matches_cpu([](const Tensor& a) { return a.mean(); }, x, sum_tolerance(kFloat32),
                         "mean of 10M", magnitude / 1e7);
  expect_gpu_matches_cpu(
      [](const Tensor& a) {
        return a.reshape({2500, 4000}).sum({0});
      },
      x, sum_tolerance(kFloat32), "sum over dim 0 of [2500, 4000]",
      x.reshape({2500, 4000}).to(kFloat64).abs().sum({0}));
  expect_gpu_matches_cpu([](const Tensor& a) { return a.max(); }, x, {0, 0}, "max of 10M");
  expect_gpu_matches_cpu([](const Tensor& a) { return a.argmin(); }, x, {0, 0}, "argmin of 10M");
  expect_gpu_matches_cpu([](const Tensor& a) { return a.var(); }, x, tol, "var of 10M");
  expect_gpu_matches_cpu([](const Tensor& a) { return a.std({}, 0); }, x, tol, "std of 10M");
  expect_gpu_matches_cpu([](const Tensor& a) { return a.logsumexp({0}); }, x, tol,
                         "logsumexp of 10M");
  const Tensor half = (x * 1e-3).to(kFloat16);  // a sum within float16's range
  expect_gpu_matches_cpu([](const Tensor& a) { return a.sum(); }, half, sum_tolerance(kFloat16),
                         "sum of 10M float16", half.to(kFloat64).abs().sum());
  const Tensor flags = x.gt(0.5);
  expect_gpu_matches_cpu([](const Tensor& a) { return a.sum(); }, flags, {0, 0},
                         "sum of 10M bools");
}

// Both devices add (or multiply) a column's terms in order in the same accumulate type, and sort
// stably in the same order (NaN above every number), so cumsum, cumprod, sort, argsort and topk
// agree exactly: ties, zeros, NaN, every dtype, and the shapes of kReduceCases along one dim.
TEST(CudaReduce, CumsumSortAndTopkEqualTheCpu) {
  ACCEL_REQUIRE_CUDA();
  const std::vector<ScalarType> types = {kFloat32, kFloat64, kFloat16, kBFloat16,
                                         kInt64,   kInt32,   kUInt8,   kBool};
  for (ScalarType t : types) {
    for (const ReduceCase& c : kReduceCases) {
      if (c.dims.size() != 1) continue;
      const int64_t dim = c.dims[0];
      // Few distinct values, so that many elements tie.
      Tensor x = integers(0, 7, c.sizes, kFloat64, 21);
      if (is_floating_point(t) && x.numel() > 2) x.view({-1})[1] = kNan;
      x = t == kBool ? x.gt(3) : x.to(t);
      const std::string what = describe(c.name, t);
      if (t != kBool) {
        expect_gpu_matches_cpu([&](const Tensor& a) { return a.cumsum(dim); }, x, {0, 0},
                               "cumsum " + what);
        expect_gpu_matches_cpu([&](const Tensor& a) { return a.cumprod(dim); }, x, {0, 0},
                               "cumprod " + what);
      }
      for (const bool descending : {false, true}) {
        expect_gpu_matches_cpu(
            [&](const Tensor& a) { return std::get<0>(a.sort(dim, descending)); }, x, {0, 0},
            "sort " + what);
        expect_gpu_matches_cpu([&](const Tensor& a) { return a.argsort(dim, descending); }, x,
                               {0, 0}, "argsort " + what);
        const int64_t k = std::min<int64_t>(3, x.size(dim));
        expect_gpu_matches_cpu(
            [&](const Tensor& a) { return std::get<1>(a.topk(k, dim, descending)); }, x, {0, 0},
            "topk " + what);
      }
    }
  }
  const Tensor x = normal({50, 300}, kFloat32, 22);
  expect_gradients_match([](const Tensor& a) { return a.cumsum(1); }, x, {0, 0}, "cumsum");
  // A running product's gradient is element-wise ops around cumsum and cumprod (zeros in the
  // input): each correctly rounded on both devices, so equal up to a last-bit difference.
  const Tensor with_zeros = normal({50, 30}, kFloat32, 23) * integers(0, 4, {50, 30}, kFloat32, 24);
  expect_gradients_match([](const Tensor& a) { return a.cumprod(1); }, with_zeros, {1e-6, 0},
                         "cumprod");
  expect_gradients_match([](const Tensor& a) { return std::get<0>(a.topk(5, 0)); }, x, {0, 0},
                         "topk");
}

// No float atomics: the same inputs give the same bits on every run.
TEST(CudaReduce, RepeatedRunsGiveTheSameBits) {
  ACCEL_REQUIRE_CUDA();
  const Tensor x = normal({10'000'000}, kFloat32, 19).to(kGpu);
  const Tensor m = x.reshape({2500, 4000});
  const std::vector<std::pair<std::string, std::function<Tensor()>>> runs = {
      {"sum", [&] { return x.sum(); }},
      {"sum over dim 0", [&] { return m.sum({0}); }},
      {"mean over dim 1", [&] { return m.mean({1}); }},
      {"var", [&] { return x.var(); }},
      {"logsumexp", [&] { return x.logsumexp({0}); }},
      {"argmax", [&] { return x.argmax(); }},
      {"softmax", [&] { return softmax(m, 1); }},
      {"log_softmax over dim 0", [&] { return log_softmax(m, 0); }},
      {"sum of float16", [&] { return x.to(kFloat16).sum(); }},
  };
  for (const auto& [name, run] : runs) {
    expect_same_bits(run(), run(), name);
  }
}

}  // namespace
}  // namespace accel
