// The caching allocator's rules, checked on a fake device whose capacity and event completion
// the tests control: rounding and pools, reuse, splitting and merging, best fit, streams,
// deferred frees, out of memory, misuse, the bypass mode, and (AllocatorThreads, run under
// ThreadSanitizer in CI) concurrent use.
#include "accel/core/caching_allocator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "accel/base/error.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using testing::error_of;
using testing::expect_error_containing;

// Signed, as the statistics are.
constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * kKiB;
constexpr int64_t kSmallSegment = 2 * kMiB;
const Device kGpu(kCUDA, 0);

Stream stream(uintptr_t handle) { return Stream(kGpu, reinterpret_cast<void*>(handle)); }
const Stream kDefault = stream(0);
const Stream kSide = stream(1);
const Stream kCopy = stream(2);

// What the fake device has handed out. Shared by the fake, which the allocator owns, and the
// test, which may outlive the allocator.
struct Ledger {
  struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
  };
  struct FakeEvent {
    Stream stream;
    bool completed = false;
  };

  explicit Ledger(size_t capacity) : capacity(capacity) {}

  int64_t live_bytes() {
    std::lock_guard lock(mutex);
    return static_cast<int64_t>(in_use);
  }
  size_t live_events() {
    std::lock_guard lock(mutex);
    return events.size();
  }
  std::vector<size_t> allocated_sizes() {
    std::lock_guard lock(mutex);
    return allocations;
  }
  std::vector<size_t> released_sizes() {
    std::lock_guard lock(mutex);
    return releases;
  }
  int failed_allocations() {
    std::lock_guard lock(mutex);
    return failures;
  }
  // As the GPU would, finishing the work the events on `on` mark (on every stream if none).
  void complete_events(const Stream* on = nullptr) {
    std::lock_guard lock(mutex);
    for (auto& [id, event] : events) {
      if (on == nullptr || event.stream == *on) event.completed = true;
    }
  }

  // As a GPU after a kernel fault: every later runtime call fails.
  void fail_device() {
    std::lock_guard lock(mutex);
    failed = true;
  }
  void throw_if_failed() const {
    if (failed) fail("fake device", "the device has failed");
  }

  const size_t capacity;
  std::mutex mutex;
  bool failed = false;
  // Real host memory behind every segment, so that a block handed to two owners at once shows
  // up as two threads writing the same bytes.
  std::map<uintptr_t, std::pair<std::unique_ptr<std::byte, FreeDeleter>, size_t>> segments;
  size_t in_use = 0;
  std::vector<size_t> allocations;  // segment sizes handed out, in order
  std::vector<size_t> releases;     // segment sizes given back, in order
  int failures = 0;                 // allocations refused for want of capacity
  std::map<uintptr_t, FakeEvent> events;
  uintptr_t next_event = 1;
};

class FakeDeviceMemory final : public DeviceMemory {
 public:
  explicit FakeDeviceMemory(std::shared_ptr<Ledger> ledger) : ledger_(std::move(ledger)) {}

  void* allocate(size_t bytes) override {
    std::lock_guard lock(ledger_->mutex);
    if (ledger_->in_use + bytes > ledger_->capacity) {
      ledger_->failures++;
      return nullptr;
    }
    std::unique_ptr<std::byte, Ledger::FreeDeleter> memory(
        static_cast<std::byte*>(std::aligned_alloc(256, bytes)));
    EXPECT_NE(memory, nullptr) << "the host cannot back a fake segment of " << bytes << " bytes";
    const auto address = reinterpret_cast<uintptr_t>(memory.get());
    ledger_->segments.emplace(address, std::pair(std::move(memory), bytes));
    ledger_->in_use += bytes;
    ledger_->allocations.push_back(bytes);
    return reinterpret_cast<void*>(address);
  }

  void release(void* ptr, size_t bytes) override {
    std::lock_guard lock(ledger_->mutex);
    ledger_->throw_if_failed();
    const auto it = ledger_->segments.find(reinterpret_cast<uintptr_t>(ptr));
    ASSERT_NE(it, ledger_->segments.end()) << "released a segment the device never gave out";
    EXPECT_EQ(it->second.second, bytes) << "released with another size than allocated";
    ledger_->in_use -= it->second.second;
    ledger_->releases.push_back(it->second.second);
    ledger_->segments.erase(it);
  }

