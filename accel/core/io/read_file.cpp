// read_file: open without blocking (a FIFO would otherwise wait for a writer forever), check
// what was opened is a regular file of acceptable size, then read it whole.
#include "accel/core/io/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "accel/base/error.h"

namespace accel::io {

namespace {

// Closes a file descriptor when it goes out of scope.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a named pipe";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

}  // namespace

std::string read_file(const std::string& path, const char* op, uint64_t max_bytes) {
  const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  ACCEL_CHECK(file.get() >= 0, op, "cannot open \"{}\": {}", path, std::strerror(errno));
  struct stat info {};
  ACCEL_CHECK(::fstat(file.get(), &info) == 0, op, "cannot inspect \"{}\": {}", path,
              std::strerror(errno));
  ACCEL_CHECK(S_ISREG(info.st_mode), op, "\"{}\" is {}, not a regular file", path,
              kind_of(info.st_mode));
  const auto size = static_cast<uint64_t>(info.st_size);
  ACCEL_CHECK(size <= max_bytes, op, "\"{}\" holds {} bytes, more than the {} this reader accepts",
              path, size, max_bytes);
  std::string bytes(static_cast<size_t>(size), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::read(file.get(), bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    ACCEL_CHECK(got >= 0, op, "error reading \"{}\": {}", path, std::strerror(errno));
    ACCEL_CHECK(got > 0, op, "\"{}\" ended after {} of its {} bytes (did it shrink?)", path, done,
                size);
    done += static_cast<size_t>(got);
  }
  return bytes;
}

}  // namespace accel::io
