// Padding by reflection, replication or wrapping (F::pad's modes other than constant), written
// once for every backend: which input position each output position reads along an axis, and,
// for a backward that gathers instead of scattering, which output positions read a given input
// position, in increasing order.
#pragma once

#include <cstdint>

#include "accel/base/macros.h"

namespace accel {

enum class PadKind : int8_t { Reflect, Replicate, Circular };

// in [planes, in[0], in[1], in[2]] padded along its three axes (by before[a] and after[a], which
// may be negative: a crop) into out [planes, out(0), out(1), out(2)], both contiguous. An axis
// the op leaves alone has size 1 and no padding. Reflect pads at most in[a] - 1 a side,
// Circular at most in[a].
struct PadShape {
  int64_t planes;
  int64_t in[3], before[3], after[3];
  PadKind kind;

  ACCEL_INLINE int64_t out(int axis) const { return in[axis] + before[axis] + after[axis]; }
};

// A run [first, end) of output positions along one axis.
struct PadRange {
  int64_t first, end;
};

namespace math {

// The input position that output position o reads along an axis of `size` padded by `before`.
ACCEL_INLINE int64_t pad_source(int64_t o, int64_t size, int64_t before, PadKind kind) {
  const int64_t j = o - before;
  if (j >= 0 && j < size) return j;
  switch (kind) {
    case PadKind::Reflect:
      return j < 0 ? -j : 2 * (size - 1) - j;
    case PadKind::Replicate:
      return j < 0 ? 0 : size - 1;
    case PadKind::Circular:
      return j < 0 ? j + size : j - size;
  }
  return j;
}

// The output positions that read input position x along an axis of `size` padded by `before`
// and `after`: up to three runs in increasing order, written to runs[]; returns their number.
ACCEL_INLINE int pad_readers(int64_t x, int64_t size, int64_t before, int64_t after, PadKind kind,
                             PadRange runs[3]) {
  // Candidate runs in input coordinates (j = o - before), ascending: the mirror, copy or wrap
  // before the input, x itself, and the one after it.
  constexpr int64_t kFar = INT64_MAX / 4;
  PadRange candidates[3] = {{0, 0}, {x, x + 1}, {0, 0}};  // {0, 0}: none
  switch (kind) {
    case PadKind::Reflect:
      if (x > 0) candidates[0] = {-x, -x + 1};
      if (x < size - 1) candidates[2] = {2 * (size - 1) - x, 2 * (size - 1) - x + 1};
      break;
    case PadKind::Replicate:
      if (x == 0) candidates[0] = {-kFar, 0};
      if (x == size - 1) candidates[2] = {size, kFar};
      break;
    case PadKind::Circular:
      candidates[0] = {x - size, x - size + 1};
      candidates[2] = {x + size, x + size + 1};
      break;
  }
  int count = 0;
  for (const PadRange& c : candidates) {
    // Clipped to the output, [-before, size + after) in input coordinates.
    const int64_t first = c.first > -before ? c.first : -before;
    const int64_t end = c.end < size + after ? c.end : size + after;
    if (first < end) runs[count++] = {first + before, end + before};
  }
  return count;
}

}  // namespace math

}  // namespace accel
