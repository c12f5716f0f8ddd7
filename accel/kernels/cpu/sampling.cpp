// Sampling at taps on the CPU: grid_sample's taps, computed per location in parallel (each
// location writes its own), and the kernels that use them. The forward and the input's
// gradient run a few channels of one batch element per task: a channel reads (or accumulates
// into) its own input row only, so tasks need no synchronization and each sum keeps one order
// on any thread count. The weights' gradient runs blocks of locations of one batch element per
// task, summing over channels in order. Locations go in blocks whose positions and weights
// stay in L1 across channels.
#include "accel/kernels/cpu/sampling.h"

#include <algorithm>
#include <vector>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/grid_taps.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {
namespace {

// Locations per block: a block's positions and weights (and the weights' gradient sums) stay
// in L1 while the channels go by.
constexpr int64_t kLocationBlock = 512;
// Channels per task of the forward and the input's gradient.
constexpr int64_t kChannelChunk = 8;
// Grid locations per task when computing taps.
constexpr int64_t kLocationGrain = 1024;

// A tap inside the input: the location (within its block) that reads it, the input position
// and the weight.
template <typename A>
struct InsideTap {
  int64_t location;
  int32_t position;
  A weight;
};

// sums[p] += factor[p] * in[at[p]] for the taps inside (at[p] >= 0), p < count: a loop that
// vectorizes with gathers (a tap outside reads element 0 and discards it).
template <typename A, typename T>
void add_tap_products(A* __restrict sums, const int32_t* __restrict at, const T* __restrict factor,
                      const T* __restrict in, int64_t count) {
  for (int64_t p = 0; p < count; ++p) {
    const int32_t position = at[p];
    const auto read = static_cast<A>(in[std::max(position, 0)]);
    sums[p] += position >= 0 ? read * static_cast<A>(factor[p]) : A(0);
  }
}

// Calls f(b, first_channel, end_channel) for chunks of one batch element's channels, in
// parallel: each writes only its own channels' rows.
template <typename F>
void for_channel_chunks(const TapShape& s, const F& f) {
  const int64_t chunks = (s.channels + kChannelChunk - 1) / kChannelChunk;
  parallel_for(0, s.batch * chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t b = task / chunks;
      const int64_t first = (task % chunks) * kChannelChunk;
      f(b, first, std::min(s.channels, first + kChannelChunk));
    }
  });
}

}  // namespace

void grid_sample_taps(ScalarType dtype, const GridTapsShape& s, const void* grid, int32_t* index,
                      void* weight, void* weight_grad) {
  dispatch_floating(dtype, "grid_sample", [&]<typename T>() {
    dispatch_grid_taps(s, [&]<GridInterpolation I, GridPadding P, int S>() {
      const int64_t taps = grid_tap_count(s);
      parallel_for(0, s.batch * s.locations, kLocationGrain, [&](int64_t begin, int64_t end) {
        for (int64_t e = begin; e < end; ++e) {
          const int64_t first = (e / s.locations) * taps * s.locations + e % s.locations;
          T* location_weight_grad =
              weight_grad == nullptr ? nullptr : static_cast<T*>(weight_grad) + first * S;
          grid_location_taps<I, P, S, acc_t<T>>(s, static_cast<const T*>(grid) + e * S,
                                                index + first, static_cast<T*>(weight) + first,
                                                location_weight_grad, s.locations);
        }
      });
    });
  });
}

void tap_sample(ScalarType dtype, const TapShape& s, const void* input, const int32_t* index,
                const void* weight, void* out) {
  dispatch_floating(dtype, "grid_sample", [&]<typename T>() {
    using A = acc_t<T>;
    for_channel_chunks(s, [&](int64_t b, int64_t first_channel, int64_t end_channel) {
      A sums[kLocationBlock];
      for (int64_t first = 0; first < s.locations; first += kLocationBlock) {
        const int64_t count = std::min(kLocationBlock, s.locations - first);
        const int64_t taps_at = b * s.taps * s.locations + first;
        for (int64_t c = first_channel; c < end_channel; ++c) {
          const int64_t row = b * s.channels + c;
          const T* __restrict in = static_cast<const T*>(input) + row * s.input_size;
          std::fill(sums, sums + count, A(0));
          for (int64_t k = 0; k < s.taps; ++k) {
            add_tap_products(sums, index + taps_at + k * s.locations,
                             static_cast<const T*>(weight) + taps_at + k * s.locations, in, count);
          }
          T* o = static_cast<T*>(out) + row * s.locations + first;
          for (int64_t p = 0; p < count; ++p) o[p] = static_cast<T>(sums[p]);
        }
      }
    });
  });
}

