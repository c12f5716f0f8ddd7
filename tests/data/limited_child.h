// outcome_in_child: runs a reader in a forked child under an address-space limit (to show its
// memory bound) and an alarm (to show that it never blocks), without risking the test process,
// and says how the call ended.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <new>
#include <string>

#include "accel/base/error.h"
#include "support/child_process.h"

namespace accel::testing_data {

// Whether this build runs under AddressSanitizer, whose shadow memory needs far more address
// space than any limit a test could set.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

struct ChildLimits {
  // Address space the child may map beyond what the process holds at the fork; 0: no limit.
  uint64_t extra_address_space = 0;
  // The child is killed by SIGALRM when it runs longer.
  unsigned timeout_seconds = 60;
};

// This process's mapped address space in bytes (the first field of /proc/self/statm).
inline uint64_t address_space_in_use() {
  unsigned long pages = 0;
  if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%lu", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// Runs fn() in a forked child and says how it ended: "returned", "accel::Error: <message>",
// "std::bad_alloc", "exception: <what>", or "killed by signal <n>" (14, SIGALRM: it ran past
// the timeout).
template <typename Fn>
std::string outcome_in_child(Fn fn, ChildLimits limits) {
  const testing::ChildResult result = testing::run_in_child([&](std::string& outcome) {
    if (limits.extra_address_space > 0) {
      const rlim_t cap = address_space_in_use() + limits.extra_address_space;
      const rlimit limit{cap, cap};
      if (setrlimit(RLIMIT_AS, &limit) != 0) {
        outcome = "setrlimit failed";
        return 0;
      }
    }
    alarm(limits.timeout_seconds);
    try {
      fn();
      outcome = "returned";
    } catch (const Error& e) {
      outcome = std::string("accel::Error: ") + e.what();
    } catch (const std::bad_alloc&) {
      outcome = "std::bad_alloc";
    } catch (const std::exception& e) {
      outcome = std::string("exception: ") + e.what();
    }
    return 0;
  });
  if (result.signal != 0) return "killed by signal " + std::to_string(result.signal);
  return result.message;
}

}  // namespace accel::testing_data
