// CachingAllocator's bookkeeping: segments obtained from a DeviceMemory are carved into blocks
// that are handed out, split, merged and kept in per-size pools ordered by stream for reuse,
// with PyTorch's constants (caching_allocator.h lists the rules). No device call is made here
// except through DeviceMemory, so the whole of it runs on a fake device in the tests.
#include "accel/core/caching_allocator.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "accel/base/error.h"

namespace accel {

namespace {

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kRounding = 512;             // every block size is a multiple of this
constexpr size_t kSmallRequest = kMiB;        // requests up to this use the small pool...
constexpr size_t kSmallSegment = 2 * kMiB;    // ...which obtains segments of this size
constexpr size_t kMediumRequest = 10 * kMiB;  // requests below this share segments of...
constexpr size_t kMediumSegment = 20 * kMiB;
constexpr size_t kLargeRounding = 2 * kMiB;  // larger ones get their own, rounded to this
// No device has this much: a larger request is out of memory before its size could overflow
// the rounding.
constexpr size_t kMaxRequest = size_t{1} << 62;

size_t round_up(size_t n, size_t quantum) { return (n + quantum - 1) / quantum * quantum; }

size_t segment_size(size_t size) {
  if (size <= kSmallRequest) return kSmallSegment;
  if (size < kMediumRequest) return kMediumSegment;
  return round_up(size, kLargeRounding);
}

std::string human_bytes(double bytes) {
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double value = bytes;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{:.2f} {}", value, kUnits[unit]);
}

// A total order on streams, so that a pool holds each stream's blocks together.
auto stream_key(const Stream& stream) {
  return std::tuple(static_cast<int>(stream.device().type), static_cast<int>(stream.device().index),
                    reinterpret_cast<uintptr_t>(stream.handle()));
}
using StreamKey = decltype(stream_key(Stream()));

enum class BlockState { kInUse, kAwaitingEvents, kFree };

// A contiguous piece of a segment. The blocks of a segment tile it, linked in address order;
// a block with no neighbour on either side is the whole segment.
struct Block {
  uintptr_t address = 0;
  size_t size = 0;
  Stream stream;       // the stream its segment was allocated on (shared by all its blocks)
  bool small = false;  // its segment's pool
  BlockState state = BlockState::kFree;
  size_t requested = 0;  // while in use: the rounded request, what allocated_bytes counts
  Block* prev = nullptr;
  Block* next = nullptr;
  std::vector<Stream> stream_uses;  // while in use: the other streams using it (record_stream)
  size_t pending_events = 0;        // while awaiting events: how many have not completed

  bool whole_segment() const { return prev == nullptr && next == nullptr; }
};

// Pools sort by (stream, size, address): the first block at or after (stream, request, 0) is
// the best fit on that stream.
struct BlockOrder {
  bool operator()(const Block* a, const Block* b) const {
    return std::tuple(stream_key(a->stream), a->size, a->address) <
           std::tuple(stream_key(b->stream), b->size, b->address);
  }
};
using Pool = std::set<Block*, BlockOrder>;

// Memory to give back to the device once the lock is released.
struct Segment {
  void* ptr;
  size_t size;
};

struct PendingFree {
  void* event;
  Block* block;
};

}  // namespace

// Invariants (under `mutex`): every block of every held segment is in `blocks`; a free block
// is in exactly the pool its `small` names and never has a free neighbour (they merge); an
// awaiting block is in no pool and has `pending_events` entries in `pending`; the stats'
// reserved bytes are the sizes of the held segments, cached the sizes of the pooled blocks,
// allocated the `requested` of the blocks in use.
struct CachingAllocator::State {
  State(Device device, std::unique_ptr<DeviceMemory> memory)
      : device(device), memory(std::move(memory)) {}

  const Device device;
  const std::unique_ptr<DeviceMemory> memory;

  mutable std::mutex mutex;
  std::unordered_map<uintptr_t, Block> blocks;  // owns the blocks; node-based: stable addresses
  Pool small_pool;
  Pool large_pool;
  // Each stream's events complete in the order they were recorded: a queue per stream is
  // looked at only up to its first event still running.
  std::map<StreamKey, std::deque<PendingFree>> pending;
  AllocatorStats stats;

  Pool& pool_of(const Block& block) { return block.small ? small_pool : large_pool; }

  Block& new_block(uintptr_t address, size_t size, const Stream& stream, bool small) {
    Block& block = blocks[address];
    block.address = address;
    block.size = size;
    block.stream = stream;
    block.small = small;
    return block;
  }

  Block* best_fit(size_t size, const Stream& stream) {
    Pool& pool = size <= kSmallRequest ? small_pool : large_pool;
    Block probe;
    probe.stream = stream;
    probe.size = size;
    const auto it = pool.lower_bound(&probe);
    return it != pool.end() && (*it)->stream == stream ? *it : nullptr;
  }

