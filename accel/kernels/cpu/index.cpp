// Gather and scatter over strided operands. In general the index decides, element by element,
// where each element comes from or goes to; two shapes of the index run faster: a run of one
// index (index_select, index_add and embedding spread their 1-D index along the other dims, so
// a row of the input moves whole), and a contiguous index into one row of the input (gather
// along the last dim), which the compiler turns into vector gathers. Both kernels test their
// indices a block at a time, just before the block moves, while it is in L1: a separate pass
// over a large index costs as much as a third of the gather.
#include "accel/kernels/cpu/index.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

#include "accel/base/dispatch.h"

namespace accel::cpu {

namespace {

[[noreturn]] void throw_outside(IndexCheck check, int64_t value, int64_t size) {
  fail(check.op, "index {} is out of bounds for dimension {} with size {}", value, check.dim, size);
}

// Whether the n indices at `index`, `stride` bytes apart, all lie in [0, size): their least and
// greatest, taken branch-free (min / max vectorize where a running `inside &= ...` does not).
template <typename I>
bool all_inside(const char* index, int64_t stride, int64_t n, int64_t size) {
  I least = 0, greatest = 0;
  if (stride == sizeof(I)) {
    const I* values = reinterpret_cast<const I*>(index);
    for (int64_t i = 0; i < n; ++i) {
      least = std::min(least, values[i]);
      greatest = std::max(greatest, values[i]);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      const I value = *reinterpret_cast<const I*>(index + i * stride);
      least = std::min(least, value);
      greatest = std::max(greatest, value);
    }
  }
  return least >= 0 && static_cast<int64_t>(greatest) < size;
}

// Indices tested at once before their elements move.
constexpr int64_t kIndexBlock = 1024;

// A loop's runs with their indices (operand 2) tested against [0, size): `move(ptrs, strides,
// n)` sees only blocks whose indices all lie inside. After a block with one outside, nothing
// more moves, and throw_if_outside throws the error of the first such index in the loop's
// order, whichever thread met one.
template <typename I, typename Move>
class CheckedRuns {
 public:
  CheckedRuns(int64_t size, Move move) : size_(size), move_(std::move(move)) {}

  void operator()(const std::array<char*, 3>& ptrs, const std::array<int64_t, 3>& strides,
                  int64_t n) {
    if (outside_.load(std::memory_order_relaxed)) return;
    if (strides[2] == 0) {  // one index for the run
      if (!all_inside<I>(ptrs[2], 0, 1, size_)) return outside_.store(true);
      return move_(ptrs, strides, n);
    }
    std::array<char*, 3> block = ptrs;
    for (int64_t done = 0; done < n; done += kIndexBlock) {
      const int64_t m = std::min(kIndexBlock, n - done);
      if (!all_inside<I>(block[2], strides[2], m, size_)) return outside_.store(true);
      move_(block, strides, m);
      for (int k = 0; k < 3; ++k) block[k] += m * strides[k];
    }
  }

  void throw_if_outside(const Loop<3>& loop, IndexCheck check) const {
    if (!outside_.load()) return;
    auto first_outside = [&](const std::array<char*, 3>& ptrs,
                             const std::array<int64_t, 3>& strides, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t value = *reinterpret_cast<const I*>(ptrs[2] + i * strides[2]);
        if (value < 0 || value >= size_) throw_outside(check, value, size_);
      }
    };
    run_range(loop, 0, loop.numel, first_outside);
  }

 private:
  int64_t size_;
  Move move_;
  std::atomic<bool> outside_{false};
};

}  // namespace

void check_indices(ScalarType index_type, const void* index, int64_t n, int64_t size,
                   IndexCheck check) {
  dispatch_index(index_type, check.op, [&]<typename I>() {
    const I* values = static_cast<const I*>(index);
    std::atomic<bool> outside{false};
    parallel_for(0, n, kElementwiseGrain, [&](int64_t begin, int64_t end) {
      if (!all_inside<I>(reinterpret_cast<const char*>(values + begin), sizeof(I), end - begin,
                         size)) {
        outside.store(true, std::memory_order_relaxed);
      }
    });
    if (!outside.load(std::memory_order_relaxed)) return;
    for (int64_t i = 0; i < n; ++i) {
      if (values[i] < 0 || values[i] >= size) throw_outside(check, values[i], size);
    }
  });
}

