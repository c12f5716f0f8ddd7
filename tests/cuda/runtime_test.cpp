// The CUDA runtime through the public API: copies between host and device in every dtype and
// layout (blocking, and non-blocking from and to pinned memory), streams and events, device
// selection and its errors, ops mixing devices, Module::to, item and printing of device
// tensors. Each test skips itself without a GPU.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "accel/accel.h"
#include "support/cuda_test.h"
#include "support/expect_error.h"
#include "support/tensor_compare.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing::expect_matches_cpu;
using testing::expect_same_bits;

const Device kGpu(kCUDA, 0);

TEST(CudaRuntime, CopiesRoundTripEveryDtypeAndLayout) {
  ACCEL_REQUIRE_CUDA();
  for (ScalarType dtype :
       {kFloat32, kFloat64, kFloat16, kBFloat16, kInt64, kInt32, kUInt8, kBool}) {
    const std::string what = fmt::format("{}", dtype);
    const Tensor values = arange(24, kFloat64).reshape({2, 3, 4}).to(dtype);
    const Tensor on_gpu = values.to(kGpu);
    EXPECT_TRUE(on_gpu.is_cuda());
    EXPECT_EQ(on_gpu.dtype(), dtype);
    expect_same_bits(on_gpu, values, what + " to the device and back");
    // A strided source and a strided destination on either side.
    const Tensor transposed = values.transpose(0, 2);
    expect_same_bits(transposed.to(kGpu), transposed, what + " from a strided source");
    Tensor strided_gpu = zeros({4, 3, 2}, TensorOptions(dtype).device(kGpu)).transpose(0, 2);
    strided_gpu.copy_(values);
    expect_same_bits(strided_gpu, values, what + " into a strided device tensor");
    Tensor strided_cpu = zeros({4, 3, 2}, dtype).transpose(0, 2);
    strided_cpu.copy_(on_gpu);
    expect_same_bits(strided_cpu, values, what + " into a strided host tensor");
  }
  // Conversion and broadcasting across devices in one copy_.
  Tensor target = empty({3, 4}, TensorOptions(kFloat32).device(kGpu));
  target.copy_(arange(4, kInt64));
  expect_same_bits(target, arange(4, kFloat32).expand({3, 4}), "converted and broadcast");
}

// Every conversion between dtypes gives the CPU's bits: negative and out-of-range floats into
// integers (both devices truncate through int64), infinities, and a strided copy of each dtype
// (element-wise, bits unchanged). A NaN stays a NaN; from float32 into 16-bit floats it keeps
// the host's pattern, sign included, on the GPU too. Other NaN bits may differ, as in PyTorch:
// a GPU's own float conversions and arithmetic give one canonical NaN.
TEST(CudaRuntime, ConversionsGiveTheCpusBits) {
  ACCEL_REQUIRE_CUDA();
  // Values every floating type holds, some of them negative or beyond uint8's range.
  const std::vector<double> held = {-1.0, -3.7, 300.5, 3e4, -0.0, 0.5, 255.9};
  const ScalarType types[] = {kFloat32, kFloat64, kFloat16, kBFloat16,
                              kInt64,   kInt32,   kUInt8,   kBool};
  for (ScalarType from : types) {
    std::vector<double> into_integers = held;  // a float beyond int64, NaN or inf is undefined
    if (from != kFloat16) into_integers.push_back(3e10);  // beyond int32, within int64
    std::vector<double> into_floats = into_integers;
    into_floats.insert(into_floats.end(), {1e300, -1e300});  // infinities in 32 bits or fewer
    for (ScalarType to : types) {
      const bool floats_only = is_floating_point(from) && is_floating_point(to);
      const Tensor source = tensor(floats_only ? into_floats : into_integers).to(from);
      expect_same_bits(source.to(kGpu).to(to), source.to(to), fmt::format("{} to {}", from, to));
    }
    const Tensor strided = tensor(is_floating_point(from) ? into_floats : into_integers)
                               .to(from)
                               .unsqueeze(1)
                               .expand({-1, 3})
                               .t();
    expect_same_bits(strided.to(kGpu).contiguous(), strided.contiguous(),
                     fmt::format("strided {} copy", from));
  }

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor nans = tensor({nan, -nan}).to(kFloat32);
  for (ScalarType to : {kFloat16, kBFloat16}) {
    expect_same_bits(nans.to(kGpu).to(to), nans.to(to), fmt::format("NaN float32 to {}", to));
    const Tensor strided = nans.to(to).unsqueeze(1).expand({-1, 3}).t();
    expect_same_bits(strided.to(kGpu).contiguous(), strided.contiguous(),
                     fmt::format("strided {} NaN copy", to));
  }
  for (ScalarType from : {kFloat32, kFloat64, kFloat16, kBFloat16}) {
    for (ScalarType to : {kFloat32, kFloat64, kFloat16, kBFloat16}) {
      expect_matches_cpu(nans.to(from).to(kGpu).to(to), nans.to(from).to(to), {},
                         fmt::format("NaN {} to {}", from, to));
    }
  }
}

