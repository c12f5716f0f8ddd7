// Helpers shared by the serialization and loss-module tests: a scratch directory removed at
// the end of a test, and the message of the accel::Error a call throws.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "accel/base/error.h"

namespace accel::testing_io {

// A fresh directory under GoogleTest's temp dir, deleted with its contents on destruction.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(::testing::TempDir()) /
            (std::string("accel_") + info->test_suite_name() + "_" + info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Names of the entries in the directory (to spot leftover temporaries).
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& entry : std::filesystem::directory_iterator(path_)) {
      out.push_back(entry.path().filename().string());
    }
    return out;
  }

 private:
  std::filesystem::path path_;
};

// The message of the accel::Error that fn() throws; a test failure if it throws none.
template <typename Fn>
std::string error_message(Fn fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an accel::Error";
  return "";
}

}  // namespace accel::testing_io

// EXPECT that `msg` contains `part`, showing the whole message otherwise.
#define EXPECT_CONTAINS(msg, part)                          \
  EXPECT_NE(std::string(msg).find(part), std::string::npos) \
      << "'" << (part) << "' not in: " << (msg)
