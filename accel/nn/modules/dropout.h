// Dropout layers: Dropout (elements), Dropout1d/2d/3d (whole channels), AlphaDropout and
// FeatureAlphaDropout (for SELU networks). In training each applies its functional form with
// probability p; in eval it is the identity. p is checked when the layer is built.
#pragma once

#include "accel/core/random.h"
#include "accel/nn/functional/dropout.h"
#include "accel/nn/module.h"

namespace accel::nn {

// What the dropout layers share: p, its check, and forward = Function(input, p, training).
template <Tensor (*Function)(const Tensor&, double, bool, Generator*)>
class DropoutLayer : public Module {
 public:
  DropoutLayer(double p_, const char* layer) : p(p_) {
    ACCEL_CHECK(p >= 0 && p <= 1, layer, "p must be in [0, 1], got {}", p);
  }
  Tensor forward(const Tensor& input) override {
    return Function(input, p, is_training(), nullptr);
  }
  std::string extra_repr() const override { return fmt::format("p={}", p); }
  double p;
};

class DropoutImpl : public DropoutLayer<&functional::dropout> {
 public:
  explicit DropoutImpl(double p = 0.5) : DropoutLayer(p, "Dropout") {}
};
ACCEL_MODULE(Dropout);

class Dropout1dImpl : public DropoutLayer<&functional::dropout1d> {
 public:
  explicit Dropout1dImpl(double p = 0.5) : DropoutLayer(p, "Dropout1d") {}
};
ACCEL_MODULE(Dropout1d);

class Dropout2dImpl : public DropoutLayer<&functional::dropout2d> {
 public:
  explicit Dropout2dImpl(double p = 0.5) : DropoutLayer(p, "Dropout2d") {}
};
ACCEL_MODULE(Dropout2d);

class Dropout3dImpl : public DropoutLayer<&functional::dropout3d> {
 public:
  explicit Dropout3dImpl(double p = 0.5) : DropoutLayer(p, "Dropout3d") {}
};
ACCEL_MODULE(Dropout3d);

class AlphaDropoutImpl : public DropoutLayer<&functional::alpha_dropout> {
 public:
  explicit AlphaDropoutImpl(double p = 0.5) : DropoutLayer(p, "AlphaDropout") {}
};
ACCEL_MODULE(AlphaDropout);

class FeatureAlphaDropoutImpl : public DropoutLayer<&functional::feature_alpha_dropout> {
 public:
  explicit FeatureAlphaDropoutImpl(double p = 0.5) : DropoutLayer(p, "FeatureAlphaDropout") {}
};
ACCEL_MODULE(FeatureAlphaDropout);

}  // namespace accel::nn