void gather(ScalarType dtype, ScalarType index_type, const Loop<3>& loop, int64_t dim_stride,
            int64_t dim_size, IndexCheck check) {
  dispatch_all(dtype, check.op, [&]<typename T>() {
    dispatch_index(index_type, check.op, [&]<typename I>() {
      auto move = [dim_stride](const std::array<char*, 3>& ptrs,
                               const std::array<int64_t, 3>& strides, int64_t n) {
        char* out = ptrs[0];
        const char* in = ptrs[1];
        const char* index = ptrs[2];
        if (strides[2] == 0) {  // one index for the run: a strided copy from one place
          const char* from = in + *reinterpret_cast<const I*>(index) * dim_stride;
          if (strides[0] == sizeof(T) && strides[1] == sizeof(T)) {
            std::memcpy(out, from, static_cast<size_t>(n) * sizeof(T));
            return;
          }
          for (int64_t i = 0; i < n; ++i) {
            *reinterpret_cast<T*>(out + i * strides[0]) =
                *reinterpret_cast<const T*>(from + i * strides[1]);
          }
          return;
        }
        if (strides[0] == sizeof(T) && strides[1] == 0 && strides[2] == sizeof(I)) {
          // Contiguous positions into one row of the input: vector gathers.
          T* to = reinterpret_cast<T*>(out);
          const I* at = reinterpret_cast<const I*>(index);
          for (int64_t i = 0; i < n; ++i) {
            to[i] = *reinterpret_cast<const T*>(in + at[i] * dim_stride);
          }
          return;
        }
        for (int64_t i = 0; i < n; ++i) {
          const int64_t at = *reinterpret_cast<const I*>(index + i * strides[2]);
          *reinterpret_cast<T*>(out + i * strides[0]) =
              *reinterpret_cast<const T*>(in + i * strides[1] + at * dim_stride);
        }
      };
      CheckedRuns<I, decltype(move)> runs(dim_size, move);
      run(loop, std::ref(runs));
      runs.throw_if_outside(loop, check);
    });
  });
}

namespace {

// The part of the loop whose coordinate along dim d lies in [first, last).
Loop<3> along_dim(const Loop<3>& loop, int d, int64_t first, int64_t last) {
  Loop<3> part = loop;
  part.sizes[d] = last - first;
  for (int k = 0; k < 3; ++k) part.data[k] += first * loop.strides[k][d];
  part.numel = loop.numel / loop.sizes[d] * (last - first);
  return part;
}

// Integer sums into a 1-D self that is small beside the number of elements (bincount's
// histogram): each thread adds its share of the elements into a zeroed copy of self, and the
// copies are then added into self. Integer addition (wrapping) gives the same result in any
// order. Returns false, doing nothing, where the loop is not of that shape.
template <typename T, typename Inner>
bool add_integers_in_parts(const Loop<3>& loop, int64_t dim_stride, int64_t dim_size,
                           Inner& inner) {
  const int64_t threads = get_num_threads();
  if (loop.ndim != 1 || dim_stride != sizeof(T) || threads == 1 || loop.numel < kElementwiseGrain ||
      dim_size * threads * 4 > loop.numel) {
    return false;
  }
  std::vector<std::vector<T>> parts(static_cast<size_t>(threads));
  parallel_for(0, threads, 1, [&](int64_t first, int64_t last) {
    for (int64_t part = first; part < last; ++part) {
      std::vector<T>& counts = parts[static_cast<size_t>(part)];
      counts.assign(static_cast<size_t>(dim_size), T(0));
      Loop<3> into_part = loop;
      into_part.data[0] = reinterpret_cast<char*>(counts.data());
      run_range(into_part, loop.numel * part / threads, loop.numel * (part + 1) / threads, inner);
    }
  });
  T* self = reinterpret_cast<T*>(loop.data[0]);
  for (const std::vector<T>& counts : parts) {
    for (int64_t j = 0; j < dim_size; ++j) {
      self[j] = static_cast<T>(
          math::scatter_combine<math::ScatterReduce::Sum>(self[j], counts[static_cast<size_t>(j)]));
    }
  }
  return true;
}

}  // namespace

