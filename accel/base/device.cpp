// Device parsing ("cpu", "cuda", "cuda:N") and printing.
#include "accel/base/device.h"

#include <ostream>

#include "accel/base/error.h"

namespace accel {

Device::Device(const std::string& spec) {
  if (spec == "cpu") return;
  if (spec == "cuda") {
    type = kCUDA;
    return;
  }
  const bool digits = spec.rfind("cuda:", 0) == 0 && spec.size() > 5 &&
                      spec.find_first_not_of("0123456789", 5) == std::string::npos;
  ACCEL_CHECK(digits, "Device", "expected \"cpu\", \"cuda\" or \"cuda:N\", got \"{}\"", spec);
  const std::string number = spec.substr(5);
  ACCEL_CHECK(number.size() <= 3 && std::stoi(number) < kMaxCudaDevices, "Device",
              "device index {} in \"{}\" is out of range (at most {} CUDA devices)", number, spec,
              kMaxCudaDevices);
  type = kCUDA;
  index = static_cast<int8_t>(std::stoi(number));
}

std::ostream& operator<<(std::ostream& out, const Device& device) { return out << device.str(); }

}  // namespace accel