  void* record_event(const Stream& stream) override {
    if (stream.device().is_cpu()) return nullptr;
    std::lock_guard lock(ledger_->mutex);
    ledger_->throw_if_failed();
    const uintptr_t id = ledger_->next_event++;
    ledger_->events.emplace(id, Ledger::FakeEvent{stream});
    return reinterpret_cast<void*>(id);
  }

  bool event_completed(void* event) override {
    std::lock_guard lock(ledger_->mutex);
    const auto it = ledger_->events.find(reinterpret_cast<uintptr_t>(event));
    EXPECT_NE(it, ledger_->events.end()) << "queried an event that does not exist";
    return it != ledger_->events.end() && it->second.completed;
  }

  void destroy_event(void* event) override {
    std::lock_guard lock(ledger_->mutex);
    EXPECT_EQ(ledger_->events.erase(reinterpret_cast<uintptr_t>(event)), 1u)
        << "destroyed an event that does not exist";
  }

 private:
  std::shared_ptr<Ledger> ledger_;
};

// Sets whether allocators cache for the test's duration (sanitizer builds turn caching off).
class CacheEnabled {
 public:
  explicit CacheEnabled(bool enabled) : previous_(allocator_cache_enabled()) {
    set_allocator_cache_enabled(enabled);
  }
  ~CacheEnabled() { set_allocator_cache_enabled(previous_); }
  CacheEnabled(const CacheEnabled&) = delete;
  CacheEnabled& operator=(const CacheEnabled&) = delete;

 private:
  bool previous_;
};

// A caching allocator over a fake device of `capacity` bytes, caching for the rig's lifetime.
struct Rig {
  explicit Rig(size_t capacity = size_t{1} << 30)
      : ledger(std::make_shared<Ledger>(capacity)),
        allocator(kGpu, std::make_unique<FakeDeviceMemory>(ledger)) {}

  void* allocate(size_t nbytes, const Stream& on = kDefault) {
    return allocator.allocate(nbytes, on);
  }
  void deallocate(void* ptr) { allocator.deallocate(ptr, 0, kDefault); }
  AllocatorStats stats() const { return allocator.stats(); }

  // The byte statistics, and the reserved bytes agreeing with what the device has handed out.
  ::testing::AssertionResult bytes_are(int64_t allocated, int64_t reserved, int64_t cached) {
    const AllocatorStats s = stats();
    const int64_t held = ledger->live_bytes();
    if (s.allocated_bytes == allocated && s.reserved_bytes == reserved &&
        s.cached_bytes == cached && held == reserved) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "allocated " << s.allocated_bytes << " (expected " << allocated << "), reserved "
           << s.reserved_bytes << " (expected " << reserved << "), cached " << s.cached_bytes
           << " (expected " << cached << "), the device holds " << held;
  }

  // Gives the cache back to the device: with every block freed, nothing may remain, neither on
  // the books nor on the device.
  ::testing::AssertionResult empty_cache_releases_everything() {
    allocator.empty_cache();
    return bytes_are(0, 0, 0);
  }

  CacheEnabled cache{true};  // declared first: caching is on before the allocator is built
  std::shared_ptr<Ledger> ledger;
  CachingAllocator allocator;
};

char* bytes(void* p) { return static_cast<char*>(p); }

