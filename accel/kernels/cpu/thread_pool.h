// ThreadPool: the workers behind parallel_for. A job is `chunks` calls of one function, claimed
// by index by the calling thread and the workers; the caller returns when all are done. Idle
// workers spin briefly (a job usually follows within microseconds during a training step) and
// then sleep on a futex, so a machine busy with other work gets its cores back: OpenMP's
// default spinning made two threads several times slower than one under load.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace accel {

class ThreadPool {
 public:
  // How long an idle worker (or a caller waiting for the last chunks) spins before sleeping.
  static constexpr int64_t kSpinNanoseconds = 50'000;

  ThreadPool() = default;
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Runs chunk(0) ... chunk(chunks - 1), on up to `threads` threads (the caller among them),
  // and rethrows the first exception a chunk threw. When another thread's job is running, this
  // one runs its chunks itself, in order: the same calls, so the same results.
  void run(int64_t chunks, int threads, const std::function<void(int64_t)>& chunk);

  // The process-wide pool (made on first use; a forked child gets a fresh one).
  static ThreadPool& instance();
  // True on a pool worker, and on a caller while its job runs.
  static bool in_worker();

 private:
  // One job, shared by the caller and the workers that pick it up. A worker that comes late
  // finds no chunk left and never touches `chunk`, which may be gone by then.
  struct Job {
    const std::function<void(int64_t)>* chunk;
    int64_t chunks;
    int helpers;  // workers 0 .. helpers - 1 take part
    std::atomic<int64_t> next{0};
    std::atomic<int64_t> unfinished;
    std::mutex error_mutex;
    std::exception_ptr error;
  };

  void start_workers(int count);
  void worker_loop(int index);
  // Claims and runs chunks of `job` until none is left.
  static void work_on(Job& job);

  std::mutex run_mutex_;  // one job at a time
  std::vector<std::thread> workers_;
  std::mutex job_mutex_;  // guards job_ (held only to copy the pointer)
  std::shared_ptr<Job> job_;
  std::atomic<uint64_t> generation_{0};  // bumped per job: what idle workers wait on
  std::atomic<int> sleepers_{0};         // workers blocked in generation_.wait
  std::atomic<bool> stopping_{false};
};

}  // namespace accel
