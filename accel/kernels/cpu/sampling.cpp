// Sampling at taps on the CPU: grid_sample's taps, computed per location in parallel (each
// location writes its own), and the kernels that use them, which keep every sum in one order
// on any thread count. The forward runs a few channels of one batch element per task (a
// channel writes its own output row). The backward runs one batch element per task when it
// adds into the input's gradient (any location may add to any element of the element's rows),
// else one block of locations; within it the channels go by in order, in groups whose scalar
// adds into the input's gradient share the taps' loads, while the products for the weights'
// gradient vectorize with gathers. Locations go in blocks whose positions and weights stay in
// L1 across channels.
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

// Channels whose rows the backward's loops visit together: the taps' positions and weights are
// loaded once for all of them, and their adds form independent chains.
constexpr int64_t kChannelGroup = 4;

// Calls f.template operator()<G>() for a group of G = size channels, 1 <= size <= 4.
template <typename F>
void with_channel_group(int64_t size, const F& f) {
  switch (size) {
    case 1:
      return f.template operator()<1>();
    case 2:
      return f.template operator()<2>();
    case 3:
      return f.template operator()<3>();
    default:
      return f.template operator()<4>();
  }
}

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

// A tap inside the input: the location (within its block) that reads it, the input position
// and the weight.
template <typename A>
struct InsideTap {
  int64_t location;
  int32_t position;
  A weight;
};

// The block's taps inside the input in the order p then k (the terms of the input's gradient),
// listed once for all channels, so that the adds neither branch nor skip.
template <typename A, typename T>
void list_inside_taps(const int32_t* at, const T* weight, int64_t taps, int64_t stride,
                      int64_t count, std::vector<InsideTap<A>>& inside) {
  inside.clear();
  for (int64_t p = 0; p < count; ++p) {
    for (int64_t k = 0; k < taps; ++k) {
      const int32_t position = at[k * stride + p];
      if (position >= 0) inside.push_back({p, position, static_cast<A>(weight[k * stride + p])});
    }
  }
}

// gi_j[position] += weight * grad_j[location] over the listed taps in order, for channels j < G
// (rows grad + j * grad_stride and gi + j * gi_stride).
template <int G, typename A, typename T>
void add_inside_taps(const std::vector<InsideTap<A>>& inside, const T* __restrict grad,
                     int64_t grad_stride, T* __restrict gi, int64_t gi_stride) {
  for (const InsideTap<A>& tap : inside) {
    for (int j = 0; j < G; ++j) {
      T& target = gi[j * gi_stride + tap.position];
      target = static_cast<T>(static_cast<A>(target) +
                              tap.weight * static_cast<A>(grad[j * grad_stride + tap.location]));
    }
  }
}

// Calls f(b, first_channel, end_channel) for chunks of one batch element's channels, in
// parallel: each writes only its own channels' rows (the forward, and the input's gradient
// where the batch is too small to give each thread its elements).
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

// tap_sample_backward's operands; a null gradient is skipped.
template <typename T>
struct BackwardOperands {
  const TapShape& s;
  const T* input;
  const T* grad;
  const int32_t* index;
  const T* weight;
  int64_t params;
  const T* weight_grad;
  T* grad_input;
  T* grad_params;
};

// A task's buffers: the block's inside taps, and its sums over channels of grad * input per
// tap (d out / d weight).
template <typename A>
struct BackwardScratch {
  std::vector<InsideTap<A>> inside;
  std::vector<A> weight_sums;
};

// The backward of batch element b's channels [first_channel, end_channel) (all of them when
// grad_params is asked for) over location blocks [first_block, end_block) (all of them when
// grad_input is: its rows are zeroed first), the channels in order, in groups.
template <typename T>
void backward_task(const BackwardOperands<T>& o, int64_t b, int64_t first_channel,
                   int64_t end_channel, int64_t first_block, int64_t end_block,
                   BackwardScratch<acc_t<T>>& scratch) {
  using A = acc_t<T>;
  const TapShape& s = o.s;
  T* gi = o.grad_input == nullptr ? nullptr : o.grad_input + b * s.channels * s.input_size;
  if (gi != nullptr) {
    std::fill(gi + first_channel * s.input_size, gi + end_channel * s.input_size, T(0));
  }
  if (o.grad_params != nullptr) scratch.weight_sums.resize(s.taps * kLocationBlock);
  for (int64_t block = first_block; block < end_block; ++block) {
    const int64_t first = block * kLocationBlock;
    const int64_t count = std::min(kLocationBlock, s.locations - first);
    const int64_t taps_at = b * s.taps * s.locations + first;
    const int32_t* at = o.index + taps_at;
    if (gi != nullptr) {
      list_inside_taps(at, o.weight + taps_at, s.taps, s.locations, count, scratch.inside);
    }
    std::fill(scratch.weight_sums.begin(), scratch.weight_sums.end(), A(0));
    for (int64_t c = first_channel; c < end_channel; c += kChannelGroup) {
      const int64_t row = b * s.channels + c;
      const T* g = o.grad + row * s.locations + first;
      with_channel_group(std::min(kChannelGroup, end_channel - c), [&]<int G>() {
        // The group's rows of the input's gradient stay in L1 while the taps land.
        if (gi != nullptr) {
          add_inside_taps<G>(scratch.inside, g, s.locations, gi + c * s.input_size, s.input_size);
        }
        if (o.grad_params == nullptr) return;
        for (int64_t j = 0; j < G; ++j) {
          const T* in = o.input + (row + j) * s.input_size;
          for (int64_t k = 0; k < s.taps; ++k) {
            add_tap_products(scratch.weight_sums.data() + k * kLocationBlock, at + k * s.locations,
                             g + j * s.locations, in, count);
          }
        }
      });
    }
    if (o.grad_params == nullptr) continue;
    // The chain rule through each weight's derivatives, tap by tap in order.
    const T* __restrict wg = o.weight_grad + taps_at * o.params;
    T* __restrict gp = o.grad_params + (b * s.locations + first) * o.params;
    for (int64_t p = 0; p < count; ++p) {
      for (int64_t j = 0; j < o.params; ++j) {
        A sum = 0;
        for (int64_t k = 0; k < s.taps; ++k) {
          sum += scratch.weight_sums[k * kLocationBlock + p] *
                 static_cast<A>(wg[(k * s.locations + p) * o.params + j]);
        }
        gp[p * o.params + j] = static_cast<T>(sum);
      }
    }
  }
}

}  // namespace