  // Hands out `size` bytes from the start of `block` (in no pool), splitting off the rest when
  // it is worth keeping apart.
  void* hand_out(Block& block, size_t size) {
    const size_t rest = block.size - size;
    if (block.small ? rest >= kRounding : rest > kSmallRequest) {
      Block& tail = new_block(block.address + size, rest, block.stream, block.small);
      tail.prev = &block;
      tail.next = block.next;
      if (tail.next != nullptr) tail.next->prev = &tail;
      block.next = &tail;
      block.size = size;
      pool_of(tail).insert(&tail);
      stats.cached_bytes += static_cast<int64_t>(rest);
    }
    block.state = BlockState::kInUse;
    block.requested = size;
    stats.allocated_bytes += static_cast<int64_t>(size);
    stats.peak_allocated_bytes = std::max(stats.peak_allocated_bytes, stats.allocated_bytes);
    stats.num_allocations++;
    return reinterpret_cast<void*>(block.address);
  }

  void* reuse(Block& block, size_t size) {
    pool_of(block).erase(&block);
    stats.cached_bytes -= static_cast<int64_t>(block.size);
    stats.num_cache_hits++;
    return hand_out(block, size);
  }

  void* adopt_segment(void* ptr, size_t bytes, size_t size, const Stream& stream) {
    Block& block =
        new_block(reinterpret_cast<uintptr_t>(ptr), bytes, stream, size <= kSmallRequest);
    stats.reserved_bytes += static_cast<int64_t>(bytes);
    stats.num_system_allocations++;
    return hand_out(block, size);
  }

  Block& in_use_block(void* ptr, const char* op) {
    const auto it = blocks.find(reinterpret_cast<uintptr_t>(ptr));
    ACCEL_CHECK(it != blocks.end() && it->second.state == BlockState::kInUse, op,
                "pointer {} was not allocated by the caching allocator of {} (or was freed "
                "already)",
                fmt::ptr(ptr), device);
    return it->second;
  }

  void unlink_segment(Block& block, std::vector<Segment>& released) {
    released.push_back({reinterpret_cast<void*>(block.address), block.size});
    stats.reserved_bytes -= static_cast<int64_t>(block.size);
    stats.num_system_frees++;
    const uintptr_t address = block.address;  // erasing by the node's own key would dangle
    blocks.erase(address);
  }

  // Merges `right`, the block after `left` in their segment, into `left`; neither stays pooled.
  void absorb(Block& left, Block& right) {
    for (Block* b : {&left, &right}) {
      if (pool_of(*b).erase(b) != 0) stats.cached_bytes -= static_cast<int64_t>(b->size);
    }
    left.size += right.size;
    left.next = right.next;
    if (left.next != nullptr) left.next->prev = &left;
    const uintptr_t address = right.address;
    blocks.erase(address);
  }

  void free_block(Block& freed, std::vector<Segment>& released) {
    freed.state = BlockState::kFree;
    Block* block = &freed;
    if (block->next != nullptr && block->next->state == BlockState::kFree) {
      absorb(*block, *block->next);
    }
    if (block->prev != nullptr && block->prev->state == BlockState::kFree) {
      block = block->prev;
      absorb(*block, *block->next);
    }
    if (block->whole_segment() && !allocator_cache_enabled()) {
      unlink_segment(*block, released);
      return;
    }
    pool_of(*block).insert(block);
    stats.cached_bytes += static_cast<int64_t>(block->size);
  }

  // A freed block returns to its pool now, or once the events of the streams that used it
  // complete. The events are recorded first: should the device fail, nothing has changed.
  void retire(Block& block, std::vector<Segment>& released) {
    std::vector<std::pair<Stream, void*>> events;
    try {
      for (const Stream& stream : block.stream_uses) {
        if (void* event = memory->record_event(stream)) events.emplace_back(stream, event);
      }
    } catch (...) {
      for (const auto& [stream, event] : events) memory->destroy_event(event);
      throw;
    }
    stats.allocated_bytes -= static_cast<int64_t>(block.requested);
    block.requested = 0;
    block.stream_uses.clear();
    if (events.empty()) {
      free_block(block, released);
      return;
    }
    block.state = BlockState::kAwaitingEvents;
    block.pending_events = events.size();
    for (const auto& [stream, event] : events) {
      pending[stream_key(stream)].push_back({event, &block});
    }
  }

  void collect_completed_events(std::vector<Segment>& released) {
    for (auto it = pending.begin(); it != pending.end();) {
      std::deque<PendingFree>& queue = it->second;
      while (!queue.empty() && memory->event_completed(queue.front().event)) {
        const PendingFree done = queue.front();
        queue.pop_front();
        memory->destroy_event(done.event);
        if (--done.block->pending_events == 0) free_block(*done.block, released);
      }
      it = queue.empty() ? pending.erase(it) : std::next(it);
    }
  }

