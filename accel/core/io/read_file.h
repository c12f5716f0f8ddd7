// Reading a whole file as a hostile or unlucky input may be: only a regular file is read (a
// directory, named pipe or device is an error, never a hang), no more than a stated number of
// bytes, and every failure is an accel::Error naming the op and the path.
#pragma once

#include <cstdint>
#include <string>

namespace accel::io {

// The contents of the regular file at `path`; a file larger than max_bytes is an error saying
// both sizes.
std::string read_file(const std::string& path, const char* op, uint64_t max_bytes);

}  // namespace accel::io
