// CollectiveWorker: runs a process group's collectives in the order they were issued, so that
// the caller goes on computing while one is in flight (DDP issues gradient reductions during
// backward) and a Work handle completes without the caller's help. MPI needs the order: every
// process must issue the same collectives in the same sequence.
//
// One thread runs what is queued. A caller that waits for the next collective before that
// thread has taken it runs it itself instead: a blocking all_reduce then costs no hand-off
// between threads (two wake-ups, a tenth of a 1 MB all-reduce's time), and the worker thread
// watches it for the timeout.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "accel/distributed/process_group.h"

namespace accel::distributed {

class CollectiveWorker {
 public:
  // Called with a description when a collective is not done within the timeout (a stuck
  // collective cannot be cancelled: the group aborts the job). It runs on the thread that waits
  // for the collective, or on the worker thread when the waiting thread is the one running it.
  using TimeoutHandler = std::function<void(const std::string& message)>;

  CollectiveWorker(std::chrono::milliseconds timeout, TimeoutHandler on_timeout);
  // Runs what is queued, then stops.
  ~CollectiveWorker();
  CollectiveWorker(const CollectiveWorker&) = delete;
  CollectiveWorker& operator=(const CollectiveWorker&) = delete;

  // Queues `run` (named `name` in errors) and returns its handle. What `run` captures (the
  // tensors it reads and writes) is released once it has run. An exception `run` throws is
  // rethrown by the handle's wait().
  std::shared_ptr<Work> submit(std::string name, std::function<void()> run);

 private:
  struct Task;
  void loop();
  // Takes `task` off the queue for the calling thread to run when it is next and nothing runs.
  bool claim_for_caller(const Task& task);
  void caller_finished();

  std::chrono::milliseconds timeout_;
  TimeoutHandler on_timeout_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Task>> queue_;
  bool running_ = false;            // a collective is running, on either thread
  bool running_on_caller_ = false;  // ... on a waiting caller's thread, watched by the worker
  std::chrono::steady_clock::time_point caller_deadline_;
  const std::string* caller_task_name_ = nullptr;  // the claimed task's, alive while it runs
  uint64_t caller_claims_ = 0;                     // collectives run by callers so far
  uint64_t reported_claim_ = 0;  // the last of them reported to the timeout handler
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace accel::distributed
