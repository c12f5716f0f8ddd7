// Device parsing and the CUDA availability queries (answered by the CUDA backend when it
// is compiled in; a CUDA-less build has no devices).
#include "accel/core/device.h"

#include "accel/core/error.h"

namespace accel {

Device::Device(const std::string& spec) {
  if (spec == "cpu") return;
  if (spec == "cuda") {
    type = kCUDA;
    return;
  }
  if (spec.rfind("cuda:", 0) == 0 && spec.size() > 5 &&
      spec.find_first_not_of("0123456789", 5) == std::string::npos && spec.size() <= 8) {
    type = kCUDA;
    index = static_cast<int8_t>(std::stoi(spec.substr(5)));
    return;
  }
  fail("Device", "expected \"cpu\", \"cuda\" or \"cuda:N\", got \"{}\"", spec);
}

#ifndef ACCEL_WITH_CUDA
bool cuda_is_compiled() { return false; }
int cuda_device_count() { return 0; }
#endif

}  // namespace accel
