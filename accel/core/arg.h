// ACCEL_ARG declares one option of a builder-style options class (LibTorch's TORCH_ARG):
// a chaining setter `opts.name(value)` and a getter `opts.name()`, so options read as
// DataLoaderOptions().batch_size(32).shuffle(true). Follow the macro with `= default;`.
#pragma once

#define ACCEL_ARG(type, name)                  \
 public:                                       \
  auto& name(const type& value) {              \
    name##_ = value;                           \
    return *this;                              \
  }                                            \
  const type& name() const { return name##_; } \
                                               \
 private:                                      \
  type name##_
