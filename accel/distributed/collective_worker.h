// CollectiveWorker: one thread that runs a process group's collectives in the order they were
// issued, so that the caller goes on computing while one is in flight (DDP issues gradient
// reductions during backward) and a Work handle completes without the caller's help. MPI
// needs the order: every process must issue the same collectives in the same sequence.
#pragma once

#include <chrono>
#include <condition_variable>
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
  // Called on the waiting thread with a description when a Work is not done within the
  // timeout (a stuck collective cannot be cancelled: the group aborts the job).
  using TimeoutHandler = std::function<void(const std::string& message)>;

  CollectiveWorker(std::chrono::milliseconds timeout, TimeoutHandler on_timeout);
  // Runs what is queued, then stops.
  ~CollectiveWorker();
  CollectiveWorker(const CollectiveWorker&) = delete;
  CollectiveWorker& operator=(const CollectiveWorker&) = delete;

  // Queues `run` (named `name` in errors) and returns its handle. What `run` captures (the
  // tensors it reads and writes) is released on the worker once it has run. An exception
  // `run` throws is rethrown by the handle's wait().
  std::shared_ptr<Work> submit(std::string name, std::function<void()> run);

 private:
  struct Task;
  void loop();

  std::chrono::milliseconds timeout_;
  TimeoutHandler on_timeout_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Task>> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace accel::distributed
