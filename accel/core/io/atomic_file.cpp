// AtomicFileWriter over POSIX calls: open/write/fsync/rename, then an fsync of the directory so
// the rename itself survives a crash. Every failing call raises accel::Error naming the file.
// The removal of dead writers' temporaries works on names relative to open directories
// (openat/unlinkat with O_NOFOLLOW), so a link swapped in meanwhile is never followed.
#include "accel/core/io/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

#include "accel/base/error.h"

namespace accel::io {
namespace {

constexpr const char* kOp = "write_file";
// Between a path and the writer's process id in the name of its temporary.
constexpr std::string_view kTemporaryInfix = ".tmp-";

[[noreturn]] void fail_errno(const char* what, const std::string& path) {
  fail(kOp, "cannot {} \"{}\": {}", what, path, std::strerror(errno));
}

std::string directory_of(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

using Directory = std::unique_ptr<DIR, int (*)(DIR*)>;

// The directory open at `fd` (which it then owns), for listing; null if it cannot be read.
Directory open_listing(int fd) {
  DIR* dir = fd < 0 ? nullptr : ::fdopendir(fd);
  if (dir == nullptr && fd >= 0) ::close(fd);
  return Directory(dir, ::closedir);
}

bool is_dot_or_dot_dot(const char* name) {
  return std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0;
}

// Removes `name` from the directory open at `parent`, a directory with everything in it. Each
// directory is opened with O_NOFOLLOW relative to its parent and each link is unlinked itself,
// so nothing outside the tree is ever touched.
void remove_tree(int parent, const char* name) noexcept {
  if (::unlinkat(parent, name, 0) == 0 || errno != EISDIR) return;
  {
    Directory dir =
        open_listing(::openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!dir) return;
    while (const dirent* entry = ::readdir(dir.get())) {
      if (!is_dot_or_dot_dot(entry->d_name)) remove_tree(::dirfd(dir.get()), entry->d_name);
    }
  }
  ::unlinkat(parent, name, AT_REMOVEDIR);
}

// The process id in `name` when it is exactly "<base>.tmp-<pid>", the pid in decimal as
// temporary_path writes it (no sign, no leading zero, nothing after).
std::optional<pid_t> temporary_pid(std::string_view name, std::string_view base) {
  if (!name.starts_with(base) || !name.substr(base.size()).starts_with(kTemporaryInfix)) return {};
  const std::string_view digits = name.substr(base.size() + kTemporaryInfix.size());
  if (digits.empty() || digits.front() < '1' || digits.front() > '9') return {};
  pid_t pid = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
  if (error != std::errc() || end != digits.data() + digits.size()) return {};
  return pid;
}

// Whether the writer with process id `pid` can no longer be writing its temporary.
bool writer_is_gone(pid_t pid) {
  return pid == ::getpid() || (::kill(pid, 0) == -1 && errno == ESRCH);
}

}  // namespace

std::string temporary_path(const std::string& path, pid_t pid) {
  return path + std::string(kTemporaryInfix) + std::to_string(pid);
}

void remove_dead_temporaries(const std::string& path, TemporaryKind kind) {
  const std::string base = name_of(path);
  Directory dir =
      open_listing(::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir) return;
  const int dir_fd = ::dirfd(dir.get());
  while (const dirent* entry = ::readdir(dir.get())) {
    const std::optional<pid_t> pid = temporary_pid(entry->d_name, base);
    if (!pid || !writer_is_gone(*pid)) continue;
    struct stat info;
    if (::fstatat(dir_fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
    const bool ours = kind == TemporaryKind::kFile ? S_ISREG(info.st_mode) : S_ISDIR(info.st_mode);
    if (ours) remove_tree(dir_fd, entry->d_name);
  }
}

AtomicFileWriter::AtomicFileWriter(std::string path)
    : path_(std::move(path)), temp_path_(temporary_path(path_, ::getpid())) {
  ACCEL_CHECK(!path_.empty(), kOp, "the path must not be empty");
  remove_dead_temporaries(path_, TemporaryKind::kFile);
  // O_EXCL | O_NOFOLLOW: never write through something already there under the temporary's name.
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
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
      fail_errno("write", path_);
    }
    bytes += written;
    size -= static_cast<size_t>(written);
  }
}

void AtomicFileWriter::commit() {
  ACCEL_CHECK(fd_ >= 0, kOp, "\"{}\" is already committed", path_);
  if (::fsync(fd_) != 0) fail_errno("write", path_);
  int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail_errno("write", path_);
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
