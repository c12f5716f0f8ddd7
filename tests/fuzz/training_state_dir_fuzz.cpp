// Fuzz target: a whole training-state directory (checkpoint.json, trainer_state.json, model,
// optimizer, scheduler and gradient files; any of them missing, or a directory in a file's
// place), read by train(.resume_from = dir). The input is the directory in the text framing
// of directory_framing.h; only the names a training state uses are written.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

#include "directory_framing.h"
#include "fuzz_support.h"
#include "tiny_run.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string dir = accel::fuzz::scratch().file("state");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  const auto& known = accel::fuzz::training_state_files();
  std::set<std::string> written;  // the first section of a name wins, file or directory
  for (const auto& [name, bytes] : accel::fuzz::unframe_files(accel::fuzz::as_bytes(data, size))) {
    const bool as_directory = name.ends_with('/');
    const std::string file = as_directory ? name.substr(0, name.size() - 1) : name;
    if (std::find(known.begin(), known.end(), file) == known.end()) continue;
    if (!written.insert(file).second) continue;
    if (as_directory) {
      std::filesystem::create_directory(dir + "/" + file);
    } else {
      accel::fuzz::write_file(dir + "/" + file, bytes);
    }
  }
  accel::fuzz::expect_accel_errors_only([&] { accel::fuzz::tiny_training_run(dir); });
  return 0;
}
