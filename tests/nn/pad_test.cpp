// Padding by reflection, replication and wrapping as one kernel family: the per-axis readers
// the GPU's backward gathers from invert the sources exactly, and the kernels agree with
// selecting the sources along each dim in turn (the fixtures against PyTorch are in
// functional_test.cpp), on any thread count.
#include <gtest/gtest.h>

#include <vector>

#include "accel/accel.h"
#include "accel/kernels/common/pad_math.h"
#include "support/thread_count.h"

namespace accel {
namespace {

constexpr PadKind kKinds[] = {PadKind::Reflect, PadKind::Replicate, PadKind::Circular};

F::PadMode mode_of(PadKind kind) {
  return kind == PadKind::Reflect     ? F::PadMode::Reflect
         : kind == PadKind::Replicate ? F::PadMode::Replicate
                                      : F::PadMode::Circular;
}

// Every pad a size allows, crops included.
TEST(PadMath, ReadersAreTheOutputsWhoseSourceIsTheInputInIncreasingOrder) {
  for (PadKind kind : kKinds) {
    for (int64_t size = 1; size <= 6; ++size) {
      const int64_t limit = kind == PadKind::Reflect ? size - 1 : size;
      for (int64_t before = -size; before <= limit; ++before) {
        for (int64_t after = -size; after <= limit; ++after) {
          const int64_t out = size + before + after;
          if (out < 0) continue;
          for (int64_t x = 0; x < size; ++x) {
            std::vector<int64_t> expected, listed;
            for (int64_t o = 0; o < out; ++o) {
              if (math::pad_source(o, size, before, kind) == x) expected.push_back(o);
            }
            PadRange runs[3];
            const int count = math::pad_readers(x, size, before, after, kind, runs);
            for (int r = 0; r < count; ++r) {
              for (int64_t o = runs[r].first; o < runs[r].end; ++o) listed.push_back(o);
            }
            EXPECT_EQ(listed, expected) << "kind " << int(kind) << " size " << size << " pad ("
                                        << before << ", " << after << ") x " << x;
          }
        }
      }
    }
  }
}

// The sources of every output position along `dim` of x padded by (before, after).
Tensor sources(const Tensor& x, int64_t dim, int64_t before, int64_t after, PadKind kind) {
  std::vector<int64_t> positions;
  for (int64_t o = 0; o < x.size(dim) + before + after; ++o) {
    positions.push_back(math::pad_source(o, x.size(dim), before, kind));
  }
  return tensor(positions);
}

TEST(PadKernels, MatchSelectingTheSourcesDimByDimOnAnyThreadCount) {
  manual_seed(5);
  const Tensor x = randn({2, 3, 5, 40, 50}, kFloat64);
  const Tensor grad_seed = randn({2, 3, 5 + 2 + 1, 40 + 3 + 0, 50 + 1 + 4}, kFloat64);
  for (PadKind kind : kKinds) {
    SCOPED_TRACE(int(kind));
    // Selected one dim at a time, from the last, each gradient a scatter_add.
    const Tensor leaf = x.detach().requires_grad_();
    const Tensor selected = leaf.index_select(4, sources(x, 4, 1, 4, kind))
                                .index_select(3, sources(x, 3, 3, 0, kind))
                                .index_select(2, sources(x, 2, 2, 1, kind));
    selected.backward(grad_seed);
    std::vector<Tensor> grads;
    for (int threads : {1, 4}) {
      testing::ThreadCount scope(threads);
      const Tensor input = x.detach().requires_grad_();
      const Tensor out = F::pad(input, F::PadFuncOptions({1, 4, 3, 0, 2, 1}).mode(mode_of(kind)));
      EXPECT_TRUE(out.equal(selected.detach())) << threads << " threads";
      out.backward(grad_seed);
      EXPECT_TRUE(input.grad().allclose(leaf.grad(), 1e-12, 1e-12)) << threads << " threads";
      grads.push_back(input.grad());
    }
    EXPECT_TRUE(grads[0].equal(grads[1]));
  }
  // Crops (negative pads) read an inner part; integers pad too.
  const Tensor ints = arange(24).view({1, 4, 6});
  EXPECT_TRUE(F::pad(ints, F::PadFuncOptions({-1, 2, 1, -2}).mode(F::PadMode::Replicate))
                  .equal(ints.index_select(2, sources(ints, 2, -1, 2, PadKind::Replicate))
                             .index_select(1, sources(ints, 1, 1, -2, PadKind::Replicate))));
}

}  // namespace
}  // namespace accel
