// 2-D max and average pooling kernels. Planes are independent, so each kernel splits them
// across threads; inside a plane outputs are visited in order, and the backward of average
// pooling scatters each output's share into its own plane only, so results are deterministic.
#include "accel/kernels/cpu/pooling.h"

#include <algorithm>
#include <functional>
#include <type_traits>
#include <vector>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/pool2d_windows.h"
#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

namespace {

// Threads take at least this many input elements' worth of planes.
constexpr int64_t kGrain = 32768;

void for_planes(const Pool2dShape& s, const std::function<void(int64_t)>& plane_fn) {
  const int64_t grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(1, s.in_h * s.in_w));
  parallel_for(0, s.planes, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) plane_fn(p);
  });
}

template <typename T>
void max_pool_plane(const Pool2dShape& s, const T* in, T* out, int64_t* indices) {
  using A = acc_t<T>;
  for (int64_t oh = 0; oh < s.out_h; ++oh) {
    const PoolTaps rows = max_pool_row_taps(s, oh);
    for (int64_t ow = 0; ow < s.out_w; ++ow) {
      const PoolTaps cols = max_pool_col_taps(s, ow);
      const WindowMax<A> best =
          max_pool_window_max<A>(in, s.in_w, rows, cols, s.dilation_h, s.dilation_w);
      out[oh * s.out_w + ow] = static_cast<T>(best.value);
      indices[oh * s.out_w + ow] = best.index;
    }
  }
}

// Whether every window is the 2×2 block at (2·oh, 2·ow): kernel 2, stride 2, no padding or
// dilation, all windows inside the input. The common CNN case takes the fixed-tap loop below.
bool is_plain_2x2(const Pool2dShape& s) {
  return s.kernel_h == 2 && s.kernel_w == 2 && s.stride_h == 2 && s.stride_w == 2 && s.pad_h == 0 &&
         s.pad_w == 0 && s.dilation_h == 1 && s.dilation_w == 1 && 2 * s.out_h <= s.in_h &&
         2 * s.out_w <= s.in_w;
}

template <typename T>
bool has_nan(const T* values, int64_t n) {
  int any = 0;  // an int, not a bool: GCC vectorizes this reduction only then
  for (int64_t i = 0; i < n; ++i) any |= values[i] != values[i] ? 1 : 0;
  return any != 0;
}

// max_pool_plane for plain 2×2 windows. Without NaN, the rule (taps in the order top-left,
// top-right, bottom-left, bottom-right; a later tap wins only when strictly greater) picks
// the first maximum, which is the better of each row's pair (left on a tie), then the better
// of the two rows (top on a tie). Both steps are compare-and-select loops without branches
// (which random activations mispredict: the branching loop was 13-15% of a small CNN's
// training step), the first one over every pair of the plane at once so that it vectorizes.
// A plane holding a NaN takes the generic loop and its NaN rule.
template <typename T>
void max_pool_2x2_plane(const Pool2dShape& s, const T* in, T* out, int64_t* indices) {
  using A = acc_t<T>;
  if (has_nan(in, s.in_h * s.in_w)) return max_pool_plane(s, in, out, indices);
  const int64_t in_w = s.in_w, out_h = s.out_h, out_w = s.out_w;
  // Row pair winners: pair[r * out_w + ow] of input row r, right[...] whether it is the right.
  const int64_t pairs = 2 * out_h * out_w;
  thread_local std::vector<A> pair;
  thread_local std::vector<uint8_t> right;
  pair.resize(static_cast<size_t>(pairs));
  right.resize(static_cast<size_t>(pairs));
  A* __restrict pair_data = pair.data();
  uint8_t* __restrict right_data = right.data();
  // With an odd width each row's last column belongs to no window, so rows go one by one.
  const int64_t rows = in_w == 2 * out_w ? 1 : 2 * out_h;
  const int64_t row_pairs = pairs / rows;
  for (int64_t r = 0; r < rows; ++r) {
    const T* row_in = in + r * in_w;
    A* row_pair = pair_data + r * row_pairs;
    uint8_t* row_right = right_data + r * row_pairs;
    for (int64_t j = 0; j < row_pairs; ++j) {
      const A left_value = static_cast<A>(row_in[2 * j]);
      const A right_value = static_cast<A>(row_in[2 * j + 1]);
      row_pair[j] = std::max(left_value, right_value);  // left on a tie
      row_right[j] = right_value > left_value;
    }
  }
  for (int64_t oh = 0; oh < out_h; ++oh) {
    const A* top = pair_data + 2 * oh * out_w;
    const A* bottom = top + out_w;
    const uint8_t* top_right = right_data + 2 * oh * out_w;
    const uint8_t* bottom_right = top_right + out_w;
    T* __restrict out_row = out + oh * out_w;
    int64_t* __restrict index_row = indices + oh * out_w;
    for (int64_t ow = 0; ow < out_w; ++ow) {
      // Arithmetic rather than conditionals, so that no branch is left to mispredict.
      const int64_t takes_bottom = bottom[ow] > top[ow];
      out_row[ow] = static_cast<T>(std::max(top[ow], bottom[ow]));  // top on a tie
      const int64_t column = top_right[ow] + takes_bottom * (bottom_right[ow] - top_right[ow]);
      index_row[ow] = (2 * oh + takes_bottom) * in_w + 2 * ow + column;
    }
  }
}