void scatter(math::ScatterReduce op, ScalarType dtype, ScalarType index_type, const Loop<3>& loop,
             int64_t dim_stride, int64_t dim_size, IndexCheck check) {
  math::visit(op, [&]<math::ScatterReduce Op>() {
    dispatch_all(dtype, check.op, [&]<typename T>() {
      dispatch_index(index_type, check.op, [&]<typename I>() {
        using A = acc_t<T>;
        const auto combine = [](T& dst, T src) {
          dst = static_cast<T>(math::scatter_combine<Op>(static_cast<A>(dst), static_cast<A>(src)));
        };
        auto move = [dim_stride, combine](const std::array<char*, 3>& ptrs,
                                          const std::array<int64_t, 3>& strides, int64_t n) {
          if (strides[2] == 0) {  // one index for the run: one destination row
            char* row = ptrs[0] + *reinterpret_cast<const I*>(ptrs[2]) * dim_stride;
            if (strides[0] == sizeof(T) && strides[1] == sizeof(T)) {  // rows added whole
              T* to = reinterpret_cast<T*>(row);
              const T* from = reinterpret_cast<const T*>(ptrs[1]);
              for (int64_t i = 0; i < n; ++i) combine(to[i], from[i]);
              return;
            }
            for (int64_t i = 0; i < n; ++i) {
              combine(*reinterpret_cast<T*>(row + i * strides[0]),
                      *reinterpret_cast<const T*>(ptrs[1] + i * strides[1]));
            }
            return;
          }
          if (strides[0] == 0 && strides[1] == sizeof(T) && strides[2] == sizeof(I)) {
            // Contiguous positions into one row of self (scatter along the last dim).
            const T* from = reinterpret_cast<const T*>(ptrs[1]);
            const I* at = reinterpret_cast<const I*>(ptrs[2]);
            for (int64_t i = 0; i < n; ++i) {
              combine(*reinterpret_cast<T*>(ptrs[0] + at[i] * dim_stride), from[i]);
            }
            return;
          }
          for (int64_t i = 0; i < n; ++i) {
            const int64_t at = *reinterpret_cast<const I*>(ptrs[2] + i * strides[2]);
            combine(*reinterpret_cast<T*>(ptrs[0] + i * strides[0] + at * dim_stride),
                    *reinterpret_cast<const T*>(ptrs[1] + i * strides[1]));
          }
        };
        if (loop.numel == 0) return;
        CheckedRuns<I, decltype(move)> runs(dim_size, move);
        // Elements land on one destination only if they differ in nothing but their position
        // along the indexed dim, where self's stride is 0. Threads may therefore take a block
        // each along a dim where self's stride is not 0 (the innermost such), each walking its
        // block in the loop's order: every destination's elements still combine in that order.
        int split = 0;
        while (split < loop.ndim && loop.strides[0][split] == 0) ++split;
        if (split == loop.ndim) {
          if constexpr (Op == math::ScatterReduce::Sum && std::is_integral_v<T> &&
                        !std::is_same_v<T, bool>) {
            if (add_integers_in_parts<T>(loop, dim_stride, dim_size, runs)) {
              return runs.throw_if_outside(loop, check);
            }
          }
          run_range(loop, 0, loop.numel, runs);
          return runs.throw_if_outside(loop, check);
        }
        // A block per thread: narrower blocks of the innermost dim would cut its rows short.
        const int64_t positions = loop.sizes[split];
        const int64_t threads = loop.numel < kElementwiseGrain ? 1 : get_num_threads();
        parallel_for(0, positions, (positions + threads - 1) / threads,
                     [&](int64_t first, int64_t last) {
                       const Loop<3> block = along_dim(loop, split, first, last);
                       run_range(block, 0, block.numel, runs);
                     });
        runs.throw_if_outside(loop, check);
      });
    });
  });
}

}  // namespace accel::cpu
