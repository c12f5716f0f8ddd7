// Device: where a tensor's memory lives (CPU, or a CUDA device by index).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <iosfwd>
#include <string>

namespace accel {

enum class DeviceType : int8_t { CPU, CUDA };
inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;

// Device indices a Device can hold (the runtime also rejects indices beyond the machine's
// devices, when a tensor is first placed there).
inline constexpr int kMaxCudaDevices = 64;

struct Device {
  DeviceType type = kCPU;
  int8_t index = 0;

  constexpr Device() = default;
  constexpr Device(DeviceType t, int i = 0) : type(t), index(static_cast<int8_t>(i)) {}
  // "cpu", "cuda", "cuda:1" (as torch.device); anything else is an accel::Error.
  explicit Device(const std::string& spec);

  constexpr bool is_cpu() const { return type == kCPU; }
  constexpr bool is_cuda() const { return type == kCUDA; }
  constexpr bool operator==(const Device&) const = default;
  std::string str() const { return is_cpu() ? "cpu" : fmt::format("cuda:{}", index); }
};

std::ostream& operator<<(std::ostream& out, const Device& device);  // "cpu", "cuda:1"

}  // namespace accel

template <>
struct fmt::formatter<accel::Device> : fmt::formatter<std::string> {
  auto format(const accel::Device& d, format_context& ctx) const {
    return fmt::formatter<std::string>::format(d.str(), ctx);
  }
};
