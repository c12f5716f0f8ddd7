// Intra-op threading: the thread count setting, parallel_for's coverage of a range, its grain
// and serial modes, and errors thrown inside a parallel chunk.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "accel/accel.h"
#include "accel/kernels/cpu/thread_count_from_environment.h"
#include "support/thread_count.h"

namespace accel {
namespace {

using testing::ThreadCount;

TEST(Parallel, SetAndGetNumThreads) {
  const int before = get_num_threads();
  EXPECT_GE(before, 1);
  {
    ThreadCount threads(3);
    EXPECT_EQ(get_num_threads(), 3);
  }
  EXPECT_EQ(get_num_threads(), before);
}

TEST(Parallel, NonPositiveThreadCountThrows) {
  const int before = get_num_threads();
  for (int n : {0, -2}) {
    try {
      set_num_threads(n);
      ADD_FAILURE() << "expected accel::Error for " << n;
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("set_num_threads"), std::string::npos) << message;
      EXPECT_NE(message.find(std::to_string(n)), std::string::npos) << message;
    }
  }
  EXPECT_EQ(get_num_threads(), before);
}

// Sets (or, for nullptr, unsets) an environment variable for the guard's lifetime.
class EnvironmentVariable {
 public:
  EnvironmentVariable(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) previous_ = old;
    value ? ::setenv(name, value, 1) : ::unsetenv(name);
  }
  ~EnvironmentVariable() { previous_ ? ::setenv(name_, previous_->c_str(), 1) : ::unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> previous_;
};

TEST(Parallel, TheEnvironmentSetsTheThreadCount) {
  std::string warning;
  {
    EnvironmentVariable accel("ACCEL_NUM_THREADS", nullptr), omp("OMP_NUM_THREADS", nullptr);
    EXPECT_EQ(thread_count_from_environment(warning), std::nullopt);
    EXPECT_EQ(warning, "");
  }
  {
    EnvironmentVariable accel("ACCEL_NUM_THREADS", nullptr), omp("OMP_NUM_THREADS", "3,1");
    EXPECT_EQ(thread_count_from_environment(warning), 3);
  }
  {
    EnvironmentVariable accel("ACCEL_NUM_THREADS", "2"), omp("OMP_NUM_THREADS", "5");
    EXPECT_EQ(thread_count_from_environment(warning), 2) << "ACCEL_NUM_THREADS comes first";
  }
  for (const char* bad : {"0", "2.5", "-1", "many", "5000"}) {
    EnvironmentVariable accel("ACCEL_NUM_THREADS", bad), omp("OMP_NUM_THREADS", "5");
    EXPECT_EQ(thread_count_from_environment(warning), std::nullopt) << bad;
    EXPECT_EQ(warning, std::string("ACCEL_NUM_THREADS='") + bad +
                           "' is not a whole number of threads in [1, 4096]; ignored");
  }
}

TEST(Parallel, ForCoversEveryIndexOnce) {
  ThreadCount threads(2);
  for (int64_t n : {0, 1, 7, 1000, 100003}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    parallel_for(0, n, 1000, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) hits[i]++;
    });
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " i=" << i;
  }
}

TEST(Parallel, ForSplitsOnlyAboveGrain) {
  ThreadCount threads(2);
  std::atomic<int> calls{0};
  parallel_for(10, 110, 100, [&](int64_t begin, int64_t end) {
    EXPECT_EQ(begin, 10);
    EXPECT_EQ(end, 110);
    ++calls;
  });
  EXPECT_EQ(calls.load(), 1);
  calls = 0;
  parallel_for(0, 1000, 100, [&](int64_t, int64_t) { ++calls; });
  EXPECT_GE(calls.load(), 1);
  EXPECT_LE(calls.load(), 2);  // at most one chunk per thread
}

TEST(Parallel, SerialOpsGuardKeepsWorkOnTheCallingThread) {
  ThreadCount threads(2);
  EXPECT_FALSE(in_parallel_region());
  {
    SerialOpsGuard serial;
    EXPECT_TRUE(in_parallel_region());
    std::atomic<int> calls{0};
    parallel_for(0, 1 << 20, 1, [&](int64_t, int64_t) { ++calls; });
    EXPECT_EQ(calls.load(), 1);
  }
  EXPECT_FALSE(in_parallel_region());
  bool other = true;
  {
    SerialOpsGuard serial;
    std::thread([&] { other = in_parallel_region(); }).join();  // the guard is per thread
  }
  EXPECT_FALSE(other);
}

TEST(Parallel, ErrorsInChunksReachTheCaller) {
  ThreadCount threads(2);
  EXPECT_THROW(parallel_for(0, 100000, 10,
                            [](int64_t begin, int64_t) {
                              if (begin > 0) fail("chunk", "failed at {}", begin);
                            }),
               Error);
}

TEST(Parallel, ElementwiseResultsDoNotDependOnThreadCount) {
  Tensor a = arange(200000, kFloat32) / 7;
  Tensor b = arange(200000, kFloat32) * 0.5;
  Tensor one, two;
  {
    ThreadCount threads(1);
    one = (a * b + a).sum();
  }
  {
    ThreadCount threads(2);
    two = (a * b + a).sum();
  }
  EXPECT_EQ(one.item<float>(), two.item<float>());
}

}  // namespace
}  // namespace accel
