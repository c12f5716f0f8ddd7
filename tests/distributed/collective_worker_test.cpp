// The collective worker: issue order, completion without the caller, errors carried to wait(),
// captured tensors released once run, the timeout handler, and draining at destruction.
#include "accel/distributed/collective_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "accel/core/factories.h"
#include "support/expect_error.h"

namespace accel::distributed {
namespace {

using namespace std::chrono_literals;

CollectiveWorker::TimeoutHandler fail_test_on_timeout() {
  return [](const std::string& message) { ADD_FAILURE() << "unexpected timeout: " << message; };
}

TEST(CollectiveWorker, RunsInIssueOrderAndCompletesOnItsOwn) {
  CollectiveWorker worker(10s, fail_test_on_timeout());
  std::vector<int> order;
  std::vector<std::shared_ptr<Work>> works;
  for (int i = 0; i < 50; ++i)
    works.push_back(worker.submit("step", [&, i] { order.push_back(i); }));
  while (!works.back()->is_completed()) std::this_thread::yield();
  for (const auto& work : works) EXPECT_TRUE(work->is_completed());
  std::vector<int> expected(50);
  for (int i = 0; i < 50; ++i) expected[static_cast<size_t>(i)] = i;
  EXPECT_EQ(order, expected);
}

TEST(CollectiveWorker, WaitRethrowsTheError) {
  CollectiveWorker worker(10s, fail_test_on_timeout());
  auto failed =
      worker.submit("broken", [] { fail("ProcessGroup::all_reduce", "MPI error: boom"); });
  auto next = worker.submit("next", [] {});
  testing::expect_error_containing([&] { failed->wait(); }, "MPI error: boom");
  next->wait();  // a failed collective does not stop the queue
}

TEST(CollectiveWorker, ReleasesCapturedTensorsOnceRun) {
  CollectiveWorker worker(10s, fail_test_on_timeout());
  Tensor t = zeros({4});
  std::weak_ptr<TensorImpl> impl = t.impl_ptr();
  auto work = worker.submit("hold", [t] { (void)t.numel(); });
  t = Tensor();
  work->wait();
  EXPECT_TRUE(impl.expired());
}

TEST(CollectiveWorker, CallsTheTimeoutHandlerThenKeepsWaiting) {
  std::atomic<bool> release{false};
  std::string timeout_message;
  CollectiveWorker worker(20ms, [&](const std::string& message) {
    timeout_message = message;
    release = true;  // the real handler aborts the job; this one lets the collective finish
  });
  auto work = worker.submit("ProcessGroup::barrier", [&] {
    while (!release) std::this_thread::sleep_for(1ms);
  });
  work->wait();
  EXPECT_NE(timeout_message.find("ProcessGroup::barrier did not complete within 20 ms"),
            std::string::npos)
      << timeout_message;
}

TEST(CollectiveWorker, DestructionRunsWhatIsQueued) {
  std::atomic<int> ran{0};
  {
    CollectiveWorker worker(10s, fail_test_on_timeout());
    for (int i = 0; i < 20; ++i) {
      worker.submit("step", [&] {
        std::this_thread::sleep_for(100us);
        ++ran;
      });
    }
  }
  EXPECT_EQ(ran.load(), 20);
}

}  // namespace
}  // namespace accel::distributed