TEST(CachingAllocator, RoundsRequestsAndChoosesPools) {
  Rig rig;
  void* tiny = rig.allocate(1);  // 512 B, carved from a 2 MiB segment of the small pool
  EXPECT_TRUE(rig.bytes_are(512, kSmallSegment, kSmallSegment - 512));
  void* ten = rig.allocate(10 * kMiB);    // 10 MiB and up: a segment of its own (2 MiB multiple)
  void* medium = rig.allocate(kMiB + 1);  // above 1 MiB: a 20 MiB segment of the large pool
  void* huge = rig.allocate(25 * kMiB + 1);
  EXPECT_EQ(rig.ledger->allocated_sizes(),
            (std::vector<size_t>{2 * kMiB, 10 * kMiB, 20 * kMiB, 26 * kMiB}));
  const int64_t medium_size = kMiB + 512;
  const int64_t huge_size = 25 * kMiB + 512;
  const int64_t allocated = 512 + 10 * kMiB + medium_size + huge_size;
  // The 26 MiB segment keeps its 1 MiB - 512 B remainder: too small to split in the large pool.
  EXPECT_TRUE(rig.bytes_are(allocated, 58 * kMiB, kSmallSegment - 512 + 20 * kMiB - medium_size));
  for (void* p : {tiny, ten, medium, huge}) EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);

  // 1 MiB is still a small request: it fits in the small segment's remainder.
  void* mib = rig.allocate(kMiB);
  EXPECT_EQ(mib, bytes(tiny) + 512);
  // A small request never takes a freed large block.
  rig.deallocate(medium);
  void* small = rig.allocate(512);
  EXPECT_EQ(small, bytes(mib) + kMiB);
  EXPECT_EQ(rig.stats().num_system_allocations, 4);
  EXPECT_EQ(rig.stats().num_cache_hits, 2);

  for (void* p : {tiny, ten, huge, mib, small}) rig.deallocate(p);
  EXPECT_TRUE(rig.bytes_are(0, 58 * kMiB, 58 * kMiB));
  EXPECT_TRUE(rig.empty_cache_releases_everything());
  EXPECT_EQ(rig.stats().num_system_frees, 4);
}

TEST(CachingAllocator, ReusesAFreedBlock) {
  Rig rig;
  void* first = rig.allocate(3000);
  rig.deallocate(first);
  EXPECT_TRUE(rig.bytes_are(0, kSmallSegment, kSmallSegment));
  void* second = rig.allocate(3000);
  EXPECT_EQ(second, first);
  EXPECT_TRUE(rig.bytes_are(3072, kSmallSegment, kSmallSegment - 3072));
  const AllocatorStats s = rig.stats();
  EXPECT_EQ(s.num_allocations, 2);
  EXPECT_EQ(s.num_cache_hits, 1);
  EXPECT_EQ(s.num_system_allocations, 1);
  EXPECT_EQ(s.num_system_frees, 0);
  rig.deallocate(second);
}

TEST(CachingAllocator, SplitsASegmentAndMergesItBack) {
  Rig rig;
  std::vector<void*> quarters;
  for (int i = 0; i < 4; ++i) quarters.push_back(rig.allocate(512 * kKiB));
  for (int i = 1; i < 4; ++i) EXPECT_EQ(quarters[i], bytes(quarters[0]) + i * 512 * kKiB);
  EXPECT_TRUE(rig.bytes_are(2 * kMiB, kSmallSegment, 0));  // the last took the exact remainder
  EXPECT_EQ(rig.stats().num_system_allocations, 1);

  // Freed neighbours merge (into the one after, then the one before): a 1 MiB request fits.
  rig.deallocate(quarters[2]);
  rig.deallocate(quarters[1]);
  EXPECT_TRUE(rig.bytes_are(kMiB, kSmallSegment, kMiB));
  void* middle = rig.allocate(kMiB);
  EXPECT_EQ(middle, quarters[1]);
  rig.deallocate(middle);

  rig.deallocate(quarters[3]);
  rig.deallocate(quarters[0]);
  EXPECT_TRUE(rig.bytes_are(0, kSmallSegment, kSmallSegment));
  // One free block spanning the segment: it goes back as one.
  rig.allocator.empty_cache();
  EXPECT_EQ(rig.ledger->released_sizes(), std::vector<size_t>{2 * kMiB});
  EXPECT_TRUE(rig.bytes_are(0, 0, 0));
  EXPECT_EQ(rig.stats().num_system_frees, 1);
}

