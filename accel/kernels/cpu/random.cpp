// Instantiates the Philox samplers of kernels/common/philox.h for every dtype over strided
// CPU loops. 16-bit floats sample in float and round once. Every sampler reads its bits 64
// Philox blocks at a time (PhiloxWords); normal samples come from Box-Muller on vectors
// (kernels/cpu/vector_math.h), a chunk of values at a time.
#include "accel/kernels/cpu/random.h"

#include <algorithm>
#include <type_traits>
#include <utility>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/vector_math.h"

namespace accel::cpu {

using random::PhiloxDraw;

namespace {

// The 32-bit words of a draw (word w: lane w % 4 of block w / 4), computed 64 blocks at a time:
// the rounds run over arrays of counters, which the compiler vectorizes, where one block at a
// time is a chain of dependent multiplies.
class PhiloxWords {
 public:
  static constexpr int64_t kBlocks = 64;

  explicit PhiloxWords(PhiloxDraw draw) : draw_(draw) {}

  // Words [w, w + count) of the draw (count <= 4 * kBlocks - 3, so that they fit from any word
  // of the first block), valid until the next call.
  const uint32_t* words(uint64_t w, int64_t count) {
    const uint64_t first = 4 * first_block_;
    if (!filled_ || w < first || w + static_cast<uint64_t>(count) > first + 4 * kBlocks) {
      fill(w / 4);
    }
    return words_ + (w - 4 * first_block_);
  }

 private:
  void fill(uint64_t first_block) {
    uint32_t c0[kBlocks], c1[kBlocks], c2[kBlocks], c3[kBlocks];
    for (int64_t b = 0; b < kBlocks; ++b) {
      const uint64_t counter = draw_.offset + first_block + static_cast<uint64_t>(b);
      c0[b] = static_cast<uint32_t>(counter);
      c1[b] = static_cast<uint32_t>(counter >> 32);
      c2[b] = 0;
      c3[b] = 0;
    }
    uint32_t k0 = static_cast<uint32_t>(draw_.seed), k1 = static_cast<uint32_t>(draw_.seed >> 32);
    for (int round = 0; round < 10; ++round) {
      for (int64_t b = 0; b < kBlocks; ++b) {
        random::philox_round(c0[b], c1[b], c2[b], c3[b], k0, k1);
      }
      k0 += random::kPhiloxWeyl0;
      k1 += random::kPhiloxWeyl1;
    }
    for (int64_t b = 0; b < kBlocks; ++b) {
      words_[4 * b] = c0[b];
      words_[4 * b + 1] = c1[b];
      words_[4 * b + 2] = c2[b];
      words_[4 * b + 3] = c3[b];
    }
    first_block_ = first_block;
    filled_ = true;
  }

