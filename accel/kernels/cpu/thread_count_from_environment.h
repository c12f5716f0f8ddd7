// The thread count a process asks for through its environment: ACCEL_NUM_THREADS, else
// OMP_NUM_THREADS (its first entry when it lists one per nesting level, "4,2"), as PyTorch
// honours OMP_NUM_THREADS.
#pragma once

#include <optional>
#include <string>

namespace accel {

// The count the environment sets, if any; a value that is not a whole number in [1, 4096] is
// ignored, with the reason in `warning` (set to "" otherwise), as OpenMP ignores one.
std::optional<int> thread_count_from_environment(std::string& warning);

}  // namespace accel
