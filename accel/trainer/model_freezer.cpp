// ModelFreezer: layer groups and their leaf layers found once at construction; freezing and
// unfreezing walk the layers of the chosen groups, as the original's __freeze_unfreeze.
#include "accel/trainer/model_freezer.h"

#include <algorithm>
#include <map>

#include "accel/base/error.h"
#include "accel/nn/modules/normalization.h"

namespace accel {
namespace {

void collect_layers(const std::shared_ptr<nn::Module>& module, int64_t group,
                    std::vector<std::pair<int64_t, std::shared_ptr<nn::Module>>>& layers) {
  const auto children = module->children();
  if (children.empty()) {
    layers.emplace_back(group, module);
    return;
  }
  for (const auto& child : children) collect_layers(child, group, layers);
}

bool is_batch_norm(const nn::Module& module) {
  return dynamic_cast<const nn::BatchNormImplBase*>(&module) != nullptr;
}

bool any_frozen(const std::vector<Tensor>& params) {
  return std::any_of(params.begin(), params.end(),
                     [](const Tensor& p) { return !p.requires_grad(); });
}

}  // namespace

ModelFreezer::ModelFreezer(nn::Module& model, bool freeze_batch_norms)
    : model_(model), freeze_batch_norms_(freeze_batch_norms), groups_(model.children()) {
  for (Tensor& param : model_.parameters()) param.requires_grad_(true);
  for (size_t i = 0; i < groups_.size(); ++i) {
    collect_layers(groups_[i], static_cast<int64_t>(i), layers_);
  }
}

std::vector<LayerGroup> ModelFreezer::get_layer_groups() const {
  const auto count = static_cast<int64_t>(groups_.size());
  std::vector<LayerGroup> groups;
  for (int64_t i = 0; i < count; ++i) {
    const auto& module = groups_[static_cast<size_t>(i)];
    groups.push_back({i, i - count, module, any_frozen(module->parameters())});
  }
  return groups;
}

std::vector<Layer> ModelFreezer::get_layers() const {
  const auto count = static_cast<int64_t>(groups_.size());
  std::vector<Layer> layers;
  for (const auto& [group, module] : layers_) {
    const std::vector<Tensor> params = module->parameters();
    const bool frozen = any_frozen(params);
    ACCEL_CHECK(!frozen || std::none_of(params.begin(), params.end(),
                                        [](const Tensor& p) { return p.requires_grad(); }),
                "ModelFreezer::get_layers",
                "expected the parameters of a {} layer to be all frozen or all trainable, found a "
                "mix (set requires_grad through the freezer only)",
                module->name());
    layers.push_back(
        {group, group - count, module, params.empty() ? !module->is_training() : frozen});
  }
  return layers;
}

std::vector<Tensor> ModelFreezer::get_trainable_parameters() const {
  std::vector<Tensor> params = model_.parameters();
  std::erase_if(params, [](const Tensor& p) { return !p.requires_grad(); });
  return params;
}

std::vector<Tensor> ModelFreezer::get_frozen_parameters() const {
  std::vector<Tensor> params = model_.parameters();
  std::erase_if(params, [](const Tensor& p) { return p.requires_grad(); });
  return params;
}

void ModelFreezer::freeze(int64_t from_index, int64_t to_index, bool set_modules_as_eval) {
  set_frozen("ModelFreezer::freeze", from_index, to_index, /*freeze=*/true, set_modules_as_eval);
}

std::vector<optim::OptimizerParamGroup> ModelFreezer::unfreeze(int64_t from_index, int64_t to_index,
                                                               bool set_modules_as_training) {
  return set_frozen("ModelFreezer::unfreeze", from_index, to_index, /*freeze=*/false,
                    set_modules_as_training);
}

std::vector<optim::OptimizerParamGroup> ModelFreezer::set_frozen(const char* op, int64_t from_index,
                                                                 int64_t to_index, bool freeze,
                                                                 bool set_mode) {
  int64_t first = front_index(op, from_index);
  int64_t last = front_index(op, to_index);
  if (first > last) std::swap(first, last);
  std::map<int64_t, std::vector<Tensor>> changed;
  for (const Layer& layer : get_layers()) {
    if (layer.group_index < first || layer.group_index > last) continue;
    if (layer.is_frozen == freeze) continue;
    if (is_batch_norm(*layer.module) && !freeze_batch_norms_) continue;
    std::vector<Tensor> params = layer.module->parameters();
    for (Tensor& param : params) param.requires_grad_(!freeze);
    if (set_mode) layer.module->train(!freeze);
    auto& group = changed[layer.group_index];
    group.insert(group.end(), params.begin(), params.end());
  }
  std::vector<optim::OptimizerParamGroup> groups;
  for (auto& [index, params] : changed) {
    if (!params.empty()) groups.emplace_back(std::move(params));
  }
  return groups;
}

int64_t ModelFreezer::front_index(const char* op, int64_t index) const {
  const auto count = static_cast<int64_t>(groups_.size());
  ACCEL_CHECK(index >= -count && index < count, op,
              "expected a layer group index in [{}, {}) for a model with {} layer groups, found {}",
              -count, count, count, index);
  return index < 0 ? index + count : index;
}

}  // namespace accel