TEST(CachingAllocator, TakesTheBestFittingBlock) {
  Rig rig;
  // Free blocks of 256, 128 and 512 KiB kept apart by blocks in use, and an 896 KiB tail.
  std::vector<void*> separators;
  std::vector<void*> holes;
  for (size_t size : {256 * kKiB, 128 * kKiB, 512 * kKiB}) {
    separators.push_back(rig.allocate(64 * kKiB));
    holes.push_back(rig.allocate(size));
  }
  separators.push_back(rig.allocate(64 * kKiB));
  for (void* hole : holes) rig.deallocate(hole);
  EXPECT_TRUE(rig.bytes_are(256 * kKiB, kSmallSegment, kSmallSegment - 256 * kKiB));

  void* for_100k = rig.allocate(100 * kKiB);
  EXPECT_EQ(for_100k, holes[1]);
  void* for_200k = rig.allocate(200 * kKiB);
  EXPECT_EQ(for_200k, holes[0]);
  void* for_400k = rig.allocate(400 * kKiB);
  EXPECT_EQ(for_400k, holes[2]);
  void* for_600k = rig.allocate(600 * kKiB);
  EXPECT_EQ(for_600k, bytes(separators.back()) + 64 * kKiB);
  EXPECT_EQ(rig.stats().num_system_allocations, 1);

  for (void* p : {for_100k, for_200k, for_400k, for_600k}) rig.deallocate(p);
  for (void* p : separators) rig.deallocate(p);
  EXPECT_TRUE(rig.empty_cache_releases_everything());
}

TEST(CachingAllocator, SplitsOnlyRemaindersWorthKeeping) {
  Rig rig;
  // Large pool: a 6 MiB request splits its 20 MiB segment; 19.5 MiB leaves 0.5 MiB unsplit.
  void* six = rig.allocate(6 * kMiB);
  EXPECT_TRUE(rig.bytes_are(6 * kMiB, 20 * kMiB, 14 * kMiB));
  rig.deallocate(six);
  void* most = rig.allocate(19 * kMiB + 512 * kKiB);
  EXPECT_EQ(most, six);
  EXPECT_TRUE(rig.bytes_are(19 * kMiB + 512 * kKiB, 20 * kMiB, 0));
  rig.deallocate(most);
  EXPECT_TRUE(rig.bytes_are(0, 20 * kMiB, 20 * kMiB));

  // Small pool: even 512 bytes are split off.
  void* block = rig.allocate(1536);
  void* separator = rig.allocate(512);
  rig.deallocate(block);
  void* kib = rig.allocate(1024);
  EXPECT_EQ(kib, block);
  EXPECT_EQ(rig.stats().cached_bytes, 20 * kMiB + (kSmallSegment - 2048) + 512);
  rig.deallocate(kib);
  rig.deallocate(separator);
  EXPECT_TRUE(rig.empty_cache_releases_everything());
}

TEST(CachingAllocator, KeepsStreamsApart) {
  Rig rig;
  void* on_side = rig.allocate(4096, kSide);
  rig.deallocate(on_side);
  void* on_copy = rig.allocate(4096, kCopy);
  EXPECT_NE(on_copy, on_side);
  EXPECT_EQ(rig.stats().num_system_allocations, 2);
  void* on_side_again = rig.allocate(4096, kSide);
  EXPECT_EQ(on_side_again, on_side);
  EXPECT_EQ(rig.stats().num_system_allocations, 2);
  rig.deallocate(on_copy);
  rig.deallocate(on_side_again);
  EXPECT_TRUE(rig.empty_cache_releases_everything());
}

TEST(CachingAllocator, RecordStreamDefersReuseUntilTheEventsComplete) {
  Rig rig;
  void* block = rig.allocate(4096);
  rig.allocator.record_stream(block, kSide);
  rig.allocator.record_stream(block, kSide);     // once is enough
  rig.allocator.record_stream(block, kDefault);  // its own stream orders itself
  rig.deallocate(block);
  EXPECT_EQ(rig.ledger->live_events(), 1u);
  // Neither in use nor cached while the side stream may still read it.
  EXPECT_TRUE(rig.bytes_are(0, kSmallSegment, kSmallSegment - 4096));
  void* other = rig.allocate(4096);
  EXPECT_NE(other, block);

  rig.ledger->complete_events(&kSide);
  void* reused = rig.allocate(4096);
  EXPECT_EQ(reused, block);
  EXPECT_EQ(rig.ledger->live_events(), 0u);

  // Used by two other streams: reused once both are past it.
  rig.allocator.record_stream(reused, kSide);
  rig.allocator.record_stream(reused, kCopy);
  rig.deallocate(reused);
  EXPECT_EQ(rig.ledger->live_events(), 2u);
  rig.ledger->complete_events(&kSide);
  void* while_copying = rig.allocate(4096);
  EXPECT_NE(while_copying, block);
  rig.ledger->complete_events(&kCopy);
  void* after_copy = rig.allocate(4096);
  EXPECT_EQ(after_copy, block);
  EXPECT_EQ(rig.ledger->live_events(), 0u);
  EXPECT_EQ(rig.stats().num_system_allocations, 1);

  for (void* p : {other, while_copying, after_copy}) rig.deallocate(p);
  EXPECT_TRUE(rig.empty_cache_releases_everything());
}

