// Convolution one image at a time (see conv2d.h). The weights are packed once per call and
// multiplied with each image's columns by packed_gemm; images are independent, so threads take
// whole images and every output element is computed the same way whatever the thread count.
#include "accel/kernels/cpu/conv2d.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "accel/base/error.h"
#include "accel/kernels/cpu/im2col.h"
#include "accel/kernels/cpu/packed_gemm.h"
#include "accel/kernels/cpu/parallel.h"
#include "accel/kernels/cpu/unfolded_image.h"

namespace accel::cpu {

namespace {

// The sizes the per-image product uses: rows of the unfolded image (channels x taps) and
// output positions.
struct ImageProduct {
  int64_t depth, positions, image_size;
  explicit ImageProduct(const ConvGeometry& g)
      : depth(g.channels * g.kernel_h * g.kernel_w),
        positions(g.out_h * g.out_w),
        image_size(g.channels * g.height * g.width) {}
};

// A contiguous rows x cols matrix, or its transpose.
template <typename T>
StridedMatrix<T> row_major(const T* data, int64_t rows, int64_t cols) {
  return {data, rows, cols, cols, 1};
}
template <typename T>
StridedMatrix<T> transposed(const T* data, int64_t rows, int64_t cols) {
  return {data, cols, rows, 1, cols};
}

// A thread's working buffers: the image unfolding itself where the geometry allows, an image's
// columns (left uninitialized: every use overwrites them whole) where products need them as a
// matrix, and the packed operands of its products.
template <typename T>
struct Scratch {
  std::optional<UnfoldedImage<T>> unfolded;
  std::unique_ptr<T[]> columns;
  PanelBuffer<T> right;
  LeftOperand<T> left;

  // For images of geometry g; with as_matrix, their columns are always wanted as a matrix.
  Scratch(const ConvGeometry& g, bool as_matrix) {
    const ImageProduct s(g);
    int64_t column_size = s.depth * s.positions;
    if (rows_read_contiguously(g)) {
      unfolded.emplace(g);
      column_size = as_matrix ? s.depth * unfolded->row_stride() : 0;
    }
    columns = std::make_unique_for_overwrite<T[]>(static_cast<size_t>(column_size));
  }

  // The image's columns written into the columns buffer, as a matrix.
  StridedMatrix<T> columns_of(const ConvGeometry& g, const T* image) {
    const ImageProduct s(g);
    if (unfolded) {
      unfolded->set_image(image);
      unfolded->unfold(columns.get());
      return {columns.get(), s.depth, s.positions, unfolded->row_stride(), 1};
    }
    im2col(std::is_same_v<T, float> ? kFloat32 : kFloat64, g, 1, image, columns.get());
    return row_major(columns.get(), s.depth, s.positions);
  }
};

// out (row stride: the output positions) = weights · the image's im2col columns, packed
// straight from the image where the geometry allows, else unfolded into the scratch columns.
template <typename T>
void multiply_unfolded(const LeftOperand<T>& weights, const ConvGeometry& g, const T* image, T* out,
                       Scratch<T>& scratch) {
  const int64_t positions = ImageProduct(g).positions;
  if (scratch.unfolded) {
    scratch.unfolded->set_image(image);
    packed_gemm(weights, scratch.unfolded->columns(), out, positions, false, scratch.right);
    return;
  }
  packed_gemm(weights, scratch.columns_of(g, image), out, positions, false, scratch.right);
}

// Calls f(image, scratch) for every image of geometry g, threads taking whole images.
template <typename T, typename F>
void for_each_image(const ConvGeometry& g, int64_t batch, F&& f) {
  parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    Scratch<T> scratch(g, false);
    for (int64_t n = begin; n < end; ++n) f(n, scratch);
  });
}

// Calls f.template operator()<T>() for float32 (float) or float64 (double).
template <typename F>
void dispatch_float_or_double(ScalarType dtype, const char* op, F&& f) {
  if (dtype == kFloat32) {
    f.template operator()<float>();
  } else {
    ACCEL_CHECK(dtype == kFloat64, op, "expected float32 or float64, got {}", dtype);
    f.template operator()<double>();
  }
}

// With unit strides the input gradient is itself a convolution: of the output gradient with
// the weights flipped in both spatial dims and their channel dims swapped, padded so that its
// output has the input's size. Its product writes each input pixel once; no col2im.
ConvGeometry transposed_geometry(const ConvGeometry& g, int64_t out_channels) {
  ConvGeometry t = g;
  t.channels = out_channels;
  t.height = g.out_h;
  t.width = g.out_w;
  t.pad_h = g.dilation_h * (g.kernel_h - 1) - g.pad_h;
  t.pad_w = g.dilation_w * (g.kernel_w - 1) - g.pad_w;
  t.out_h = g.height;
  t.out_w = g.width;
  return t;
}

