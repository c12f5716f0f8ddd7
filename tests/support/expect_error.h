// How misuse tests read errors: expect_error_containing asserts that a call throws
// accel::Error whose message contains a given text (the op's name, a shape, a value);
// error_of returns the message for finer checks.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "accel/base/error.h"

namespace accel::testing {

// The message of the accel::Error that `f` throws ("" if it throws none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

inline void expect_error_containing(const std::function<void()>& fn, const std::string& text) {
  try {
    fn();
    ADD_FAILURE() << "expected an accel::Error containing \"" << text << "\"";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

}  // namespace accel::testing
