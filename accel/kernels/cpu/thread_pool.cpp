// ThreadPool: workers wait for a new generation number (spin, then std::atomic::wait, a futex),
// claim chunk indices with fetch_add, and count finished chunks down; the last one wakes the
// caller. Every shared field of a job is written before the generation is published (release)
// and read after it is seen (acquire).
#include "accel/kernels/cpu/thread_pool.h"

#include <pthread.h>

#include <chrono>

namespace accel {
namespace {

thread_local bool on_worker = false;

void pause_cpu() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins until `done()` or kSpinNanoseconds pass; returns done().
template <typename Done>
bool spin_until(const Done& done) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::nanoseconds(ThreadPool::kSpinNanoseconds);
  while (!done()) {
    for (int i = 0; i < 64; ++i) pause_cpu();
    if (std::chrono::steady_clock::now() >= deadline) return done();
  }
  return true;
}

ThreadPool* pool = nullptr;
std::once_flag pool_made;

}  // namespace

ThreadPool& ThreadPool::instance() {
  std::call_once(pool_made, [] {
    pool = new ThreadPool();  // never destroyed: ops may run during static destruction
    // A forked child has none of the parent's workers: it starts a pool of its own (the old
    // one is left as it was, unusable, never touched again).
    pthread_atfork(nullptr, nullptr, [] { pool = new ThreadPool(); });
  });
  return *pool;
}

bool ThreadPool::in_worker() { return on_worker; }

ThreadPool::~ThreadPool() {
  stopping_ = true;
  generation_.fetch_add(1);
  generation_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::start_workers(int count) {
  while (static_cast<int>(workers_.size()) < count) {
    const int index = static_cast<int>(workers_.size());
    workers_.emplace_back([this, index] { worker_loop(index); });
  }
}

void ThreadPool::worker_loop(int index) {
  on_worker = true;
  uint64_t seen = generation_.load();
  while (true) {
    if (!spin_until([&] { return generation_.load(std::memory_order_relaxed) != seen; })) {
      // Counted before waiting, so that a caller publishing a job after this sees a sleeper
      // to wake, or this wait sees the new generation and returns at once.
      sleepers_.fetch_add(1);
      generation_.wait(seen);
      sleepers_.fetch_sub(1);
    }
    seen = generation_.load();
    if (stopping_.load()) return;
    std::shared_ptr<Job> job;
    {
      std::lock_guard lock(job_mutex_);
      job = job_;
    }
    if (job && index < job->helpers) work_on(*job);
  }
}

void ThreadPool::work_on(Job& job) {
  while (true) {
    const int64_t index = job.next.fetch_add(1);
    if (index >= job.chunks) return;
    try {
      (*job.chunk)(index);
    } catch (...) {
      std::lock_guard lock(job.error_mutex);
      if (!job.error) job.error = std::current_exception();
    }
    if (job.unfinished.fetch_sub(1) == 1) job.unfinished.notify_all();
  }
}

void ThreadPool::run(int64_t chunks, int threads, const std::function<void(int64_t)>& chunk) {
  std::unique_lock lock(run_mutex_, std::try_to_lock);
  if (!lock.owns_lock() || threads <= 1 || chunks <= 1 || on_worker) {
    for (int64_t i = 0; i < chunks; ++i) chunk(i);  // busy, or nothing to share: in order
    return;
  }
  start_workers(threads - 1);
  auto job = std::make_shared<Job>();
  job->chunk = &chunk;
  job->chunks = chunks;
  job->helpers = threads - 1;
  job->unfinished = chunks;
  {
    std::lock_guard job_lock(job_mutex_);
    job_ = job;
  }
  generation_.fetch_add(1);
  if (sleepers_.load() > 0) generation_.notify_all();

  on_worker = true;  // ops inside the caller's chunks stay serial, as the workers' do
  work_on(*job);
  on_worker = false;
  // The last chunks may still run on workers: wait for them, spinning briefly first.
  const auto all_done = [&] { return job->unfinished.load() == 0; };
  while (!spin_until(all_done)) {
    const int64_t left = job->unfinished.load();
    if (left != 0) job->unfinished.wait(left);
  }
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace accel
