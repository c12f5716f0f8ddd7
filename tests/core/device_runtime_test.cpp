// The device runtime as a machine without a GPU sees it: clear errors for every use of a CUDA
// device (saying whether the backend is missing or the device), CPU streams and events that
// are trivially complete, pinned host memory, and the Accelerator's choice of device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "accel/accel.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using testing::expect_error_containing;

// Why a CUDA device is unusable here, as the runtime words it.
std::string unavailable_reason() {
  return cuda::is_compiled() ? "no CUDA device on this machine" : "this build of accel has no CUDA";
}

// Sets an environment variable for the guard's lifetime.
class EnvironmentGuard {
 public:
  EnvironmentGuard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) previous_ = old;
    setenv(name, value, 1);
  }
  ~EnvironmentGuard() {
    if (previous_) {
      setenv(name_, previous_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> previous_;
};

TEST(DeviceRuntime, EveryUseOfAnAbsentCudaDeviceSaysWhy) {
  if (cuda::is_available()) GTEST_SKIP() << "a CUDA device is present";
  const std::string why = unavailable_reason();
  const Device gpu(kCUDA, 0);
  expect_error_containing([&] { ones({3}).to(gpu); }, "to: device cuda:0 is not available");
  expect_error_containing([&] { ones({3}).to(gpu); }, why);
  expect_error_containing([&] { ones({3}).cuda(); }, why);
  expect_error_containing([&] { randn({3}, TensorOptions().device(gpu)); }, why);
  expect_error_containing([&] { cuda::DeviceGuard guard(gpu); }, why);
  expect_error_containing([&] { cuda::set_device(gpu); }, "set_device: device cuda:0");
  expect_error_containing([&] { cuda::synchronize(gpu); }, why);
  expect_error_containing([&] { cuda::stream_from_pool(gpu); }, why);
  expect_error_containing([&] { allocator_for(gpu); }, why);
  nn::Linear model(2, 2);
  expect_error_containing([&] { model->to(gpu); }, why);
  expect_error_containing([&] { Accelerator(AcceleratorConfig{.device = gpu}); }, why);
}

TEST(DeviceRuntime, CpuStreamsAndEventsAreAlwaysComplete) {
  const Stream cpu = current_stream(Device(kCPU));
  EXPECT_NO_THROW(cpu.synchronize());
  Event event;
  EXPECT_TRUE(event.query());
  event.record(cpu);
  EXPECT_TRUE(event.query());
  EXPECT_NO_THROW(event.block(cpu));
  EXPECT_NO_THROW(event.synchronize());
  Event moved = std::move(event);
  EXPECT_TRUE(moved.query());
  { cuda::DeviceGuard nothing_to_do{Device(kCPU)}; }
}

TEST(DeviceRuntime, CurrentStreamsAreKeptPerDevice) {
  const Stream side0(Device(kCUDA, 0), reinterpret_cast<void*>(0x10));
  const Stream side1(Device(kCUDA, 1), reinterpret_cast<void*>(0x20));
  {
    StreamGuard guard0(side0);
    StreamGuard guard1(side1);
    EXPECT_EQ(current_stream(Device(kCUDA, 0)), side0);
    EXPECT_EQ(current_stream(Device(kCUDA, 1)), side1);
  }
  EXPECT_EQ(current_stream(Device(kCUDA, 0)).handle(), nullptr);
  EXPECT_EQ(current_stream(Device(kCUDA, 1)).handle(), nullptr);
}

TEST(DeviceRuntime, PinnedMemoryHoldsTheSameValues) {
  const Tensor values = arange(12, kFloat32).reshape({3, 4});
  EXPECT_FALSE(values.is_pinned());
  const Tensor pinned = values.pin_memory();
  EXPECT_TRUE(pinned.is_pinned());
  EXPECT_TRUE(pinned.is_cpu());
  EXPECT_TRUE(equal(pinned, values));
  EXPECT_TRUE(pinned.pin_memory().is_same(pinned));
  EXPECT_TRUE(empty({5}, TensorOptions().pinned_memory(true)).is_pinned());
  expect_error_containing(
      [] { empty({5}, TensorOptions().device(Device(kCUDA)).pinned_memory(true)); },
      "only CPU tensors can be pinned");
}

TEST(DeviceRuntime, TheAcceleratorPicksTheDeviceFromTheEnvironment) {
  EXPECT_EQ(pick_device(Device(kCPU), 0), Device(kCPU));
  {
    EnvironmentGuard cpu("ACCEL_DEVICE", "cpu");
    EXPECT_EQ(pick_device(std::nullopt, 0), Device(kCPU));
  }
  {
    EnvironmentGuard bad("ACCEL_DEVICE", "tpu");
    expect_error_containing([] { pick_device(std::nullopt, 0); },
                            "ACCEL_DEVICE must be one of auto, cpu, cuda; got 'tpu'");
  }
  const Device automatic = pick_device(std::nullopt, 0);
  EXPECT_EQ(automatic, cuda::is_available() ? Device(kCUDA, 0) : Device(kCPU));
  if (!cuda::is_available()) {
    EnvironmentGuard cuda("ACCEL_DEVICE", "cuda");
    expect_error_containing([] { pick_device(std::nullopt, 0); }, unavailable_reason());
  }
}

}  // namespace
}  // namespace accel
