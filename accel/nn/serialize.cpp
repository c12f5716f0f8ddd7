// Module::save and Module::load: a module's state_dict as a safetensors file, so checkpoints
// are interchangeable with PyTorch's safetensors.torch.save_file / load_file.
#include "accel/core/io/in_file.h"
#include "accel/core/io/safetensors.h"
#include "accel/nn/module.h"

namespace accel::nn {

void Module::save(const std::string& path) const {
  const OrderedDict<Tensor> state = state_dict();
  io::save_safetensors(path, io::NamedTensors(state.begin(), state.end()));
}

OrderedDict<Tensor> Module::read_state_dict(const std::string& path) {
  io::SafetensorsContents contents = io::load_safetensors(path);
  OrderedDict<Tensor> state;
  for (auto& [name, tensor] : contents.tensors) state.insert(name, std::move(tensor));
  return state;
}

void Module::load(const std::string& path, bool strict) {
  const OrderedDict<Tensor> state = read_state_dict(path);
  in_file("Module::load", path, [&] { load_state_dict(state, strict); });
}

}  // namespace accel::nn
