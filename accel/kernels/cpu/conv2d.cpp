// Convolution one image at a time (see conv2d.h). Images are independent, so threads take
// whole images and every output element is computed the same way whatever the thread count.
#include "accel/kernels/cpu/conv2d.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "accel/base/error.h"
#include "accel/kernels/cpu/gemm.h"
#include "accel/kernels/cpu/im2col.h"
#include "accel/kernels/cpu/parallel.h"

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

// A thread's working buffer, left uninitialized: every use overwrites it whole.
template <typename T>
std::unique_ptr<T[]> scratch(int64_t size) {
  return std::make_unique_for_overwrite<T[]>(static_cast<size_t>(size));
}

// Calls f(image, columns) for every image, threads taking whole images; `columns` is a buffer
// of depth x positions elements of T owned by the calling thread.
template <typename T, typename F>
void for_each_image(const ImageProduct& s, int64_t batch, F&& f) {
  parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    const std::unique_ptr<T[]> columns = scratch<T>(s.depth * s.positions);
    for (int64_t n = begin; n < end; ++n) f(n, columns.get());
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

}  // namespace

void conv2d(ScalarType dtype, const ConvGeometry& g, int64_t batch, int64_t out_channels,
            const void* images, const void* weight, const void* bias, void* out) {
  dispatch_float_or_double(dtype, "conv2d", [&]<typename T>() {
    const ImageProduct s(g);
    const MatrixOperand weights{weight, s.depth, 1, {}};
    for_each_image<T>(s, batch, [&](int64_t n, T* columns) {
      im2col(dtype, g, 1, static_cast<const T*>(images) + n * s.image_size, columns);
      T* o = static_cast<T*>(out) + n * out_channels * s.positions;
      gemm(dtype, {}, out_channels, s.depth, s.positions, weights,
           MatrixOperand{columns, s.positions, 1, {}}, o);
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
    const MatrixOperand weights_transposed{weight, 1, s.depth, {}};
    for_each_image<T>(s, batch, [&](int64_t n, T* columns) {
      const T* grad_image = static_cast<const T*>(grad) + n * out_channels * s.positions;
      gemm(dtype, {}, s.depth, out_channels, s.positions, weights_transposed,
           MatrixOperand{grad_image, s.positions, 1, {}}, columns);
      col2im(dtype, g, 1, columns, static_cast<T*>(grad_images) + n * s.image_size);
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
    std::vector<T> sums(static_cast<size_t>(runs * weight_size), T(0));
    parallel_for(0, runs, 1, [&](int64_t first_run, int64_t end_run) {
      const std::unique_ptr<T[]> columns = scratch<T>(s.depth * s.positions);
      const std::unique_ptr<T[]> product = scratch<T>(weight_size);
      for (int64_t run = first_run; run < end_run; ++run) {
        T* sum = sums.data() + run * weight_size;
        for (int64_t n = batch * run / runs; n < batch * (run + 1) / runs; ++n) {
          im2col(dtype, g, 1, static_cast<const T*>(images) + n * s.image_size, columns.get());
          const T* grad_image = static_cast<const T*>(grad) + n * out_channels * s.positions;
          gemm(dtype, {}, out_channels, s.positions, s.depth,
               MatrixOperand{grad_image, s.positions, 1, {}},
               MatrixOperand{columns.get(), 1, s.positions, {}}, product.get());
          for (int64_t i = 0; i < weight_size; ++i) sum[i] += product[i];
        }
      }
    });
    T* out = static_cast<T*>(grad_weight);
    std::copy_n(sums.data(), weight_size, out);
    for (int64_t run = 1; run < runs; ++run) {
      for (int64_t i = 0; i < weight_size; ++i)
        out[i] += sums[static_cast<size_t>(run * weight_size + i)];
    }
  });
}

}  // namespace accel::cpu
