// Sampling at taps on the CPU. The forward and the input's gradient run a few channels of one
// batch element per task: a channel reads (or accumulates into) its own input row only, so
// tasks need no synchronization and each sum keeps one order on any thread count. The weights'
// gradient runs blocks of locations of one batch element per task, summing over channels in
// order. Locations go in blocks whose positions and weights stay in L1 across channels.
#include "accel/kernels/cpu/sampling.h"

#include <algorithm>
#include <vector>

#include "accel/base/dispatch.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {
namespace {

// Locations per block: a block's positions and weights (and the weights' gradient sums) stay
// in L1 while the channels go by.
constexpr int64_t kLocationBlock = 512;
// Channels per task of the forward and the input's gradient.
constexpr int64_t kChannelChunk = 8;

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

void tap_sample(ScalarType dtype, const TapShape& s, const void* input, const int64_t* index,
                const void* weight, void* out) {
  dispatch_floating(dtype, "grid_sample", [&]<typename T>() {
    using A = acc_t<T>;
    const int64_t taps = s.taps;
    const int64_t locations = s.locations;
    for_channel_chunks(s, [&](int64_t b, int64_t first_channel, int64_t end_channel) {
      const int64_t* at = index + b * taps * locations;
      const T* w = static_cast<const T*>(weight) + b * taps * locations;
      for (int64_t c = first_channel; c < end_channel; ++c) {
        const int64_t row = b * s.channels + c;
        const T* in = static_cast<const T*>(input) + row * s.input_size;
        T* o = static_cast<T*>(out) + row * locations;
        for (int64_t p = 0; p < locations; ++p) {
          A sum = 0;
          for (int64_t k = 0; k < taps; ++k) {
            const int64_t position = at[k * locations + p];
            if (position >= 0)
              sum += static_cast<A>(in[position]) * static_cast<A>(w[k * locations + p]);
          }
          o[p] = static_cast<T>(sum);
        }
      }
    });
  });
}

void tap_sample_backward_input(ScalarType dtype, const TapShape& s, const void* grad,
                               const int64_t* index, const void* weight, void* grad_input) {
  dispatch_floating(dtype, "grid_sample_backward", [&]<typename T>() {
    using A = acc_t<T>;
    const int64_t taps = s.taps;
    const int64_t locations = s.locations;
    for_channel_chunks(s, [&](int64_t b, int64_t first_channel, int64_t end_channel) {
      const int64_t* at = index + b * taps * locations;
      const T* w = static_cast<const T*>(weight) + b * taps * locations;
      // A channel's whole row of the input's gradient stays in cache while its taps land.
      for (int64_t c = first_channel; c < end_channel; ++c) {
        const int64_t row = b * s.channels + c;
        const T* g = static_cast<const T*>(grad) + row * locations;
        T* gi = static_cast<T*>(grad_input) + row * s.input_size;
        std::fill(gi, gi + s.input_size, T(0));
        for (int64_t p = 0; p < locations; ++p) {
          const A upstream = static_cast<A>(g[p]);
          for (int64_t k = 0; k < taps; ++k) {
            const int64_t position = at[k * locations + p];
            if (position < 0) continue;
            T& target = gi[position];
            target = static_cast<T>(static_cast<A>(target) +
                                    static_cast<A>(w[k * locations + p]) * upstream);
          }
        }
      }
    });
  });
}

void tap_sample_backward_weight(ScalarType dtype, const TapShape& s, const void* input,
                                const int64_t* index, const void* grad, void* grad_weight) {
  dispatch_floating(dtype, "grid_sample_backward", [&]<typename T>() {
    using A = acc_t<T>;
    const int64_t blocks_per_batch = (s.locations + kLocationBlock - 1) / kLocationBlock;
    parallel_for(0, s.batch * blocks_per_batch, 1, [&](int64_t begin, int64_t end) {
      std::vector<A> block(static_cast<size_t>(s.taps * kLocationBlock));
      A* __restrict sums = block.data();
      for (int64_t task = begin; task < end; ++task) {
        const int64_t b = task / blocks_per_batch;
        const int64_t first = (task % blocks_per_batch) * kLocationBlock;
        const int64_t count = std::min(kLocationBlock, s.locations - first);
        const int64_t* at = index + b * s.taps * s.locations + first;
        std::fill(block.begin(), block.end(), A(0));
        for (int64_t c = 0; c < s.channels; ++c) {
          const int64_t row = b * s.channels + c;
          const T* __restrict in = static_cast<const T*>(input) + row * s.input_size;
          const T* __restrict g = static_cast<const T*>(grad) + row * s.locations + first;
          for (int64_t k = 0; k < s.taps; ++k) {
            A* __restrict acc = sums + k * kLocationBlock;
            const int64_t* __restrict tap_at = at + k * s.locations;
            for (int64_t p = 0; p < count; ++p) {
              if (tap_at[p] >= 0) acc[p] += static_cast<A>(g[p]) * static_cast<A>(in[tap_at[p]]);
            }
          }
        }
        T* gw = static_cast<T*>(grad_weight) + b * s.taps * s.locations + first;
        for (int64_t k = 0; k < s.taps; ++k) {
          for (int64_t p = 0; p < count; ++p) {
            gw[k * s.locations + p] = static_cast<T>(sums[k * kLocationBlock + p]);
          }
        }
      }
    });
  });
}

}  // namespace accel::cpu