// Whether every output's window reads some input element (see max_pool_window_has_tap): the
// window of output (oh, ow) does when row oh and column ow each have a tap inside the input.
bool every_window_has_a_tap(const Pool2dShape& s) {
  for (int64_t oh = 0; oh < s.out_h; ++oh) {
    const PoolTaps rows = max_pool_row_taps(s, oh);
    if (rows.first >= rows.end) return false;
  }
  for (int64_t ow = 0; ow < s.out_w; ++ow) {
    const PoolTaps cols = max_pool_col_taps(s, ow);
    if (cols.first >= cols.end) return false;
  }
  return true;
}

// Adds each output's gradient at its argmax in output order, accumulating in A (float for
// the 16-bit types, as the other pooling gradients do) and rounding once. Outputs whose window
// has no tap inside the input hold a stray index and are skipped; pooling shapes that allow such
// windows are rare (a dilation stepping over the whole input), so they alone pay for the test.
template <typename T>
void max_pool_backward_plane(const Pool2dShape& s, bool all_windows_have_taps, const T* grad_out,
                             const int64_t* indices, T* grad_in) {
  using A = acc_t<T>;
  const int64_t in_plane = s.in_h * s.in_w, out_plane = s.out_h * s.out_w;
  auto for_each_output = [&](auto&& add) {
    if (all_windows_have_taps) {
      for (int64_t o = 0; o < out_plane; ++o) add(o);
      return;
    }
    for (int64_t o = 0; o < out_plane; ++o) {
      if (max_pool_window_has_tap(s, o / s.out_w, o % s.out_w)) add(o);
    }
  };
  if constexpr (std::is_same_v<A, T>) {
    std::fill(grad_in, grad_in + in_plane, T(0));
    for_each_output([&](int64_t o) { grad_in[indices[o]] += grad_out[o]; });
  } else {
    thread_local std::vector<A> acc;
    acc.assign(static_cast<size_t>(in_plane), A(0));
    for_each_output(
        [&](int64_t o) { acc[static_cast<size_t>(indices[o])] += static_cast<A>(grad_out[o]); });
    std::transform(acc.begin(), acc.end(), grad_in, [](A v) { return static_cast<T>(v); });
  }
}

