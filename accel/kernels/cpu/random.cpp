// Instantiates the Philox samplers of kernels/common/philox.h for every dtype over strided
// CPU loops. 16-bit floats sample in float and round once.
#include "accel/kernels/cpu/random.h"

#include <utility>

#include "accel/base/dispatch.h"

namespace accel::cpu {

using random::PhiloxCursor;
using random::PhiloxDraw;

namespace {

// Calls body(cursor, i, ptrs) for every element i of the loop, ptrs addressing element i of
// each operand. Each thread's chunk has its own cursor over the same draw.
template <int N, typename Body>
void for_each_value(const Loop<N>& loop, PhiloxDraw draw, const Body& body) {
  parallel_for(0, loop.numel, kElementwiseGrain, [&](int64_t begin, int64_t end) {
    PhiloxCursor cursor(draw);
    uint64_t i = static_cast<uint64_t>(begin);
    auto inner = [&](const std::array<char*, N>& ptrs, const std::array<int64_t, N>& strides,
                     int64_t n) {
      for (int64_t k = 0; k < n; ++k, ++i) {
        std::array<char*, N> at;
        for (int q = 0; q < N; ++q) at[q] = ptrs[q] + k * strides[q];
        body(cursor, i, at);
      }
    };
    run_range(loop, begin, end, inner);
  });
}

}  // namespace

void uniform(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double from,
             double to) {
  dispatch_floating(dtype, "uniform_", [&]<typename T>() {
    using A = acc_t<T>;
    const PhiloxDraw draw = reserve(random::philox_blocks(out.numel, random::kValuesPerBlock<A>));
    const A low = static_cast<A>(from);
    const A span = static_cast<A>(to - from);
    for_each_value(out, draw, [&](PhiloxCursor& c, uint64_t i, const std::array<char*, 1>& p) {
      const A u = random::uniform_at<A>(c, i, random::kUniformDigits<T>);
      *reinterpret_cast<T*>(p[0]) = static_cast<T>(random::affine_sample(u, span, low));
    });
  });
}

void normal(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double mean,
            double std) {
  dispatch_floating(dtype, "normal_", [&]<typename T>() {
    using A = acc_t<T>;
    const PhiloxDraw draw = reserve(random::philox_blocks(out.numel, random::kValuesPerBlock<A>));
    const A center = static_cast<A>(mean);
    const A scale = static_cast<A>(std);
    for_each_value(out, draw, [&](PhiloxCursor& c, uint64_t i, const std::array<char*, 1>& p) {
      const A z = random::normal_at<A>(c, i);
      *reinterpret_cast<T*>(p[0]) = static_cast<T>(random::affine_sample(z, scale, center));
    });
  });
}

void random_integers(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve,
                     int64_t low, uint64_t range) {
  const PhiloxDraw draw = reserve(random::philox_blocks(out.numel, 2));
  dispatch_all(dtype, "randint", [&]<typename T>() {
    for_each_value(out, draw, [&](PhiloxCursor& c, uint64_t i, const std::array<char*, 1>& p) {
      *reinterpret_cast<T*>(p[0]) = static_cast<T>(random::integer_at(c, i, low, range));
    });
  });
}

void bernoulli(ScalarType out_type, ScalarType p_type, const Loop<2>& loop,
               const ReservePhilox& reserve) {
  dispatch_floating(p_type, "bernoulli", [&]<typename P>() {
    using A = acc_t<P>;
    const PhiloxDraw draw = reserve(random::philox_blocks(loop.numel, random::kValuesPerBlock<A>));
    dispatch_all(out_type, "bernoulli", [&]<typename T>() {
      for_each_value(loop, draw, [](PhiloxCursor& c, uint64_t i, const std::array<char*, 2>& p) {
        const A prob = static_cast<A>(*reinterpret_cast<const P*>(p[1]));
        ACCEL_CHECK(prob >= 0 && prob <= 1, "bernoulli",
                    "expected every probability in [0, 1], got {}", prob);
        const bool one = random::uniform_at<A>(c, i, random::kUniformDigits<A>) < prob;
        *reinterpret_cast<T*>(p[0]) = static_cast<T>(one ? 1 : 0);
      });
    });
  });
}

void randperm(ScalarType dtype, void* out, int64_t n, const ReservePhilox& reserve) {
  const int64_t swaps = n > 1 ? n - 1 : 0;
  PhiloxCursor cursor(reserve(random::philox_blocks(swaps, 2)));
  dispatch_numeric(dtype, "randperm", [&]<typename T>() {
    T* values = static_cast<T*>(out);
    for (int64_t i = 0; i < n; ++i) values[i] = static_cast<T>(i);
    for (int64_t i = 0; i < swaps; ++i) {
      const int64_t j =
          random::integer_at(cursor, static_cast<uint64_t>(i), i, static_cast<uint64_t>(n - i));
      std::swap(values[i], values[j]);
    }
  });
}

}  // namespace accel::cpu
