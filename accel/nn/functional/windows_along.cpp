// windows_along: pad the dim with the fill value, take one strided slice per kernel tap and
// stack them.
#include "accel/nn/functional/windows_along.h"

#include <algorithm>
#include <vector>

#include "accel/core/ops.h"
#include "accel/nn/functional/pad.h"

namespace accel::nn::functional {

Tensor windows_along(const Tensor& t, int64_t dim, const WindowsAlong& w, double fill,
                     int64_t taps_dim) {
  const int64_t span = (w.count - 1) * w.stride + (w.kernel - 1) * w.dilation + 1;
  const int64_t pad_end = std::max<int64_t>(0, span - w.pad_begin - t.size(dim));
  Tensor padded = t;
  if (w.pad_begin > 0 || pad_end > 0) {
    // functional::pad's pairs run from the last dim.
    std::vector<int64_t> amounts(2 * static_cast<size_t>(t.dim() - dim), 0);
    amounts[amounts.size() - 2] = w.pad_begin;
    amounts.back() = pad_end;
    padded = pad(t, PadFuncOptions(amounts).value(fill));
  }
  std::vector<Tensor> taps;
  for (int64_t k = 0; k < w.kernel; ++k) {
    const int64_t start = k * w.dilation;
    taps.push_back(padded.slice(dim, start, start + (w.count - 1) * w.stride + 1, w.stride));
  }
  return stack(taps, taps_dim);
}

}  // namespace accel::nn::functional
