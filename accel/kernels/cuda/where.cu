// Selection by a bool condition (where, masked_fill) and the closeness test behind allclose and
// equal on the GPU, for every dtype: the device twins of kernels/cpu/where.cpp and
// kernels/cpu/allclose.cpp. all_close answers on the host, so it waits for its stream.
#include <cstring>
#include <type_traits>

#include "accel/base/dispatch.h"
#include "accel/kernels/common/isclose.h"
#include "accel/kernels/cuda/device_error.h"
#include "accel/kernels/cuda/elementwise.cuh"
#include "accel/kernels/cuda/stream_buffer.h"
#include "accel/kernels/cuda/where.h"

namespace accel::cuda {

namespace {

template <typename T>
struct Select {
  __device__ T operator()(bool c, T a, T b) const { return c ? a : b; }
};

template <typename T>
struct FillWhere {
  T value;
  bool fill_when;
  __device__ T operator()(bool c, T x) const { return c == fill_when ? value : x; }
};

// Sets *not_close when some element pair of Loop<2>(a, b) is not close; every writer stores
// the same 1, so the answer does not depend on which thread writes last.
template <typename T, typename C>
__global__ void find_not_close_kernel(Loop<2> loop, C rtol, C atol, bool equal_nan,
                                      int* not_close) {
  for (int64_t i = global_thread_index(); i < loop.numel; i += grid_stride()) {
    int64_t offsets[2];
    element_offsets(loop, i, offsets);
    const C a = static_cast<C>(*reinterpret_cast<const T*>(loop.data[0] + offsets[0]));
    const C b = static_cast<C>(*reinterpret_cast<const T*>(loop.data[1] + offsets[1]));
    if (!math::is_close(a, b, rtol, atol, equal_nan)) *not_close = 1;
  }
}

}  // namespace

void where(ScalarType dtype, const Loop<4>& loop, const Stream& stream) {
  dispatch_all(dtype, "where", [&]<typename T>() {
    map_elements<T, bool, T, T>(loop, stream, "where", Select<T>{});
  });
}

void fill_where(ScalarType dtype, const Loop<3>& loop, const void* value, bool fill_when,
                const Stream& stream) {
  dispatch_all(dtype, "where", [&]<typename T>() {
    T v;
    std::memcpy(&v, value, sizeof(T));
    map_elements<T, bool, T>(loop, stream, "where", FillWhere<T>{v, fill_when});
  });
}

bool all_close(ScalarType dtype, const Loop<2>& loop, double rtol, double atol, bool equal_nan,
               const Stream& stream) {
  const cudaStream_t s = launch_stream(stream);
  int not_close = 0;
  {
    const StreamBuffer flag(sizeof(int), s, "allclose");
    ACCEL_CUDA_CHECK(cudaMemsetAsync(flag.get<int>(), 0, sizeof(int), s), "allclose");
    dispatch_all(dtype, "allclose", [&]<typename T>() {
      // Floating types compare in their accumulate type, integers and bool in double.
      using C = std::conditional_t<std::is_floating_point_v<acc_t<T>>, acc_t<T>, double>;
      find_not_close_kernel<T, C><<<blocks_for(loop.numel), kThreadsPerBlock, 0, s>>>(
          loop, static_cast<C>(rtol), static_cast<C>(atol), equal_nan, flag.get<int>());
      check_launch("allclose");
    });
    ACCEL_CUDA_CHECK(
        cudaMemcpyAsync(&not_close, flag.get<int>(), sizeof(int), cudaMemcpyDeviceToHost, s),
        "allclose");
  }
  ACCEL_CUDA_CHECK(cudaStreamSynchronize(s), "allclose");
  // This was a synchronization: an error an earlier kernel on the device reported surfaces here.
  raise_device_error(stream.device().index);
  return not_close == 0;
}

}  // namespace accel::cuda
