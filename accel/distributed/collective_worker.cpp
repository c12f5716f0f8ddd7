// The collective worker's queue and the Work handles it completes.
#include "accel/distributed/collective_worker.h"

#include <fmt/format.h>

#include <exception>

namespace accel::distributed {

// One queued collective and its completion, shared by the queue and its Work handle.
struct CollectiveWorker::Task final : public Work {
  std::string name;
  std::function<void()> run;
  std::chrono::milliseconds timeout{};
  const TimeoutHandler* on_timeout = nullptr;

  mutable std::mutex mutex;
  std::condition_variable done_changed;
  bool done = false;
  std::exception_ptr error;

  void wait() override {
    std::unique_lock lock(mutex);
    if (!done_changed.wait_for(lock, timeout, [&] { return done; })) {
      lock.unlock();
      (*on_timeout)(
          fmt::format("{} did not complete within {} ms: another process has stopped "
                      "or issued different collectives",
                      name, timeout.count()));
      lock.lock();
      done_changed.wait(lock, [&] { return done; });
    }
    if (error) std::rethrow_exception(error);
  }

  bool is_completed() const override {
    std::lock_guard lock(mutex);
    return done;
  }

  void finish(std::exception_ptr failure) {
    {
      std::lock_guard lock(mutex);
      done = true;
      error = std::move(failure);
    }
    done_changed.notify_all();
  }
};

CollectiveWorker::CollectiveWorker(std::chrono::milliseconds timeout, TimeoutHandler on_timeout)
    : timeout_(timeout), on_timeout_(std::move(on_timeout)), thread_([this] { loop(); }) {}

CollectiveWorker::~CollectiveWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

std::shared_ptr<Work> CollectiveWorker::submit(std::string name, std::function<void()> run) {
  auto task = std::make_shared<Task>();
  task->name = std::move(name);
  task->run = std::move(run);
  task->timeout = timeout_;
  task->on_timeout = &on_timeout_;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(task);
  }
  wake_.notify_one();
  return task;
}

void CollectiveWorker::loop() {
  while (true) {
    std::shared_ptr<Task> task;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to run
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    std::exception_ptr failure;
    try {
      task->run();
    } catch (...) {
      failure = std::current_exception();
    }
    task->run = nullptr;  // releases the tensors it captured before anyone sees it done
    task->finish(failure);
  }
}

}  // namespace accel::distributed