// weight [out_channels, channels, taps] as [channels, out_channels, taps] with the taps reversed.
template <typename T>
std::vector<T> flipped_weights(const T* weight, int64_t out_channels, int64_t channels,
                               int64_t taps) {
  std::vector<T> flipped(static_cast<size_t>(out_channels * channels * taps));
  for (int64_t o = 0; o < out_channels; ++o) {
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t t = 0; t < taps; ++t) {
        flipped[(c * out_channels + o) * taps + t] =
            weight[(o * channels + c) * taps + taps - 1 - t];
      }
    }
  }
  return flipped;
}

}  // namespace

void conv2d(ScalarType dtype, const ConvGeometry& g, int64_t batch, int64_t out_channels,
            const void* images, const void* weight, const void* bias, void* out) {
  dispatch_float_or_double(dtype, "conv2d", [&]<typename T>() {
    const ImageProduct s(g);
    const LeftOperand<T> weights(row_major(static_cast<const T*>(weight), out_channels, s.depth));
    for_each_image<T>(g, batch, [&](int64_t n, Scratch<T>& scratch) {
      T* o = static_cast<T*>(out) + n * out_channels * s.positions;
      multiply_unfolded(weights, g, static_cast<const T*>(images) + n * s.image_size, o, scratch);
      if (bias == nullptr) return;
      for (int64_t c = 0; c < out_channels; ++c) {
        const T b = static_cast<const T*>(bias)[c];
        for (int64_t p = 0; p < s.positions; ++p) o[c * s.positions + p] += b;
      }
    });
  });
}

void conv2d_input_grad(ScalarType dtype, const ConvGeometry& g, int64_t batch, int64_t out_channels,
                       const void* grad, const void* weight, void* grad_images) {
  dispatch_float_or_double(dtype, "conv2d_input_grad", [&]<typename T>() {
    const ImageProduct s(g);
    const T* w = static_cast<const T*>(weight);
    const auto grad_image = [&](int64_t n) {
      return static_cast<const T*>(grad) + n * out_channels * s.positions;
    };
    T* const grad_out = static_cast<T*>(grad_images);
    if (g.stride_h == 1 && g.stride_w == 1) {
      const ConvGeometry t = transposed_geometry(g, out_channels);
      const ImageProduct ts(t);
      const int64_t taps = g.kernel_h * g.kernel_w;
      const LeftOperand<T> weights(row_major(
          flipped_weights(w, out_channels, g.channels, taps).data(), g.channels, ts.depth));
      for_each_image<T>(t, batch, [&](int64_t n, Scratch<T>& scratch) {
        multiply_unfolded(weights, t, grad_image(n), grad_out + n * s.image_size, scratch);
      });
      return;
    }
    const LeftOperand<T> weights(transposed(w, out_channels, s.depth));
    for_each_image<T>(g, batch, [&](int64_t n, Scratch<T>& scratch) {
      packed_gemm(weights, row_major(grad_image(n), out_channels, s.positions),
                  scratch.columns.get(), s.positions, false, scratch.right);
      col2im(dtype, g, 1, scratch.columns.get(), grad_out + n * s.image_size);
    });
  });
}

void conv2d_weight_grad(ScalarType dtype, const ConvGeometry& g, int64_t batch,
                        int64_t out_channels, const void* images, const void* grad,
                        void* grad_weight) {
  dispatch_float_or_double(dtype, "conv2d_weight_grad", [&]<typename T>() {
    const ImageProduct s(g);
    const int64_t weight_size = out_channels * s.depth;
    const int64_t runs = std::clamp<int64_t>(default_num_threads(), 1, std::max<int64_t>(batch, 1));
    // Each run's sum, transposed ([depth, out_channels]): the columns are the left operand, so
    // that the product's rows are the many (channel, tap) pairs rather than few output channels.
    std::vector<T> sums(static_cast<size_t>(runs * weight_size), T(0));
    parallel_for(0, runs, 1, [&](int64_t first_run, int64_t end_run) {
      Scratch<T> scratch(g, true);
      for (int64_t run = first_run; run < end_run; ++run) {
        T* sum = sums.data() + run * weight_size;
        for (int64_t n = batch * run / runs; n < batch * (run + 1) / runs; ++n) {
          const StridedMatrix<T> columns =
              scratch.columns_of(g, static_cast<const T*>(images) + n * s.image_size);
          // (The columns are the left operand; the output channels the right one's columns.)
          if (out_channels <= kMaxInPlaceLeftColumns<T>)
            scratch.left.read_in_place(columns);
          else
            scratch.left.pack(columns);
          const T* grad_image = static_cast<const T*>(grad) + n * out_channels * s.positions;
          packed_gemm(scratch.left, transposed(grad_image, out_channels, s.positions), sum,
                      out_channels, true, scratch.right);
        }
      }
    });
    T* out = static_cast<T*>(grad_weight);
    for (int64_t o = 0; o < out_channels; ++o) {
      for (int64_t j = 0; j < s.depth; ++j) {
        T total = sums[static_cast<size_t>(j * out_channels + o)];
        for (int64_t run = 1; run < runs; ++run) {
          total += sums[static_cast<size_t>(run * weight_size + j * out_channels + o)];
        }
        out[o * s.depth + j] = total;
      }
    }
  });
}

}  // namespace accel::cpu