TEST(CachingAllocator, CpuStreamsNeedNoEvent) {
  Rig rig;
  void* block = rig.allocate(4096);
  rig.allocator.record_stream(block, Stream(Device(kCPU), nullptr));
  rig.deallocate(block);
  EXPECT_EQ(rig.ledger->live_events(), 0u);
  EXPECT_TRUE(rig.bytes_are(0, kSmallSegment, kSmallSegment));
  EXPECT_TRUE(rig.empty_cache_releases_everything());
}

TEST(CachingAllocator, EmptyCacheKeepsBlocksAwaitingEvents) {
  Rig rig;
  void* block = rig.allocate(4096);
  rig.allocator.record_stream(block, kSide);
  rig.deallocate(block);
  rig.allocator.empty_cache();
  EXPECT_TRUE(rig.bytes_are(0, kSmallSegment, kSmallSegment - 4096));
  EXPECT_EQ(rig.stats().num_system_frees, 0);

  rig.ledger->complete_events();
  EXPECT_TRUE(rig.empty_cache_releases_everything());
  EXPECT_EQ(rig.stats().num_system_frees, 1);
  EXPECT_EQ(rig.ledger->live_events(), 0u);
}

TEST(CachingAllocator, OutOfMemoryReleasesTheCacheAndRetries) {
  Rig rig(24 * kMiB);
  void* six = rig.allocate(6 * kMiB);  // a 20 MiB segment
  void* small = rig.allocate(4096);    // a 2 MiB segment
  rig.deallocate(six);
  void* big = rig.allocate(22 * kMiB);  // only fits once the 20 MiB segment is given back
  EXPECT_NE(big, nullptr);
  EXPECT_EQ(rig.ledger->failed_allocations(), 1);
  EXPECT_EQ(rig.ledger->released_sizes(), std::vector<size_t>{20 * kMiB});
  EXPECT_TRUE(rig.bytes_are(22 * kMiB + 4096, 24 * kMiB, kSmallSegment - 4096));
  const AllocatorStats s = rig.stats();
  EXPECT_EQ(s.num_system_allocations, 3);
  EXPECT_EQ(s.num_system_frees, 1);
  rig.deallocate(big);
  rig.deallocate(small);
  EXPECT_TRUE(rig.empty_cache_releases_everything());
}

TEST(CachingAllocator, OutOfMemoryThrowsAndLeavesTheBooksIntact) {
  Rig rig(24 * kMiB);
  void* live = rig.allocate(4096);
  rig.deallocate(rig.allocate(6 * kMiB));  // a cached 20 MiB segment
  const std::string message = error_of([&] { rig.allocate(100 * kMiB); });
  EXPECT_NE(message.find("allocate: out of memory on cuda:0 allocating 104857600 bytes (100.00 "
                         "MiB): 4.00 KiB allocated, 2.00 MiB reserved"),
            std::string::npos)
      << message;
  EXPECT_EQ(rig.ledger->failed_allocations(), 2);  // before and after giving back the cache
  EXPECT_TRUE(rig.bytes_are(4096, kSmallSegment, kSmallSegment - 4096));
  AllocatorStats s = rig.stats();
  EXPECT_EQ(s.num_allocations, 2);
  EXPECT_EQ(s.num_system_allocations, 2);
  EXPECT_EQ(s.num_system_frees, 1);

  // Requests no device could hold are refused before any rounding could overflow.
  expect_error_containing([&] { rig.allocate(size_t{1} << 50); }, "(1.00 PiB)");
  expect_error_containing([&] { rig.allocate(SIZE_MAX); }, "out of memory on cuda:0");

  // The allocator goes on working.
  void* again = rig.allocate(6 * kMiB);
  EXPECT_TRUE(rig.bytes_are(6 * kMiB + 4096, 22 * kMiB, kSmallSegment - 4096 + 14 * kMiB));
  rig.deallocate(again);
  rig.deallocate(live);
  EXPECT_TRUE(rig.empty_cache_releases_everything());
}

