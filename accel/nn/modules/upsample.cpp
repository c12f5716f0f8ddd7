// nn::Upsample's printed form: its size or scale factor and its mode.
#include "accel/nn/modules/upsample.h"

#include <fmt/ranges.h>

namespace accel::nn {

std::string UpsampleImpl::extra_repr() const {
  const char* mode = functional::mode_name(options.mode_);
  if (options.size_) return fmt::format("size={}, mode={}", *options.size_, mode);
  if (options.scale_factor_) {
    return fmt::format("scale_factor={}, mode={}", *options.scale_factor_, mode);
  }
  return fmt::format("mode={}", mode);
}

}  // namespace accel::nn
