// Reading ACCEL_NUM_THREADS and OMP_NUM_THREADS: std::from_chars on the first list entry.
#include "accel/kernels/cpu/thread_count_from_environment.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace accel {

std::optional<int> thread_count_from_environment(std::string& warning) {
  constexpr int kMaxThreads = 4096;
  warning.clear();
  for (const char* variable : {"ACCEL_NUM_THREADS", "OMP_NUM_THREADS"}) {
    const char* text = std::getenv(variable);
    if (text == nullptr || *text == '\0') continue;
    std::string_view first(text);
    first = first.substr(0, first.find(','));
    int count = 0;
    const auto [end, error] = std::from_chars(first.data(), first.data() + first.size(), count);
    if (error == std::errc() && end == first.data() + first.size() && count >= 1 &&
        count <= kMaxThreads) {
      return count;
    }
    warning = std::string(variable) + "='" + text +
              "' is not a whole number of threads in [1, 4096]; ignored";
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace accel