TEST(CachingAllocator, MisuseIsAnError) {
  Rig rig;
  EXPECT_EQ(rig.allocate(0), nullptr);
  EXPECT_NO_THROW(rig.deallocate(nullptr));
  EXPECT_EQ(rig.stats().num_allocations, 0);

  void* block = rig.allocate(4096);
  int foreign = 0;
  expect_error_containing([&] { rig.deallocate(&foreign); },
                          "deallocate: pointer " + fmt::format("{}", fmt::ptr(&foreign)) +
                              " was not allocated by the caching allocator of cuda:0");
  expect_error_containing([&] { rig.deallocate(bytes(block) + 512); }, "was not allocated");
  expect_error_containing([&] { rig.allocator.record_stream(&foreign, kSide); },
                          "record_stream: pointer");
  rig.deallocate(block);
  expect_error_containing([&] { rig.deallocate(block); }, "was not allocated");
  expect_error_containing([&] { rig.allocator.record_stream(block, kSide); },
                          "or was freed already");
  EXPECT_TRUE(rig.bytes_are(0, kSmallSegment, kSmallSegment));
  EXPECT_EQ(rig.stats().num_allocations, 1);
  EXPECT_TRUE(rig.empty_cache_releases_everything());
}

// Tensors free memory in destructors: a failed device must cost memory, not a throw there.
TEST(CachingAllocator, AFailedDeviceCostsMemoryInsteadOfThrowingFromAFree) {
  Rig rig;
  void* shared = rig.allocate(4096);
  rig.allocator.record_stream(shared, kSide);
  CacheEnabled bypass(false);  // so that a free gives its segment straight back to the device
  void* plain = rig.allocate(8192);
  rig.ledger->fail_device();
  EXPECT_NO_THROW(rig.deallocate(shared));  // its event on kSide cannot be recorded
  EXPECT_NO_THROW(rig.deallocate(plain));   // the device refuses its segment back
  EXPECT_EQ(rig.stats().allocated_bytes, 4096) << "the block whose use is unknown stays reserved";
  int foreign = 0;
  expect_error_containing([&] { rig.deallocate(&foreign); }, "was not allocated");  // misuse
}

TEST(CachingAllocator, DisabledCacheReturnsMemoryAtOnce) {
  Rig rig;
  rig.deallocate(rig.allocate(4096));  // cached while the cache is on
  EXPECT_TRUE(rig.bytes_are(0, kSmallSegment, kSmallSegment));

  CacheEnabled bypass(false);
  void* block = rig.allocate(1000);  // what was cached goes back; a segment of its own size
  EXPECT_EQ(rig.ledger->allocated_sizes().back(), 1024u);
  EXPECT_EQ(rig.ledger->released_sizes(), std::vector<size_t>{2 * kMiB});
  EXPECT_TRUE(rig.bytes_are(1024, 1024, 0));
  rig.deallocate(block);
  EXPECT_EQ(rig.ledger->released_sizes().back(), 1024u);
  EXPECT_TRUE(rig.bytes_are(0, 0, 0));

  // A block other streams use goes back once they are past it.
  void* shared = rig.allocate(4096);
  rig.allocator.record_stream(shared, kSide);
  rig.deallocate(shared);
  EXPECT_TRUE(rig.bytes_are(0, 4096, 0));
  rig.ledger->complete_events();
  EXPECT_TRUE(rig.empty_cache_releases_everything());
  const AllocatorStats s = rig.stats();
  EXPECT_EQ(s.num_cache_hits, 0);
  EXPECT_EQ(s.num_system_allocations, s.num_system_frees);
}

TEST(CachingAllocator, TracksThePeak) {
  Rig rig;
  void* a = rig.allocate(kMiB);
  void* b = rig.allocate(3 * kMiB);
  rig.deallocate(b);
  EXPECT_EQ(rig.stats().peak_allocated_bytes, 4 * kMiB);
  rig.allocator.reset_peak_stats();
  EXPECT_EQ(rig.stats().peak_allocated_bytes, kMiB);
  rig.deallocate(a);
  EXPECT_EQ(rig.stats().peak_allocated_bytes, kMiB);
}

