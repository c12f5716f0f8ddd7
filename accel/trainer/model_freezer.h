// ModelFreezer: freezes and unfreezes a model's layer groups (its top-level children) for
// transfer learning, as pytorch-accelerated's finetuning.ModelFreezer, with its argument swap
// fixed (the original's freeze(set_modules_as_eval = true) froze nothing).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "accel/nn/module.h"
#include "accel/optim/optimizer.h"

namespace accel {

// A layer group is a top-level child of the model; a layer is a module without children inside
// one. Indices count groups from the front (index) and from the back (negative_index, -1 last).
struct LayerGroup {
  int64_t index;
  int64_t negative_index;
  std::shared_ptr<nn::Module> module;
  bool is_frozen;  // some parameter of the group does not require gradients
};

struct Layer {
  int64_t group_index;
  int64_t group_negative_index;
  std::shared_ptr<nn::Module> module;
  // Parameters not requiring gradients; for a layer without parameters, eval mode.
  bool is_frozen;
};

class ModelFreezer {
 public:
  // Makes every parameter of `model` trainable; the freezer then owns its frozen state. BatchNorm
  // layers are left alone by freeze/unfreeze unless freeze_batch_norms.
  explicit ModelFreezer(nn::Module& model, bool freeze_batch_norms = false);

  std::vector<LayerGroup> get_layer_groups() const;
  std::vector<Layer> get_layers() const;
  std::vector<Tensor> get_trainable_parameters() const;
  std::vector<Tensor> get_frozen_parameters() const;

  // Freezes the layer groups from_index..to_index (inclusive, either order, negative counting
  // from the back; by default all but the last), putting them in eval mode if asked.
  void freeze(int64_t from_index = 0, int64_t to_index = -2, bool set_modules_as_eval = false);
  // Unfreezes the layer groups from_index..to_index (by default all), putting them in train mode
  // if asked. Returns the newly trainable parameters, one group per layer group that had any,
  // front to back, for optimizer.add_param_group.
  std::vector<optim::OptimizerParamGroup> unfreeze(int64_t from_index = -1, int64_t to_index = 0,
                                                   bool set_modules_as_training = true);

 private:
  std::vector<optim::OptimizerParamGroup> set_frozen(const char* op, int64_t from_index,
                                                     int64_t to_index, bool freeze, bool set_mode);
  // `index` as a front index; an error outside [-groups, groups).
  int64_t front_index(const char* op, int64_t index) const;

  nn::Module& model_;
  bool freeze_batch_norms_;
  std::vector<std::shared_ptr<nn::Module>> groups_;
  // Each leaf module with the index of its group, in model order.
  std::vector<std::pair<int64_t, std::shared_ptr<nn::Module>>> layers_;
};

}  // namespace accel
