// AtomicFileWriter over POSIX calls: open/write/fsync/rename, then an fsync of the directory so
// the rename itself survives a crash. Every failing call raises accel::Error naming the file.
#include "accel/core/io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "accel/base/error.h"

namespace accel::io {
namespace {

constexpr const char* kOp = "write_file";

[[noreturn]] void fail_errno(const char* what, const std::string& path) {
  fail(kOp, "cannot {} \"{}\": {}", what, path, std::strerror(errno));
}

std::string directory_of(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string path)
    : path_(std::move(path)), temp_path_(path_ + ".tmp-" + std::to_string(::getpid())) {
  ACCEL_CHECK(!path_.empty(), kOp, "the path must not be empty");
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail_errno("create", temp_path_);
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_) abandon();
}

void AtomicFileWriter::write(const void* data, size_t size) {
  ACCEL_CHECK(fd_ >= 0, kOp, "\"{}\" is already committed", path_);
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t written = ::write(fd_, bytes, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      fail_errno("write", temp_path_);
    }
    bytes += written;
    size -= static_cast<size_t>(written);
  }
}

void AtomicFileWriter::commit() {
  ACCEL_CHECK(fd_ >= 0, kOp, "\"{}\" is already committed", path_);
  if (::fsync(fd_) != 0) fail_errno("flush", temp_path_);
  int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail_errno("close", temp_path_);
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) fail_errno("rename onto", path_);
  committed_ = true;
  // Best effort: some file systems refuse fsync on directories, and the data is in place.
  int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void AtomicFileWriter::abandon() noexcept {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  ::unlink(temp_path_.c_str());
}

}  // namespace accel::io