void tap_sample_backward(ScalarType dtype, const TapShape& s, const void* input, const void* grad,
                         const int32_t* index, const void* weight, int64_t params,
                         const void* weight_grad, void* grad_input, void* grad_params) {
  dispatch_floating(dtype, "grid_sample_backward", [&]<typename T>() {
    using A = acc_t<T>;
    const int64_t blocks_per_batch = (s.locations + kLocationBlock - 1) / kLocationBlock;
    // A task that adds into a batch element's input gradient runs all of its blocks.
    const int64_t blocks_per_task = grad_input != nullptr ? blocks_per_batch : 1;
    const int64_t tasks_per_batch = blocks_per_batch / std::max<int64_t>(blocks_per_task, 1);
    parallel_for(0, s.batch * tasks_per_batch, 1, [&](int64_t begin, int64_t end) {
      // The block's taps inside the input in the order p then k (the input gradient's terms),
      // listed once for all channels, so that its adds neither branch nor skip.
      std::vector<InsideTap<A>> inside;
      if (grad_input != nullptr) inside.reserve(static_cast<size_t>(s.taps * kLocationBlock));
      // The block's sums over channels of grad * input, per tap: d out / d weight.
      std::vector<A> weight_sums(grad_params != nullptr ? s.taps * kLocationBlock : 0);
      for (int64_t task = begin; task < end; ++task) {
        const int64_t b = task / tasks_per_batch;
        const int64_t first_block = (task % tasks_per_batch) * blocks_per_task;
        T* gi_batch = grad_input == nullptr
                          ? nullptr
                          : static_cast<T*>(grad_input) + b * s.channels * s.input_size;
        if (gi_batch != nullptr) std::fill(gi_batch, gi_batch + s.channels * s.input_size, T(0));
        for (int64_t block = first_block; block < first_block + blocks_per_task; ++block) {
          const int64_t first = block * kLocationBlock;
          const int64_t count = std::min(kLocationBlock, s.locations - first);
          const int64_t taps_at = b * s.taps * s.locations + first;
          const int32_t* __restrict at = index + taps_at;
          if (gi_batch != nullptr) {
            const T* w = static_cast<const T*>(weight) + taps_at;
            inside.clear();
            for (int64_t p = 0; p < count; ++p) {
              for (int64_t k = 0; k < s.taps; ++k) {
                const int32_t position = at[k * s.locations + p];
                if (position >= 0) {
                  inside.push_back({p, position, static_cast<A>(w[k * s.locations + p])});
                }
              }
            }
          }
          std::fill(weight_sums.begin(), weight_sums.end(), A(0));
          for (int64_t c = 0; c < s.channels; ++c) {
            const int64_t row = b * s.channels + c;
            const T* __restrict g = static_cast<const T*>(grad) + row * s.locations + first;
            if (gi_batch != nullptr) {
              // A channel's row of the input's gradient stays in L1 while its taps land.
              T* gi = gi_batch + c * s.input_size;
              for (const InsideTap<A>& tap : inside) {
                gi[tap.position] = static_cast<T>(static_cast<A>(gi[tap.position]) +
                                                  tap.weight * static_cast<A>(g[tap.location]));
              }
            }
            if (grad_params == nullptr) continue;
            const T* __restrict in = static_cast<const T*>(input) + row * s.input_size;
            for (int64_t k = 0; k < s.taps; ++k) {
              add_tap_products(weight_sums.data() + k * kLocationBlock, at + k * s.locations, g, in,
                               count);
            }
          }
          if (grad_params == nullptr) continue;
          // The chain rule through each weight's derivatives, tap by tap in order.
          const T* __restrict wg = static_cast<const T*>(weight_grad) + taps_at * params;
          T* __restrict gp = static_cast<T*>(grad_params) + (b * s.locations + first) * params;
          for (int64_t p = 0; p < count; ++p) {
            for (int64_t j = 0; j < params; ++j) {
              A sum = 0;
              for (int64_t k = 0; k < s.taps; ++k) {
                sum += weight_sums[k * kLocationBlock + p] *
                       static_cast<A>(wg[(k * s.locations + p) * params + j]);
              }
              gp[p * params + j] = static_cast<T>(sum);
            }
          }
        }
      }
    });
  });
}

}  // namespace accel::cpu