void grid_sample_taps(ScalarType dtype, const GridTapsShape& s, const void* grid, int32_t* index,
                      void* weight, void* weight_grad) {
  dispatch_floating(dtype, "grid_sample", [&]<typename T>() {
    dispatch_grid_taps(s, [&]<GridInterpolation I, GridPadding P, int S>() {
      const int64_t taps = grid_tap_count(s);
      const GridAxes<acc_t<T>, S> axes = grid_axes<acc_t<T>, S>(s);
      // Locations [first, first + count) of batch element b.
      const auto run = [&](int64_t b, int64_t first, int64_t count) {
        const T* g = static_cast<const T*>(grid) + (b * s.locations + first) * S;
        const int64_t at = b * taps * s.locations + first;
        T* location_weight_grad =
            weight_grad == nullptr ? nullptr : static_cast<T*>(weight_grad) + at * S;
        for (int64_t p = 0; p < count; ++p) {
          grid_location_taps<I, P, S>(
              axes, g + p * S, index + at + p, static_cast<T*>(weight) + at + p,
              location_weight_grad == nullptr ? nullptr : location_weight_grad + p * S,
              s.locations);
        }
      };
      parallel_for(0, s.batch * s.locations, kLocationGrain, [&](int64_t begin, int64_t end) {
        while (begin < end) {
          const int64_t b = begin / s.locations;
          const int64_t first = begin % s.locations;
          const int64_t count = std::min(end - begin, s.locations - first);
          run(b, first, count);
          begin += count;
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
          const T* in = static_cast<const T*>(input) + row * s.input_size;
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
    const BackwardOperands<T> both{s,
                                   static_cast<const T*>(input),
                                   static_cast<const T*>(grad),
                                   index,
                                   static_cast<const T*>(weight),
                                   params,
                                   static_cast<const T*>(weight_grad),
                                   static_cast<T*>(grad_input),
                                   static_cast<T*>(grad_params)};
    const int64_t blocks = (s.locations + kLocationBlock - 1) / kLocationBlock;
    // One pass for both gradients with a task per batch element, where the batch keeps the
    // threads busy; else the input's gradient by chunks of channels and the grid's by blocks.
    if (grad_input != nullptr && grad_params != nullptr && s.batch >= get_num_threads()) {
      parallel_for(0, s.batch, 1, [&](int64_t begin, int64_t end) {
        BackwardScratch<acc_t<T>> scratch;
        for (int64_t b = begin; b < end; ++b)
          backward_task(both, b, 0, s.channels, 0, blocks, scratch);
      });
      return;
    }
    if (grad_input != nullptr) {
      BackwardOperands<T> input_only = both;
      input_only.grad_params = nullptr;
      for_channel_chunks(s, [&](int64_t b, int64_t first_channel, int64_t end_channel) {
        BackwardScratch<acc_t<T>> scratch;
        backward_task(input_only, b, first_channel, end_channel, 0, blocks, scratch);
      });
    }
    if (grad_params != nullptr) {
      BackwardOperands<T> params_only = both;
      params_only.grad_input = nullptr;
      parallel_for(0, s.batch * blocks, 1, [&](int64_t begin, int64_t end) {
        BackwardScratch<acc_t<T>> scratch;
        for (int64_t task = begin; task < end; ++task) {
          const int64_t block = task % blocks;
          backward_task(params_only, task / blocks, 0, s.channels, block, block + 1, scratch);
        }
      });
    }
  });
}

}  // namespace accel::cpu
