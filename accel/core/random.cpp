// Generators and the random factories and in-place samplers of random.h. Each op checks its
// arguments, then runs a CPU kernel that reserves the counter blocks its draw needs from the
// generator, so concurrent draws from one generator never overlap.
#include "accel/core/random.h"

#include <cmath>
#include <limits>
#include <utility>

#include "accel/core/ops/op_support.h"

namespace accel {

void Generator::manual_seed(uint64_t seed) {
  std::lock_guard lock(mutex_);
  state_ = {seed, 0};
}

uint64_t Generator::initial_seed() const {
  std::lock_guard lock(mutex_);
  return state_.seed;
}

GeneratorState Generator::get_state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

void Generator::set_state(const GeneratorState& state) {
  std::lock_guard lock(mutex_);
  state_ = state;
}

GeneratorState Generator::reserve(uint64_t blocks) {
  std::lock_guard lock(mutex_);
  const GeneratorState start = state_;
  state_.offset += blocks;
  return start;
}

namespace {

// The generator a GeneratorGuard installed on this thread, if any.
thread_local Generator* thread_generator = nullptr;

}  // namespace

Generator& default_generator() {
  static Generator generator;
  return thread_generator != nullptr ? *thread_generator : generator;
}

GeneratorGuard::GeneratorGuard(Generator& generator)
    : previous_(std::exchange(thread_generator, &generator)) {}

GeneratorGuard::~GeneratorGuard() { thread_generator = previous_; }

void manual_seed(uint64_t seed) { default_generator().manual_seed(seed); }

namespace {

ReservePhilox reserve_from(Generator* generator) {
  Generator& g = generator != nullptr ? *generator : default_generator();
  return [&g](uint64_t blocks) {
    const GeneratorState start = g.reserve(blocks);
    return random::PhiloxDraw{start.seed, start.offset};
  };
}

void check_floating(ScalarType dtype, const char* op) {
  ACCEL_CHECK(is_floating_point(dtype), op, "expected a floating point dtype, got {}", dtype);
}

Loop<1> loop_over(const Tensor& t, const char* op) { return make_loop<1>(t, {}, op); }

Tensor with_requires_grad(Tensor t, const TensorOptions& options) {
  if (options.requires_grad()) t.requires_grad_(true);
  return t;
}

// A new tensor of `sizes` filled by `fill(out)`.
template <typename Fill>
Tensor sampled(IntArrayRef sizes, const TensorOptions& options, Fill fill) {
  Tensor out = empty(sizes, options.requires_grad(false));
  fill(out);
  return with_requires_grad(out, options);
}

// Overwrites t with fresh samples. They are constants, so t's history ends here (as fill_).
template <typename Fill>
Tensor& sample_inplace(Tensor& t, const char* op, Fill fill) {
  autograd::check_inplace(t, false, op);
  check_floating(t.dtype(), op);
  fill(loop_over(t, op));
  t.storage()->bump_version();
  if (GradMode::is_enabled() && t.impl()->grad_fn) t.impl()->grad_fn.reset();
  return t;
}

// The integers `dtype` holds exactly (floating types: up to 2^digits in magnitude).
std::pair<int64_t, int64_t> exact_integer_range(ScalarType dtype) {
  switch (dtype) {
    case kFloat32:
      return {-(int64_t{1} << 24), int64_t{1} << 24};
    case kFloat64:
      return {-(int64_t{1} << 53), int64_t{1} << 53};
    case kFloat16:
      return {-(int64_t{1} << 11), int64_t{1} << 11};
    case kBFloat16:
      return {-(int64_t{1} << 8), int64_t{1} << 8};
    case kInt32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case kUInt8:
      return {0, 255};
    case kBool:
      return {0, 1};
    case kInt64:
      break;
  }
  return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
}

ScalarType integer_dtype(const TensorOptions& options) {
  return options.has_dtype() ? options.dtype() : kInt64;
}

}  // namespace

Tensor rand(IntArrayRef sizes, TensorOptions options, Generator* generator) {
  check_floating(options.dtype(), "rand");
  return sampled(sizes, options, [&](const Tensor& out) {
    backend(out.device())
        .uniform(out.dtype(), loop_over(out, "rand"), reserve_from(generator), 0, 1,
                 current_stream(out.device()));
  });
}

Tensor randn(IntArrayRef sizes, TensorOptions options, Generator* generator) {
  check_floating(options.dtype(), "randn");
  return sampled(sizes, options, [&](const Tensor& out) {
    backend(out.device())
        .normal(out.dtype(), loop_over(out, "randn"), reserve_from(generator), 0, 1,
                current_stream(out.device()));
  });
}

Tensor randint(int64_t low, int64_t high, IntArrayRef sizes, TensorOptions options,
               Generator* generator) {
  ACCEL_CHECK(low < high, "randint", "expected low < high, got low={} and high={}", low, high);
  const ScalarType dtype = integer_dtype(options);
  const auto [lowest, highest] = exact_integer_range(dtype);
  ACCEL_CHECK(low >= lowest && high - 1 <= highest, "randint",
              "[low, high) = [{}, {}) does not fit dtype {}, which holds integers in [{}, {}]", low,
              high, dtype, lowest, highest);
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  return sampled(sizes, options.dtype(dtype), [&](const Tensor& out) {
    backend(out.device())
        .random_integers(dtype, loop_over(out, "randint"), reserve_from(generator), low, range,
                         current_stream(out.device()));
  });
}

Tensor randint(int64_t high, IntArrayRef sizes, TensorOptions options, Generator* generator) {
  return randint(0, high, sizes, options, generator);
}

Tensor randperm(int64_t n, TensorOptions options, Generator* generator) {
  ACCEL_CHECK(n >= 0, "randperm", "expected n >= 0, got {}", n);
  const ScalarType dtype = integer_dtype(options);
  ACCEL_CHECK(dtype != kBool, "randperm", "not implemented for dtype bool");
  ACCEL_CHECK(n - 1 <= exact_integer_range(dtype).second, "randperm",
              "n = {} is too large for dtype {}", n, dtype);
  Tensor out = empty({n}, options.dtype(dtype).requires_grad(false));
  backend(out.device())
      .randperm(dtype, out.data_ptr(), n, reserve_from(generator), current_stream(out.device()));
  return with_requires_grad(out, options);
}

Tensor bernoulli(const Tensor& p, Generator* generator) {
  ACCEL_CHECK(p.is_floating_point(), "bernoulli",
              "expected a floating point tensor of probabilities, got {}", p.dtype());
  Tensor out = empty(p.sizes(), p.options());
  backend(out.device())
      .bernoulli(out.dtype(), p.dtype(), make_loop<2>(out, {&p}, "bernoulli"),
                 reserve_from(generator), current_stream(out.device()));
  return out;
}

Tensor bernoulli(IntArrayRef sizes, double p, TensorOptions options, Generator* generator) {
  ACCEL_CHECK(p >= 0 && p <= 1, "bernoulli", "expected p in [0, 1], got {}", p);
  // Float samples unless the output is double: p itself is rounded only to float.
  const Tensor prob = full(
      {}, p,
      TensorOptions(options.dtype() == kFloat64 ? kFloat64 : kFloat32).device(options.device()));
  return sampled(sizes, options, [&](const Tensor& out) {
    backend(out.device())
        .bernoulli(out.dtype(), prob.dtype(), make_loop<2>(out, {&prob}, "bernoulli"),
                   reserve_from(generator), current_stream(out.device()));
  });
}

Tensor& uniform_(Tensor& t, double from, double to, Generator* generator) {
  ACCEL_CHECK(from <= to, "uniform_", "expected from <= to, got from={} and to={}", from, to);
  ACCEL_CHECK(to - from <= largest_finite(t.dtype()), "uniform_",
              "the range to - from = {} overflows dtype {}", to - from, t.dtype());
  return sample_inplace(t, "uniform_", [&](const Loop<1>& loop) {
    backend(t.device())
        .uniform(t.dtype(), loop, reserve_from(generator), from, to, current_stream(t.device()));
  });
}

Tensor& normal_(Tensor& t, double mean, double std, Generator* generator) {
  ACCEL_CHECK(std >= 0, "normal_", "expected std >= 0, got {}", std);
  return sample_inplace(t, "normal_", [&](const Loop<1>& loop) {
    backend(t.device())
        .normal(t.dtype(), loop, reserve_from(generator), mean, std, current_stream(t.device()));
  });
}

}  // namespace accel
