// Copy with conversion (kernels/common/convert.h's rule, as on the CPU) and fill on the GPU. A
// same-dtype copy between dense runs is one cudaMemcpyAsync.
#include <cstring>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/convert.h"
#include "accel/kernels/cuda/copy.h"
#include "accel/kernels/cuda/elementwise.cuh"

namespace accel::cuda {

namespace {

template <typename Out, typename In>
struct Convert {
  __device__ Out operator()(In v) const { return math::convert<Out, In>(v); }
};

template <typename T>
struct Constant {
  T value;
  __device__ T operator()() const { return value; }
};

}  // namespace

void copy(ScalarType out_type, ScalarType in_type, const Loop<2>& loop, const Stream& stream) {
  if (out_type == in_type && loop.ndim <= 1 && loop.inner_stride(0) == element_size(out_type) &&
      loop.inner_stride(1) == element_size(in_type)) {
    if (loop.numel == 0) return;
    ACCEL_CUDA_CHECK(cudaMemcpyAsync(loop.data[0], loop.data[1],
                                     static_cast<size_t>(loop.numel * element_size(out_type)),
                                     cudaMemcpyDeviceToDevice, launch_stream(stream)),
                     "copy");
    return;
  }
  dispatch_all(out_type, "copy", [&]<typename Out>() {
    dispatch_all(in_type, "copy", [&]<typename In>() {
      map_elements<Out, In>(loop, stream, "copy", Convert<Out, In>{});
    });
  });
}

void fill(ScalarType type, const Loop<1>& loop, const void* value, const Stream& stream) {
  dispatch_all(type, "fill", [&]<typename T>() {
    T v;
    std::memcpy(&v, value, sizeof(T));
    map_elements<T>(loop, stream, "fill", Constant<T>{v});
  });
}

}  // namespace accel::cuda