  PhiloxDraw draw_;
  uint64_t first_block_ = 0;
  bool filled_ = false;
  uint32_t words_[4 * kBlocks];
};

// Words per value: float samples take 32 random bits, double samples and integers (A =
// uint64_t) 64 (as random::PhiloxCursor's bits32 and bits64), so value i of a draw starts at word
// i * kWordsPerValue.
template <typename A>
inline constexpr int64_t kWordsPerValue = sizeof(A) == 8 ? 2 : 1;

// The random bits of value k of a run whose words start at `words`.
template <typename A>
uint64_t value_bits(const uint32_t* words, int64_t k) {
  if constexpr (sizeof(A) == 8) {
    return (uint64_t{words[2 * k + 1]} << 32) | words[2 * k];
  } else {
    return words[k];
  }
}

// Elements a run is cut into: the random bits of one chunk are read at once.
constexpr int64_t kChunk = 64;

// Calls body(source, i, ptrs, strides, n) for runs of n elements in the loop's row-major order,
// element i first, ptrs addressing it in each operand and strides stepping to the next. Each
// thread's part has its own PhiloxWords over the same draw.
template <int N, typename Body>
void for_each_run(const Loop<N>& loop, PhiloxDraw draw, const Body& body) {
  parallel_for(0, loop.numel, kElementwiseGrain, [&](int64_t begin, int64_t end) {
    PhiloxWords source(draw);
    uint64_t i = static_cast<uint64_t>(begin);
    auto inner = [&](const std::array<char*, N>& ptrs, const std::array<int64_t, N>& strides,
                     int64_t n) {
      body(source, i, ptrs, strides, n);
      i += static_cast<uint64_t>(n);
    };
    run_range(loop, begin, end, inner);
  });
}

// Calls body(bits, k, ptrs) for every element of the loop, k counting within its chunk, bits
// the random bits of the chunk's values for value_bits<A> and ptrs addressing the element.
template <typename A, int N, typename Body>
void for_each_chunk_of_bits(const Loop<N>& loop, PhiloxDraw draw, const Body& body) {
  for_each_run(loop, draw,
               [&](PhiloxWords& source, uint64_t i, const std::array<char*, N>& ptrs,
                   const std::array<int64_t, N>& strides, int64_t n) {
                 for (int64_t done = 0; done < n; done += kChunk) {
                   const int64_t count = std::min(kChunk, n - done);
                   const uint32_t* bits =
                       source.words((i + static_cast<uint64_t>(done)) * kWordsPerValue<A>,
                                    count * kWordsPerValue<A>);
                   for (int64_t k = 0; k < count; ++k) {
                     std::array<char*, N> at;
                     for (int q = 0; q < N; ++q) at[q] = ptrs[q] + (done + k) * strides[q];
                     body(bits, k, at);
                   }
                 }
               });
}

// Standard normals [first, first + count) of a draw, count <= kChunk, by Box-Muller: values 2k
// and 2k + 1 are radius * cos(angle) and radius * sin(angle) of pair k, whose uniforms are
// values 2k (angle = 2 pi u) and 2k + 1 (radius = sqrt(-2 log1p(-u)), never log(0)), as
// random::normal_at on the GPU. The pairs run a vector at a time, so every value is computed the
// same way wherever its chunk starts.
template <typename A>
void standard_normals(PhiloxWords& source, uint64_t first, int64_t count, A* out) {
  using V = simd::MathVector<A>;
  constexpr int64_t lanes = V::kLanes;
  constexpr int digits = random::kUniformDigits<A>;
  const uint64_t first_pair = first / 2;
  const int64_t pairs =
      static_cast<int64_t>((first + static_cast<uint64_t>(count) + 1) / 2 - first_pair);
  const int64_t whole_vectors = (pairs + lanes - 1) / lanes * lanes;
  const uint32_t* bits =
      source.words(2 * first_pair * kWordsPerValue<A>, 2 * whole_vectors * kWordsPerValue<A>);
  A values[kChunk + 2 * lanes];
  for (int64_t done = 0; done < pairs; done += lanes) {
    A angle_uniform[lanes], radius_uniform[lanes];
    for (int64_t k = 0; k < lanes; ++k) {
      angle_uniform[k] = random::uniform_from_bits<A>(value_bits<A>(bits, 2 * (done + k)), digits);
      radius_uniform[k] =
          random::uniform_from_bits<A>(value_bits<A>(bits, 2 * (done + k) + 1), digits);
    }
    const V radius = sqrt(V(A(-2)) * log1p(-V::of(simd::load(radius_uniform))));
    const V angle = V(A(2 * 3.14159265358979323846)) * V::of(simd::load(angle_uniform));
    const V cosines = radius * cos(angle), sines = radius * sin(angle);
    for (int64_t k = 0; k < lanes; ++k) {
      values[2 * (done + k)] = cosines.lanes[k];
      values[2 * (done + k) + 1] = sines.lanes[k];
    }
  }
  std::copy_n(values + (first - 2 * first_pair), count, out);
}

}  // namespace

void uniform(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve, double from,
             double to) {
  dispatch_floating(dtype, "uniform_", [&]<typename T>() {
    using A = acc_t<T>;
    const PhiloxDraw draw = reserve(random::philox_blocks(out.numel, random::kValuesPerBlock<A>));
    const A low = static_cast<A>(from);
    const A span = static_cast<A>(to - from);
    for_each_chunk_of_bits<A>(
        out, draw, [&](const uint32_t* bits, int64_t k, const std::array<char*, 1>& p) {
          const A u =
              random::uniform_from_bits<A>(value_bits<A>(bits, k), random::kUniformDigits<T>);
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
    auto run = [&](PhiloxWords& source, uint64_t i, const std::array<char*, 1>& p,
                   const std::array<int64_t, 1>& strides, int64_t n) {
      A z[kChunk];
      for (int64_t done = 0; done < n; done += kChunk) {
        const int64_t count = std::min(kChunk, n - done);
        standard_normals(source, i + static_cast<uint64_t>(done), count, z);
        for (int64_t k = 0; k < count; ++k) {
          *reinterpret_cast<T*>(p[0] + (done + k) * strides[0]) =
              static_cast<T>(random::affine_sample(z[k], scale, center));
        }
      }
    };
    for_each_run(out, draw, run);
  });
}

void random_integers(ScalarType dtype, const Loop<1>& out, const ReservePhilox& reserve,
                     int64_t low, uint64_t range) {
  const PhiloxDraw draw = reserve(random::philox_blocks(out.numel, 2));
  dispatch_all(dtype, "randint", [&]<typename T>() {
    for_each_chunk_of_bits<uint64_t>(
        out, draw, [&](const uint32_t* bits, int64_t k, const std::array<char*, 1>& p) {
          *reinterpret_cast<T*>(p[0]) =
              static_cast<T>(random::integer_from_bits(value_bits<uint64_t>(bits, k), low, range));
        });
  });
}

void bernoulli(ScalarType out_type, ScalarType p_type, const Loop<2>& loop,
               const ReservePhilox& reserve) {
  dispatch_floating(p_type, "bernoulli", [&]<typename P>() {
    using A = acc_t<P>;
    const PhiloxDraw draw = reserve(random::philox_blocks(loop.numel, random::kValuesPerBlock<A>));
    dispatch_all(out_type, "bernoulli", [&]<typename T>() {
      for_each_chunk_of_bits<A>(
          loop, draw, [](const uint32_t* bits, int64_t k, const std::array<char*, 2>& p) {
            const A prob = static_cast<A>(*reinterpret_cast<const P*>(p[1]));
            ACCEL_CHECK(prob >= 0 && prob <= 1, "bernoulli",
                        "expected every probability in [0, 1], got {}", prob);
            const bool one = random::uniform_from_bits<A>(value_bits<A>(bits, k),
                                                          random::kUniformDigits<A>) < prob;
            *reinterpret_cast<T*>(p[0]) = static_cast<T>(one ? 1 : 0);
          });
    });
  });
}

void randperm(ScalarType dtype, void* out, int64_t n, const ReservePhilox& reserve) {
  const int64_t swaps = n > 1 ? n - 1 : 0;
  PhiloxWords source(reserve(random::philox_blocks(swaps, 2)));
  dispatch_numeric(dtype, "randperm", [&]<typename T>() {
    T* values = static_cast<T*>(out);
    for (int64_t i = 0; i < n; ++i) values[i] = static_cast<T>(i);
    for (int64_t i = 0; i < swaps; ++i) {
      const uint64_t bits = value_bits<uint64_t>(source.words(2 * static_cast<uint64_t>(i), 2), 0);
      const int64_t j = random::integer_from_bits(bits, i, static_cast<uint64_t>(n - i));
      std::swap(values[i], values[j]);
    }
  });
}

}  // namespace accel::cpu
