// ThreadPool: every chunk runs once per job over thousands of jobs in a row (the hand-over
// between jobs is where races would be), callers on several threads at once, exceptions from
// workers and from the caller, nested parallel ops, and a forked child that gets a pool of its
// own. CI also runs these under ThreadSanitizer.
#include "accel/kernels/cpu/thread_pool.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "accel/accel.h"

namespace accel {
namespace {

TEST(ThreadPool, RunsEveryChunkOnceJobAfterJob) {
  ThreadPool& pool = ThreadPool::instance();
  for (int job = 0; job < 3000; ++job) {
    const int64_t chunks = 1 + job % 5;
    std::vector<std::atomic<int>> runs(static_cast<size_t>(chunks));
    pool.run(chunks, 1 + job % 4, [&](int64_t c) { runs[static_cast<size_t>(c)]++; });
    for (int64_t c = 0; c < chunks; ++c) ASSERT_EQ(runs[c].load(), 1) << "job " << job;
  }
}

TEST(ThreadPool, CallersOnSeveralThreadsAllGetTheirWorkDone) {
  std::vector<std::thread> callers;
  std::atomic<int64_t> total{0};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (int job = 0; job < 500; ++job) {
        ThreadPool::instance().run(3, 2, [&](int64_t c) { total += c + 1; });
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  EXPECT_EQ(total.load(), 4 * 500 * (1 + 2 + 3));
}

TEST(ThreadPool, RethrowsAChunksException) {
  for (int64_t failing : {0, 1, 5}) {
    EXPECT_THROW(ThreadPool::instance().run(6, 3,
                                            [&](int64_t c) {
                                              if (c == failing) throw std::runtime_error("chunk");
                                            }),
                 std::runtime_error);
  }
  // The pool is whole afterwards.
  std::atomic<int> runs{0};
  ThreadPool::instance().run(4, 2, [&](int64_t) { ++runs; });
  EXPECT_EQ(runs.load(), 4);
}

TEST(ThreadPool, OpsInsideAChunkRunSerially) {
  std::atomic<int> serial{0};
  ThreadPool::instance().run(2, 2, [&](int64_t) {
    if (in_parallel_region()) ++serial;
  });
  EXPECT_EQ(serial.load(), 2);
  EXPECT_FALSE(in_parallel_region());
}

TEST(ThreadPool, AForkedChildHasAPoolOfItsOwn) {
  std::atomic<int> runs{0};
  ThreadPool::instance().run(2, 2, [&](int64_t) { ++runs; });  // the parent's workers exist
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::atomic<int> child_runs{0};
    ThreadPool::instance().run(4, 2, [&](int64_t) { ++child_runs; });
    _exit(child_runs.load() == 4 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

}  // namespace
}  // namespace accel