  void unlink_free_segments(std::vector<Segment>& released) {
    for (Pool* pool : {&small_pool, &large_pool}) {
      for (auto it = pool->begin(); it != pool->end();) {
        Block& block = **it;
        if (!block.whole_segment()) {
          ++it;
          continue;
        }
        it = pool->erase(it);
        stats.cached_bytes -= static_cast<int64_t>(block.size);
        unlink_segment(block, released);
      }
    }
  }

  // Outside the lock: returning memory may wait for the device (cudaFree synchronizes).
  void give_back(const std::vector<Segment>& released) {
    for (const Segment& segment : released) memory->release(segment.ptr, segment.size);
  }

  [[noreturn]] void out_of_memory(size_t nbytes) const {
    fail("allocate",
         "out of memory on {} allocating {} bytes ({}): {} allocated, {} reserved, {} cached in "
         "this allocator",
         device, nbytes, human_bytes(static_cast<double>(nbytes)),
         human_bytes(static_cast<double>(stats.allocated_bytes)),
         human_bytes(static_cast<double>(stats.reserved_bytes)),
         human_bytes(static_cast<double>(stats.cached_bytes)));
  }
};

CachingAllocator::CachingAllocator(Device device, std::unique_ptr<DeviceMemory> memory)
    : state_(std::make_unique<State>(device, std::move(memory))) {}

CachingAllocator::~CachingAllocator() {
  // The process-wide allocators die at exit, possibly after the device runtime: what cannot be
  // released then is reclaimed with the process, and a destructor must not throw.
  try {
    empty_cache();
    for (const auto& [stream, queue] : state_->pending) {
      for (const PendingFree& p : queue) state_->memory->destroy_event(p.event);
    }
  } catch (...) {
  }
}

void* CachingAllocator::allocate(size_t nbytes, const Stream& stream) {
  if (nbytes == 0) return nullptr;
  State& s = *state_;
  if (nbytes > kMaxRequest) {
    std::lock_guard lock(s.mutex);
    s.out_of_memory(nbytes);
  }
  const size_t size = round_up(nbytes, kRounding);
  const bool caching = allocator_cache_enabled();
  void* ptr = nullptr;
  std::vector<Segment> released;
  {
    std::lock_guard lock(s.mutex);
    s.collect_completed_events(released);
    if (!caching) {
      s.unlink_free_segments(released);  // kept while the cache was on
    } else if (Block* block = s.best_fit(size, stream)) {
      ptr = s.reuse(*block, size);
    }
  }
  s.give_back(released);
  if (ptr != nullptr) return ptr;

  const size_t bytes = caching ? segment_size(size) : size;
  void* segment = s.memory->allocate(bytes);
  if (segment == nullptr) {
    empty_cache();
    segment = s.memory->allocate(bytes);
  }
  std::lock_guard lock(s.mutex);
  if (segment == nullptr) s.out_of_memory(nbytes);
  return s.adopt_segment(segment, bytes, size, stream);
}

void CachingAllocator::deallocate(void* ptr, size_t, const Stream&) {
  if (ptr == nullptr) return;
  State& s = *state_;
  std::vector<Segment> released;
  // Tensors free their memory in destructors, which must not throw, so a failing device (after
  // a kernel fault a GPU's runtime refuses every call) costs memory instead: a block whose
  // events cannot be recorded stays reserved, a segment the device will not take back is
  // dropped, and the failure surfaces at the program's next synchronization. Misuse (a pointer
  // this allocator does not hold) still throws.
  {
    std::lock_guard lock(s.mutex);
    Block& block = s.in_use_block(ptr, "deallocate");
    try {
      s.retire(block, released);
    } catch (const std::exception&) {
      return;
    }
  }
  try {
    s.give_back(released);
  } catch (const std::exception&) {
  }
}

void CachingAllocator::record_stream(void* ptr, const Stream& stream) {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  Block& block = s.in_use_block(ptr, "record_stream");
  if (stream == block.stream ||
      std::ranges::find(block.stream_uses, stream) != block.stream_uses.end()) {
    return;
  }
  block.stream_uses.push_back(stream);
}

Device CachingAllocator::device() const { return state_->device; }

AllocatorStats CachingAllocator::stats() const {
  std::lock_guard lock(state_->mutex);
  return state_->stats;
}

void CachingAllocator::reset_peak_stats() {
  std::lock_guard lock(state_->mutex);
  state_->stats.peak_allocated_bytes = state_->stats.allocated_bytes;
}

void CachingAllocator::empty_cache() {
  State& s = *state_;
  std::vector<Segment> released;
  {
    std::lock_guard lock(s.mutex);
    s.collect_completed_events(released);
    s.unlink_free_segments(released);
  }
  s.give_back(released);
}

}  // namespace accel