TEST(CachingAllocator, DestructorReleasesOnlyFreeSegments) {
  CacheEnabled cache(true);
  auto ledger = std::make_shared<Ledger>(size_t{1} << 30);
  {
    CachingAllocator allocator(kGpu, std::make_unique<FakeDeviceMemory>(ledger));
    allocator.allocate(4096, kDefault);  // still in use at exit: 2 MiB segment kept
    allocator.deallocate(allocator.allocate(6 * kMiB, kDefault), 0, kDefault);
    void* awaiting = allocator.allocate(25 * kMiB, kDefault);
    allocator.record_stream(awaiting, kSide);
    allocator.deallocate(awaiting, 0, kDefault);  // the side stream may still use its segment
  }
  EXPECT_EQ(ledger->released_sizes(), std::vector<size_t>{20 * kMiB});
  EXPECT_EQ(ledger->live_bytes(), static_cast<int64_t>(2 * kMiB + 26 * kMiB));
  EXPECT_EQ(ledger->live_events(), 0u);
}

// Loader-style threads sharing two streams allocate, write, hand blocks to each other, record
// side streams and free, while another thread completes events and reads the statistics. A
// block handed to two owners at once shows as a wrong tag (and a data race under TSan).
TEST(AllocatorThreads, CachingAllocatorUnderContention) {
  Rig rig(size_t{16} << 30);
  struct Held {
    unsigned char* ptr;
    size_t size;
    unsigned char tag;
  };
  std::mutex mailbox_mutex;
  std::vector<Held> mailbox;
  auto release = [&](const Held& h) {
    EXPECT_EQ(h.ptr[0], h.tag);
    EXPECT_EQ(h.ptr[h.size - 1], h.tag);
    rig.deallocate(h.ptr);
  };

  std::atomic<bool> done{false};
  std::thread gpu([&] {
    while (!done.load()) {
      rig.ledger->complete_events();
      EXPECT_GE(rig.stats().reserved_bytes, 0);
      std::this_thread::yield();
    }
  });

  constexpr int kThreads = 4;
  constexpr int kSteps = 2000;
  constexpr size_t kSizes[] = {512, 3000, 64 * kKiB, 700 * kKiB, 1536 * kKiB, 6 * kMiB, 12 * kMiB};
  std::vector<std::thread> workers;
  for (int w = 0; w < kThreads; ++w) {
    workers.emplace_back([&, w] {
      const Stream own = stream(1 + static_cast<uintptr_t>(w % 2));
      const Stream copy = stream(10 + static_cast<uintptr_t>(w));
      std::minstd_rand random(static_cast<unsigned>(w + 1));
      std::vector<Held> mine;
      for (int step = 0; step < kSteps; ++step) {
        const size_t size = kSizes[random() % std::size(kSizes)];
        auto* ptr = static_cast<unsigned char*>(rig.allocate(size, own));
        const auto tag = static_cast<unsigned char>(w * 64 + step);
        ptr[0] = tag;
        ptr[size - 1] = tag;
        mine.push_back({ptr, size, tag});
        if (mine.size() > 6) {
          const Held oldest = mine.front();
          mine.erase(mine.begin());
          if (random() % 3 == 0) rig.allocator.record_stream(oldest.ptr, copy);
          if (random() % 4 == 0) {
            std::lock_guard lock(mailbox_mutex);
            mailbox.push_back(oldest);
          } else {
            release(oldest);
          }
        }
        if (step % 16 == 0) {
          std::vector<Held> delivered;
          {
            std::lock_guard lock(mailbox_mutex);
            delivered.swap(mailbox);
          }
          for (const Held& h : delivered) release(h);
        }
        if (step % 100 == 0) rig.allocator.empty_cache();
      }
      for (const Held& h : mine) release(h);
    });
  }
  for (std::thread& t : workers) t.join();
  for (const Held& h : mailbox) release(h);
  done.store(true);
  gpu.join();

  rig.ledger->complete_events();
  EXPECT_TRUE(rig.empty_cache_releases_everything());
  EXPECT_EQ(rig.ledger->live_events(), 0u);
  const AllocatorStats s = rig.stats();
  EXPECT_EQ(s.num_allocations, kThreads * kSteps);
  EXPECT_GT(s.num_cache_hits, 0);
  EXPECT_EQ(s.num_system_allocations, s.num_system_frees);
}

}  // namespace
}  // namespace accel
