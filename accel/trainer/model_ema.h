// ModelEma: an exponential moving average of a model's parameters and buffers (timm's
// ModelEmaV2 update), kept as shadow tensors because accel modules cannot be deep-copied. The
// average is used by swapping it into the model for a while (ModelEma::Swap).
#pragma once

#include "accel/core/tensor.h"
#include "accel/nn/module.h"
#include "accel/nn/ordered_dict.h"

namespace accel {

class ModelEma {
 public:
  // Starts the average at the model's current state_dict. decay in [0, 1].
  explicit ModelEma(const nn::Module& model, double decay = 0.99);

  // ema = decay * ema + (1 - decay) * value for floating-point entries; other entries (step
  // counters) take the model's value. The model must have the state_dict the average started
  // from (same names and shapes).
  void update(const nn::Module& model);
  // Writes the average into the model's tensors in place (optimizers stay valid).
  void copy_to(nn::Module& model) const;

  double decay() const { return decay_; }
  // The averaged state, under the model's state_dict names.
  const nn::OrderedDict<Tensor>& state_dict() const { return average_; }

  // Puts the average into `model` for the scope's lifetime and restores the model's own
  // values afterwards: `{ ModelEma::Swap swap(ema, model); evaluate(model); }`.
  class Swap {
   public:
    Swap(const ModelEma& ema, nn::Module& model);
    ~Swap();
    Swap(const Swap&) = delete;
    Swap& operator=(const Swap&) = delete;

   private:
    nn::Module& model_;
    nn::OrderedDict<Tensor> original_;
  };

 private:
  double decay_;
  nn::OrderedDict<Tensor> average_;
};

}  // namespace accel
