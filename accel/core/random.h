// Random tensors from a counter-based Philox-4x32-10 generator. A generator's state is two
// integers (seed, offset): element i of a draw depends only on (seed, offset + i), so the
// numbers are the same whatever the thread count or device, and saving and restoring the
// state resumes the exact stream. manual_seed seeds the default generator.
#pragma once

#include <cstdint>
#include <mutex>

#include "accel/core/tensor.h"

namespace accel {

struct GeneratorState {
  uint64_t seed = 0;
  uint64_t offset = 0;  // Philox counter: 128-bit blocks already used
  bool operator==(const GeneratorState&) const = default;
};

class Generator {
 public:
  explicit Generator(uint64_t seed = 67280421310721ULL) : state_{seed, 0} {}
  void manual_seed(uint64_t seed);
  uint64_t initial_seed() const;
  GeneratorState get_state() const;
  void set_state(const GeneratorState& state);
  // Reserves `blocks` 128-bit counter blocks for one draw and returns the state the draw
  // starts from (the seed and the first block's index), read under the same lock.
  GeneratorState reserve(uint64_t blocks);

 private:
  mutable std::mutex mutex_;
  GeneratorState state_;
};

// This thread's default generator: the process-wide one unless a GeneratorGuard on this
// thread has put another in its place. Draws without an explicit generator use it.
Generator& default_generator();
// Seeds default_generator().
void manual_seed(uint64_t seed);

// Makes `generator` this thread's default generator while alive. The data loader gives each
// batch its own generator this way, so random transforms produce the same batches for any
// worker count and never consume the training loop's random stream.
class GeneratorGuard {
 public:
  explicit GeneratorGuard(Generator& generator);
  ~GeneratorGuard();
  GeneratorGuard(const GeneratorGuard&) = delete;
  GeneratorGuard& operator=(const GeneratorGuard&) = delete;

 private:
  Generator* previous_;
};

// Uniform in [0, 1).
Tensor rand(IntArrayRef sizes, TensorOptions options = {}, Generator* generator = nullptr);
// Standard normal.
Tensor randn(IntArrayRef sizes, TensorOptions options = {}, Generator* generator = nullptr);
// Integers uniform in [low, high); dtype int64 unless options has another.
Tensor randint(int64_t low, int64_t high, IntArrayRef sizes, TensorOptions options = kInt64,
               Generator* generator = nullptr);
Tensor randint(int64_t high, IntArrayRef sizes, TensorOptions options = kInt64,
               Generator* generator = nullptr);
// A random permutation of 0..n-1.
Tensor randperm(int64_t n, TensorOptions options = kInt64, Generator* generator = nullptr);
// Each element 1 with probability p[i] (p's dtype and shape).
Tensor bernoulli(const Tensor& p, Generator* generator = nullptr);
Tensor bernoulli(IntArrayRef sizes, double p, TensorOptions options = {},
                 Generator* generator = nullptr);
// In place: uniform in [from, to) / normal(mean, std).
Tensor& uniform_(Tensor& t, double from = 0, double to = 1, Generator* generator = nullptr);
Tensor& normal_(Tensor& t, double mean = 0, double std = 1, Generator* generator = nullptr);

}  // namespace accel
