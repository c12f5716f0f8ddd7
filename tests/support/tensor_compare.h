// How tests compare a tensor with the one it should equal: to a tolerance or bit for bit,
// element by element on the CPU, naming the first elements that differ. One definition for every
// test that checks one computation against another (a device against the CPU, an op against its
// PyTorch fixture), so that each test states only its tolerance and why.
#pragma once

#include <string>

#include "accel/accel.h"

namespace accel::testing {

// How far a result may be from the expected value e: |result - e| <= atol + rtol * |e|.
struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

// Expects `actual` (on any device) to hold `expected`'s values: the same sizes and, element by
// element in float64, NaN where `expected` is NaN, `expected`'s infinities exactly, and
// elsewhere |actual - expected| <= tol.atol * scale + tol.rtol * |expected|, scale being the
// element of `atol_scale` (a tensor shaped like `expected`), or 1 without one. An integer or
// bool `expected` wants its own dtype and equal values. Floating dtypes may differ (a float32
// result against a float64 reference); expect_matches_cpu checks them too.
void expect_tensors_close(const Tensor& actual, const Tensor& expected, Tolerance tol,
                          const std::string& what, const Tensor& atol_scale = {});

// A device's kernel against the CPU's: `on_device` must still be on its device (no silent
// fallback to the host), have `on_cpu`'s dtype, and hold its values as expect_tensors_close says.
void expect_matches_cpu(const Tensor& on_device, const Tensor& on_cpu, Tolerance tol,
                        const std::string& what, const Tensor& atol_scale = {});

// Expects `actual` (on any device) to hold exactly `expected`'s bits: the same dtype and sizes,
// and every element's bytes (NaN matches only the same NaN, and -0 only -0).
void expect_same_bits(const Tensor& actual, const Tensor& expected, const std::string& what);

}  // namespace accel::testing
