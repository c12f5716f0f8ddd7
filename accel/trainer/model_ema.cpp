// ModelEma: shadow copies of a model's state_dict, the EMA update over them, and the swap
// that lends them to the model.
#include "accel/trainer/model_ema.h"

#include "accel/base/error.h"
#include "accel/core/autograd/grad_mode.h"

namespace accel {
namespace {

// Detached copies of every entry, under the same names.
nn::OrderedDict<Tensor> clone_state(const nn::Module& model) {
  nn::OrderedDict<Tensor> copy;
  for (const auto& [name, value] : model.state_dict()) copy.insert(name, value.clone());
  return copy;
}

}  // namespace

ModelEma::ModelEma(const nn::Module& model, double decay)
    : decay_(decay), average_(clone_state(model)) {
  ACCEL_CHECK(decay >= 0 && decay <= 1, "ModelEma", "expected decay in [0, 1], found {}", decay);
}

void ModelEma::update(const nn::Module& model) {
  NoGradGuard no_grad;
  const nn::OrderedDict<Tensor> current = model.state_dict();
  ACCEL_CHECK(current.size() == average_.size(), "ModelEma::update",
              "expected a model with the {} state_dict entries the average started from, found {}",
              average_.size(), current.size());
  for (const auto& [name, value] : current) {
    Tensor* average = average_.find(name);
    ACCEL_CHECK(average != nullptr, "ModelEma::update",
                "expected the state_dict entries the average started from, found an extra '{}'",
                name);
    ACCEL_CHECK(average->sizes() == value.sizes(), "ModelEma::update",
                "expected '{}' of shape {}, found {}", name, average->sizes(), value.sizes());
    // The model may have moved since the average began (a Trainer moves it to its device).
    if (average->device() != value.device()) *average = average->to(value.device());
    if (average->is_floating_point()) {
      average->mul_(decay_).add_(value, 1.0 - decay_);
    } else {
      average->copy_(value);
    }
  }
}

void ModelEma::copy_to(nn::Module& model) const { model.load_state_dict(average_); }

ModelEma::Swap::Swap(const ModelEma& ema, nn::Module& model)
    : model_(model), original_(clone_state(model)) {
  ema.copy_to(model_);
}

ModelEma::Swap::~Swap() { model_.load_state_dict(original_); }

}  // namespace accel
