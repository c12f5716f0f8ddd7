// The allocator and autograd under several threads: loader-style workers allocate tensors
// that the main thread frees, and threads build and run graphs at once. Run under
// ThreadSanitizer in CI; here it checks the books balance afterwards.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "accel/accel.h"

namespace accel {
namespace {

TEST(AllocatorThreads, CrossThreadAllocateAndFree) {
  Allocator& allocator = allocator_for(Device(kCPU));
  const int64_t before = allocator.stats().allocated_bytes;
  constexpr int kThreads = 4;
  constexpr int kPerThread = 200;
  std::vector<std::vector<Tensor>> made(kThreads);
  {
    std::vector<std::thread> workers;
    for (int w = 0; w < kThreads; ++w) {
      workers.emplace_back([&, w] {
        SerialOpsGuard serial;
        for (int i = 0; i < kPerThread; ++i) {
          made[w].push_back(full({(i % 7 + 1) * 100}, static_cast<double>(w)));
        }
      });
    }
    for (auto& t : workers) t.join();
  }
  for (int w = 0; w < kThreads; ++w) {
    ASSERT_EQ(made[w].size(), static_cast<size_t>(kPerThread));
    EXPECT_FLOAT_EQ(made[w].back()[0].item<float>(), static_cast<float>(w));
  }
  made.clear();  // freed on this thread
  EXPECT_EQ(allocator.stats().allocated_bytes, before);
}

TEST(AllocatorThreads, ConcurrentBackwardPasses) {
  constexpr int kThreads = 4;
  std::vector<double> results(kThreads);
  std::vector<std::thread> workers;
  for (int w = 0; w < kThreads; ++w) {
    workers.emplace_back([&, w] {
      Tensor x = full({16}, static_cast<double>(w + 1), kFloat64).requires_grad_();
      for (int i = 0; i < 50; ++i) {
        x.mutable_grad() = Tensor();
        ((x * x).sum() * 0.5).backward();
      }
      results[w] = x.grad()[0].item<double>();
    });
  }
  for (auto& t : workers) t.join();
  for (int w = 0; w < kThreads; ++w) EXPECT_DOUBLE_EQ(results[w], w + 1.0);
}

TEST(Streams, CurrentStreamAndGuard) {
  const Stream cpu = current_stream(Device(kCPU));
  EXPECT_TRUE(cpu.device().is_cpu());
  EXPECT_NO_THROW(cpu.synchronize());
  Event event;
  event.record(cpu);
  EXPECT_TRUE(event.query());
  EXPECT_NO_THROW(event.synchronize());
  const Stream custom(Device(kCUDA, 0), reinterpret_cast<void*>(0x1));
  {
    StreamGuard guard(custom);
    EXPECT_EQ(current_stream(Device(kCUDA, 0)), custom);
  }
  EXPECT_NE(current_stream(Device(kCUDA, 0)), custom);
}

}  // namespace
}  // namespace accel
