// Padding layers (torch.nn's ZeroPad1d/2d/3d, ConstantPad, ReflectionPad, ReplicationPad and
// CircularPad in 1, 2 and 3 dims): F::pad with the layer's mode, over the last D dims.
#pragma once

#include <vector>

#include "accel/nn/functional/pad.h"
#include "accel/nn/module.h"

namespace accel::nn {

// padding: one value for every side, or 2 * Dims values (left, right, top, bottom, front,
// back), as F::pad reads them; `layer` names the layer in errors.
template <int64_t Dims, functional::PadMode Mode>
class PadLayer : public Module {
 public:
  PadLayer(IntArrayRef padding_, double value_, const char* layer)
      : padding(padding_.size() == 1 ? std::vector<int64_t>(2 * Dims, padding_[0])
                                     : padding_.vec()),
        value(value_) {
    ACCEL_CHECK(padding.size() == 2 * Dims, layer, "padding must be one value or {}, got {}",
                2 * Dims, padding_);
  }
  Tensor forward(const Tensor& input) override {
    return functional::pad(input, functional::PadFuncOptions(padding).mode(Mode).value(value));
  }
  std::string extra_repr() const override {
    if (Mode != functional::PadMode::Constant) return fmt::format("padding={}", padding);
    return fmt::format("padding={}, value={}", padding, value);
  }
  std::vector<int64_t> padding;
  double value;
};

// Name{1,2,3}d: ZeroPad fills with 0, ConstantPad with its value; the others take the padding.
#define ACCEL_DECLARE_PAD(Name, Dims, Mode)                                   \
  class Name##Impl : public PadLayer<Dims, functional::PadMode::Mode> {       \
   public:                                                                    \
    explicit Name##Impl(IntArrayRef padding) : PadLayer(padding, 0, #Name) {} \
  };                                                                          \
  ACCEL_MODULE(Name)
#define ACCEL_DECLARE_PADS(Dims)                                                          \
  ACCEL_DECLARE_PAD(ZeroPad##Dims##d, Dims, Constant);                                    \
  ACCEL_DECLARE_PAD(ReflectionPad##Dims##d, Dims, Reflect);                               \
  ACCEL_DECLARE_PAD(ReplicationPad##Dims##d, Dims, Replicate);                            \
  ACCEL_DECLARE_PAD(CircularPad##Dims##d, Dims, Circular);                                \
  class ConstantPad##Dims##dImpl : public PadLayer<Dims, functional::PadMode::Constant> { \
   public:                                                                                \
    ConstantPad##Dims##dImpl(IntArrayRef padding, double value)                           \
        : PadLayer(padding, value, "ConstantPad" #Dims "d") {}                            \
  };                                                                                      \
  ACCEL_MODULE(ConstantPad##Dims##d)

ACCEL_DECLARE_PADS(1);
ACCEL_DECLARE_PADS(2);
ACCEL_DECLARE_PADS(3);

#undef ACCEL_DECLARE_PADS
#undef ACCEL_DECLARE_PAD

}  // namespace accel::nn
