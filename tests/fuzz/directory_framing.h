// How one fuzz input stands for a directory of files: sections, each a line "@@ NAME" and the
// file's bytes up to the next "\n@@ " (or the end). A NAME ending in '/' makes a directory of
// that name instead of a file. Text-like, so that mutations keep the frame more often than a
// binary length-prefixed one would.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace accel::fuzz {

using FramedFiles = std::vector<std::pair<std::string, std::string>>;

inline constexpr std::string_view kSectionMark = "@@ ";

inline std::string frame_files(const FramedFiles& files) {
  std::string out;
  for (const auto& [name, bytes] : files) {
    if (!out.empty()) out += '\n';
    out.append(kSectionMark).append(name).append("\n").append(bytes);
  }
  return out;
}

// The sections of `input` in order (names not checked; a section without a name line is
// skipped, as are bytes before the first section).
inline FramedFiles unframe_files(std::string_view input) {
  FramedFiles out;
  const std::string separator = "\n" + std::string(kSectionMark);
  size_t start;
  if (input.starts_with(kSectionMark)) {
    start = 0;
  } else {
    start = input.find(separator);
    if (start == std::string_view::npos) return out;
    start += 1;
  }
  while (start != std::string_view::npos) {
    size_t end = input.find(separator, start);
    const std::string_view section =
        input.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    const size_t name_end = section.find('\n');
    if (name_end != std::string_view::npos) {
      out.emplace_back(
          std::string(section.substr(kSectionMark.size(), name_end - kSectionMark.size())),
          std::string(section.substr(name_end + 1)));
    }
    start = end == std::string_view::npos ? end : end + 1;
  }
  return out;
}

}  // namespace accel::fuzz
