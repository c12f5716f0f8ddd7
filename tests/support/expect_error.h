// expect_error_containing: asserts that a call throws accel::Error whose message contains a
// given text (the op's name, a shape, a value), the way every misuse test checks messages.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "accel/core/error.h"

namespace accel::testing {

inline void expect_error_containing(const std::function<void()>& fn, const std::string& text) {
  try {
    fn();
    ADD_FAILURE() << "expected an accel::Error containing \"" << text << "\"";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

}  // namespace accel::testing