template <typename T>
void avg_pool_plane(const Pool2dShape& s, AvgWindows windows, const T* in, T* out) {
  using A = acc_t<T>;
  for (int64_t oh = 0; oh < s.out_h; ++oh) {
    for (int64_t ow = 0; ow < s.out_w; ++ow) {
      const AvgPoolWindow win = avg_pool_window(s, windows, oh, ow);
      A sum = 0;
      for (int64_t h = win.h0; h < win.h1; ++h) {
        for (int64_t w = win.w0; w < win.w1; ++w) sum += static_cast<A>(in[h * s.in_w + w]);
      }
      out[oh * s.out_w + ow] = static_cast<T>(sum / static_cast<A>(win.divisor));
    }
  }
}

template <typename T>
void avg_pool_backward_plane(const Pool2dShape& s, AvgWindows windows, const T* grad_out,
                             T* grad_in) {
  using A = acc_t<T>;
  std::vector<A> acc(static_cast<size_t>(s.in_h * s.in_w), A(0));
  for (int64_t oh = 0; oh < s.out_h; ++oh) {
    for (int64_t ow = 0; ow < s.out_w; ++ow) {
      const AvgPoolWindow win = avg_pool_window(s, windows, oh, ow);
      const A share = static_cast<A>(grad_out[oh * s.out_w + ow]) / static_cast<A>(win.divisor);
      for (int64_t h = win.h0; h < win.h1; ++h) {
        for (int64_t w = win.w0; w < win.w1; ++w) acc[static_cast<size_t>(h * s.in_w + w)] += share;
      }
    }
  }
  std::transform(acc.begin(), acc.end(), grad_in, [](A v) { return static_cast<T>(v); });
}

}  // namespace

void max_pool2d(ScalarType dtype, const Pool2dShape& s, const void* in, void* out,
                int64_t* indices) {
  dispatch_floating(dtype, "max_pool2d", [&]<typename T>() {
    const int64_t in_plane = s.in_h * s.in_w, out_plane = s.out_h * s.out_w;
    const auto plane = is_plain_2x2(s) ? &max_pool_2x2_plane<T> : &max_pool_plane<T>;
    for_planes(s, [&](int64_t p) {
      plane(s, static_cast<const T*>(in) + p * in_plane, static_cast<T*>(out) + p * out_plane,
            indices + p * out_plane);
    });
  });
}

void max_pool2d_backward(ScalarType dtype, const Pool2dShape& s, const void* grad_out,
                         const int64_t* indices, void* grad_in) {
  const bool all_windows_have_taps = every_window_has_a_tap(s);
  dispatch_floating(dtype, "max_pool2d_backward", [&]<typename T>() {
    const int64_t in_plane = s.in_h * s.in_w, out_plane = s.out_h * s.out_w;
    for_planes(s, [&](int64_t p) {
      max_pool_backward_plane(s, all_windows_have_taps,
                              static_cast<const T*>(grad_out) + p * out_plane,
                              indices + p * out_plane, static_cast<T*>(grad_in) + p * in_plane);
    });
  });
}

void avg_pool2d(ScalarType dtype, const Pool2dShape& s, AvgWindows windows, const void* in,
                void* out) {
  dispatch_floating(dtype, "avg_pool2d", [&]<typename T>() {
    const int64_t in_plane = s.in_h * s.in_w, out_plane = s.out_h * s.out_w;
    for_planes(s, [&](int64_t p) {
      avg_pool_plane(s, windows, static_cast<const T*>(in) + p * in_plane,
                     static_cast<T*>(out) + p * out_plane);
    });
  });
}

void avg_pool2d_backward(ScalarType dtype, const Pool2dShape& s, AvgWindows windows,
                         const void* grad_out, void* grad_in) {
  dispatch_floating(dtype, "avg_pool2d_backward", [&]<typename T>() {
    const int64_t in_plane = s.in_h * s.in_w, out_plane = s.out_h * s.out_w;
    for_planes(s, [&](int64_t p) {
      avg_pool_backward_plane(s, windows, static_cast<const T*>(grad_out) + p * out_plane,
                              static_cast<T*>(grad_in) + p * in_plane);
    });
  });
}

}  // namespace accel::cpu
