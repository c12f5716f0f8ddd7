// The caching allocator on a real GPU: freed tensors' memory is reused without new cudaMalloc
// calls, an impossible request is a clear error after which the allocator still works,
// empty_cache gives memory back, blocks used by a side stream wait for it, and pinned host
// memory works. The logic itself is tested everywhere on a fake device
// (tests/core/caching_allocator_test.cpp); these tests skip themselves without a GPU.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "accel/accel.h"
#include "support/cuda_test.h"
#include "support/expect_error.h"

namespace accel {
namespace {

const TensorOptions kOnGpu = TensorOptions(kFloat32).device(Device(kCUDA));

// Caching on for the test's duration (sanitizer builds turn it off).
class CacheEnabled {
 public:
  CacheEnabled() : previous_(allocator_cache_enabled()) { set_allocator_cache_enabled(true); }
  ~CacheEnabled() { set_allocator_cache_enabled(previous_); }
  CacheEnabled(const CacheEnabled&) = delete;
  CacheEnabled& operator=(const CacheEnabled&) = delete;

 private:
  bool previous_;
};

TEST(CudaAllocator, FreedTensorsAreReused) {
  ACCEL_REQUIRE_CUDA();
  CacheEnabled cache;
  Allocator& allocator = allocator_for(Device(kCUDA));
  auto round = [] {
    for (int64_t n : {1, 1000, 300'000, 5'000'000}) {
      Tensor t = empty({n}, kOnGpu);
      EXPECT_TRUE(t.device().is_cuda());
    }
  };
  round();
  const AllocatorStats before = allocator.stats();
  round();
  const AllocatorStats after = allocator.stats();
  EXPECT_EQ(after.num_system_allocations, before.num_system_allocations);
  EXPECT_EQ(after.num_allocations, before.num_allocations + 4);
  EXPECT_EQ(after.num_cache_hits, before.num_cache_hits + 4);
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
}

TEST(CudaAllocator, OutOfMemoryIsAnErrorAndTheAllocatorRecovers) {
  ACCEL_REQUIRE_CUDA();
  CacheEnabled cache;
  Allocator& allocator = allocator_for(Device(kCUDA));
  const int64_t allocated = allocator.stats().allocated_bytes;
  const std::string message =
      testing::error_of([] { (void)empty({int64_t{1} << 48}, kOnGpu); });  // 1 PiB
  EXPECT_NE(message.find("out of memory on cuda:0 allocating 1125899906842624 bytes (1.00 PiB)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("reserved"), std::string::npos) << message;
  EXPECT_EQ(allocator.stats().allocated_bytes, allocated);

  const Tensor on_gpu = full({1024}, 2.0).to(Device(kCUDA));
  EXPECT_GT(allocator.stats().allocated_bytes, allocated);
  EXPECT_FLOAT_EQ(on_gpu.to(Device(kCPU)).sum().item<float>(), 2048.0f);
}

TEST(CudaAllocator, EmptyCacheLowersReservedBytes) {
  ACCEL_REQUIRE_CUDA();
  CacheEnabled cache;
  Allocator& allocator = allocator_for(Device(kCUDA));
  const int64_t bytes = int64_t{64} << 20;
  { Tensor t = empty({bytes / 4}, kOnGpu); }
  const AllocatorStats cached = allocator.stats();
  EXPECT_GE(cached.cached_bytes, bytes);
  allocator.empty_cache();
  const AllocatorStats emptied = allocator.stats();
  EXPECT_LE(emptied.reserved_bytes, cached.reserved_bytes - bytes);
  EXPECT_GT(emptied.num_system_frees, cached.num_system_frees);
}

TEST(CudaAllocator, BlocksUsedByAnotherStreamWaitForIt) {
  ACCEL_REQUIRE_CUDA();
  CacheEnabled cache;
  Allocator& allocator = allocator_for(Device(kCUDA));
  // A stream of its own: no other test's blocks in its pool compete for the best fit.
  const Stream own = cuda::stream_from_pool(Device(kCUDA));
  const Stream side = cuda::stream_from_pool(Device(kCUDA));
  ASSERT_NE(own, side);
  void* block = allocator.allocate(4096, own);
  {  // milliseconds of work on the side stream (20 GB written), still running at the free
    StreamGuard on_side(side);
    Tensor busy = empty({int64_t{1} << 28}, kOnGpu);
    for (int i = 0; i < 20; ++i) busy.fill_(i);
  }
  allocator.record_stream(block, side);
  allocator.deallocate(block, 4096, own);
  void* while_busy = allocator.allocate(4096, own);
  EXPECT_NE(while_busy, block) << "reused before the side stream's work was done";
  side.synchronize();  // the side stream's event is complete: the block may be reused
  void* reused = allocator.allocate(4096, own);
  EXPECT_EQ(reused, block);
  allocator.deallocate(reused, 4096, own);
  allocator.deallocate(while_busy, 4096, own);
}

TEST(CudaAllocator, PinnedHostMemoryWorks) {
  ACCEL_REQUIRE_CUDA();
  CacheEnabled cache;
  Allocator& pinned = pinned_host_allocator();
  EXPECT_TRUE(pinned.device().is_cpu());
  const Stream host = current_stream(Device(kCPU));
  void* raw = pinned.allocate(1 << 20, host);
  ASSERT_NE(raw, nullptr);
  std::memset(raw, 7, 1 << 20);
  pinned.deallocate(raw, 1 << 20, host);

  Tensor source = full({4096}, 3.0, TensorOptions(kFloat32).pinned_memory(true));
  EXPECT_TRUE(source.is_pinned());
  const Tensor on_gpu = source.to(Device(kCUDA), /*non_blocking=*/true);
  EXPECT_FLOAT_EQ(on_gpu.to(Device(kCPU)).sum().item<float>(), 3.0f * 4096);
  EXPECT_GT(pinned.stats().allocated_bytes, 0);
}

}  // namespace
}  // namespace accel