// Factories whose values the host computes build them on the CPU and move them.
TEST(CudaRuntime, FactoriesOfHostValuesPlaceThemOnTheDevice) {
  ACCEL_REQUIRE_CUDA();
  const TensorOptions on_gpu = TensorOptions(kFloat32).device(kGpu);
  const Tensor values = tensor({1.5f, -2.f, 3.f}, on_gpu);
  EXPECT_TRUE(values.is_cuda());
  expect_same_bits(values, tensor({1.5f, -2.f, 3.f}), "tensor");
  expect_same_bits(tensor({1, 2}, TensorOptions(kInt32).device(kGpu)), tensor({1, 2}).to(kInt32),
                   "tensor of ints into int32");
  expect_same_bits(arange(10, TensorOptions(kInt64).device(kGpu)), arange(10), "arange");
  expect_same_bits(linspace(0, 1, 7, on_gpu), linspace(0, 1, 7, kFloat32), "linspace");
  expect_same_bits(eye(3, 4, on_gpu), eye(3, 4, kFloat32), "eye");
  const Tensor leaf = tensor({1.f, 2.f}, on_gpu.requires_grad(true));
  EXPECT_TRUE(leaf.is_cuda() && leaf.requires_grad() && leaf.is_leaf());
}

TEST(CudaRuntime, NonBlockingCopiesUsePinnedMemory) {
  ACCEL_REQUIRE_CUDA();
  const Tensor values = randn({1 << 20});
  const Tensor pinned = values.pin_memory();
  const Tensor on_gpu = pinned.to(kGpu, /*non_blocking=*/true);
  const Tensor back = on_gpu.to(Device(kCPU), /*non_blocking=*/true);
  EXPECT_TRUE(back.is_pinned());
  current_stream(kGpu).synchronize();
  expect_same_bits(back, values, "through pinned memory");
  // Pageable memory: non_blocking is accepted and the copy is simply synchronous.
  expect_same_bits(values.to(kGpu, true), values, "from pageable memory");
}

TEST(CudaRuntime, StreamsEventsAndGuards) {
  ACCEL_REQUIRE_CUDA();
  const Stream side = cuda::stream_from_pool(kGpu);
  EXPECT_NE(side.handle(), nullptr);
  Tensor x = ones({1 << 20}, TensorOptions().device(kGpu));
  // Milliseconds of work on the default stream ending in x's final value, still queued when
  // the side stream reads x: without the wait, y would see an earlier fill.
  Tensor busy = empty({int64_t{1} << 28}, TensorOptions().device(kGpu));
  for (int i = 0; i < 20; ++i) busy.fill_(i);
  x.fill_(0.5);
  x.fill_(1);
  Event ready;
  ready.record(current_stream(kGpu));
  Tensor y;
  {
    StreamGuard guard(side);
    EXPECT_EQ(current_stream(kGpu), side);
    ready.block(side);  // x was written on the default stream
    y = x * 2;
    x.record_stream(side);
  }
  Event done;
  done.record(side);
  done.synchronize();
  EXPECT_TRUE(done.query());
  EXPECT_EQ(y.sum().item<double>(), 2.0 * (1 << 20));
  cuda::synchronize(kGpu);
  {
    cuda::DeviceGuard guard(kGpu);
    EXPECT_EQ(current_stream(kGpu).handle(), nullptr);
  }
}

