// The collective worker's queue, the Work handles it completes, and the hand-over of the next
// collective to a caller that waits for it.
#include "accel/distributed/collective_worker.h"

#include <fmt/format.h>

#include <exception>

namespace accel::distributed {
namespace {

std::string timeout_message(const std::string& name, std::chrono::milliseconds timeout) {
  return fmt::format(
      "{} did not complete within {} ms: another process has stopped or issued different "
      "collectives",
      name, timeout.count());
}

}  // namespace

// One queued collective and its completion, shared by the queue and its Work handle.
struct CollectiveWorker::Task final : public Work {
  std::string name;
  std::function<void()> run;
  CollectiveWorker* worker = nullptr;
  std::chrono::milliseconds timeout{};  // the worker's, copied: read after the worker may be gone

  mutable std::mutex mutex;
  std::condition_variable done_changed;
  bool done = false;
  std::exception_ptr error;

  // Runs the collective and completes the handle; what `run` captured is released first.
  void execute() {
    std::exception_ptr failure;
    try {
      run();
    } catch (...) {
      failure = std::current_exception();
    }
    run = nullptr;
    {
      std::lock_guard lock(mutex);
      done = true;
      error = std::move(failure);
    }
    done_changed.notify_all();
  }

  void wait() override {
    std::unique_lock lock(mutex);
    // While this task is not done its worker exists: the worker cannot finish it, nor stop,
    // while `mutex` is held.
    if (!done && worker->claim_for_caller(*this)) {
      lock.unlock();
      execute();
      worker->caller_finished();
      lock.lock();
    }
    if (!done_changed.wait_for(lock, timeout, [&] { return done; })) {
      lock.unlock();
      worker->on_timeout_(timeout_message(name, timeout));
      lock.lock();
      done_changed.wait(lock, [&] { return done; });
    }
    if (error) std::rethrow_exception(error);
  }

  bool is_completed() const override {
    std::lock_guard lock(mutex);
    return done;
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
  task->worker = this;
  task->timeout = timeout_;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(task);
  }
  wake_.notify_one();
  return task;
}

bool CollectiveWorker::claim_for_caller(const Task& task) {
  std::lock_guard lock(mutex_);
  if (running_ || queue_.empty() || queue_.front().get() != &task) return false;
  queue_.pop_front();  // the caller holds the handle
  running_ = true;
  running_on_caller_ = true;
  caller_deadline_ = std::chrono::steady_clock::now() + timeout_;
  caller_task_name_ = &task.name;
  ++caller_claims_;
  return true;
}

void CollectiveWorker::caller_finished() {
  bool wake_worker = false;
  {
    std::lock_guard lock(mutex_);
    running_ = false;
    running_on_caller_ = false;
    // The worker sleeps until the deadline unless it has something to do now.
    wake_worker = !queue_.empty() || stopping_ || reported_claim_ == caller_claims_;
  }
  if (wake_worker) wake_.notify_one();
}

void CollectiveWorker::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    if (running_on_caller_) {  // watch the caller's collective for the timeout
      if (reported_claim_ == caller_claims_) {
        wake_.wait(lock);
      } else if (std::chrono::steady_clock::now() < caller_deadline_) {
        wake_.wait_until(lock, caller_deadline_);
      } else {
        reported_claim_ = caller_claims_;
        const std::string message = timeout_message(*caller_task_name_, timeout_);
        lock.unlock();
        on_timeout_(message);
        lock.lock();
      }
    } else if (!queue_.empty()) {
      std::shared_ptr<Task> task = std::move(queue_.front());
      queue_.pop_front();
      running_ = true;
      lock.unlock();
      task->execute();
      task.reset();
      lock.lock();
      running_ = false;
    } else if (stopping_) {
      return;
    } else {
      wake_.wait(lock);
    }
  }
}

}  // namespace accel::distributed
