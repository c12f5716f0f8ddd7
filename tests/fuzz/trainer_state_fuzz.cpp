// Fuzz target: trainer_state.json, the Trainer's own part of a training state (position, RNG,
// run history, loss tracker, loss scaler), read by train(.resume_from = dir). The other files
// of the directory are a valid state saved mid-epoch by the same run, written once.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>

#include "fuzz_support.h"
#include "tiny_run.h"

namespace {

// The files of a valid mid-epoch training state (pending gradients included), by name.
const std::map<std::string, std::string>& valid_state_files() {
  static const std::map<std::string, std::string> files = [] {
    const std::string dir = accel::fuzz::scratch().file("saved-state");
    accel::fuzz::tiny_training_run(std::nullopt,
                                   {std::make_shared<accel::fuzz::SaveTrainingStateAt>(dir, 0, 1)});
    std::map<std::string, std::string> out;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      out[entry.path().filename().string()] = accel::fuzz::read_whole_file(entry.path().string());
    }
    return out;
  }();
  return files;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  valid_state_files();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string dir = accel::fuzz::scratch().file("state");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directory(dir);
  for (const auto& [name, bytes] : valid_state_files()) {
    accel::fuzz::write_file(dir + "/" + name, bytes);
  }
  accel::fuzz::write_file(dir + "/trainer_state.json", accel::fuzz::as_bytes(data, size));
  accel::fuzz::expect_accel_errors_only([&] { accel::fuzz::tiny_training_run(dir); });
  return 0;
}