// The GPU check's probe: under ACCEL_EXPECT_GPU=1 it fails, with the runtime's reason, when
// accel sees no device (a driver older than the toolkit, say) and asks nothing more of it.
TEST(CudaRuntime, SeesADevice) {
  ACCEL_REQUIRE_CUDA();
  EXPECT_GE(cuda::device_count(), 1);
}

// set_device chooses the process's device; a thread that chose none works on it (pinned
// memory) and is left on a guard's device afterwards, not moved to device 0.
TEST(CudaRuntime, SetDeviceChoosesTheProcesssDevice) {
  ACCEL_REQUIRE_CUDA();
  const Device last(kCUDA, cuda::device_count() - 1);
  cuda::set_device(last);
  EXPECT_EQ(cuda::process_device(), last);
  std::thread([&] {
    const Tensor pinned = ones({4}).pin_memory();  // in the process's device's context
    EXPECT_TRUE(pinned.is_pinned());
    { cuda::DeviceGuard guard(last); }
    EXPECT_EQ(ones({4}, TensorOptions().device(last)).sum().item<double>(), 4.0);
  }).join();
  expect_error_containing([&] { cuda::set_device(Device(kCUDA, cuda::device_count())); },
                          "set_device");
  cuda::set_device(kGpu);
}

TEST(CudaRuntime, DeviceErrorsNameTheDevicesAndTheOp) {
  ACCEL_REQUIRE_CUDA();
  const Device beyond(kCUDA, cuda::device_count());
  expect_error_containing([&] { zeros({2}, TensorOptions().device(beyond)); }, "out of range");
  const Tensor a = ones({3}), b = ones({3}, TensorOptions().device(kGpu));
  expect_error_containing([&] { a + b; }, "add: expected all tensors to be on the same device");
  expect_error_containing([&] { a + b; }, "cpu and cuda:0");
  expect_error_containing([&] { matmul(b.reshape({1, 3}), a.reshape({3, 1})); }, "cuda:0 and cpu");
}

TEST(CudaRuntime, ModulesMoveInPlaceAndTrain) {
  ACCEL_REQUIRE_CUDA();
  manual_seed(0);
  nn::Sequential model{nn::Linear(4, 8), nn::BatchNorm1d(8), nn::ReLU(), nn::Linear(8, 1)};
  optim::SGD optimizer(model->parameters(), optim::SGDOptions(0.1).momentum(0.9));
  model->to(kGpu);
  for (const Tensor& p : model->parameters()) EXPECT_TRUE(p.is_cuda());
  for (const Tensor& b : model->buffers()) EXPECT_TRUE(b.is_cuda());
  const Tensor x = randn({16, 4}).to(kGpu), y = randn({16, 1}).to(kGpu);
  double first = 0, last = 0;
  for (int step = 0; step < 20; ++step) {
    optimizer.zero_grad();
    const Tensor loss = nn::functional::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    (step == 0 ? first : last) = loss.item<double>();
  }
  EXPECT_LT(last, first);
}

TEST(CudaRuntime, ItemAndPrintingReadTheDevice) {
  ACCEL_REQUIRE_CUDA();
  const Tensor t = full({2, 2}, 1.5, TensorOptions().device(kGpu));
  EXPECT_EQ(t.sum().item<double>(), 6.0);
  std::ostringstream printed;
  printed << t;
  EXPECT_NE(printed.str().find("1.5"), std::string::npos) << printed.str();
  EXPECT_NE(printed.str().find("CUDAFloatType{2,2}"), std::string::npos) << printed.str();
}

}  // namespace
}  // namespace accel
