// AtomicDirectoryWriter over std::filesystem and Linux's renameat2(RENAME_EXCHANGE).
#include "accel/core/io/atomic_directory.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "accel/base/error.h"
#include "accel/core/io/atomic_file.h"

namespace accel::io {
namespace {

constexpr const char* kOp = "write_directory";
namespace fs = std::filesystem;

// "dir/state/" names the directory "dir/state": its temporary goes beside it, not inside.
std::string without_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

}  // namespace

AtomicDirectoryWriter::AtomicDirectoryWriter(std::string path)
    : path_(without_trailing_slashes(std::move(path))),
      temp_path_(temporary_path(path_, ::getpid())) {
  ACCEL_CHECK(!path_.empty(), kOp, "the path must not be empty");
  std::error_code error;
  const fs::path parent = fs::path(path_).parent_path();
  if (!parent.empty()) fs::create_directories(parent, error);
  ACCEL_CHECK(!error, kOp, "cannot create the directory \"{}\": {}", parent.string(),
              error.message());
  remove_dead_temporaries(path_, TemporaryKind::kDirectory);
  // mkdir, unlike fs::create_directory, fails on anything already there, a link included.
  if (::mkdir(temp_path_.c_str(), 0755) != 0) {
    fail(kOp, "cannot create \"{}\": {}", temp_path_, std::strerror(errno));
  }
}

AtomicDirectoryWriter::~AtomicDirectoryWriter() {
  if (committed_) return;
  std::error_code ignored;
  fs::remove_all(temp_path_, ignored);
}

void AtomicDirectoryWriter::commit() {
  ACCEL_CHECK(!committed_, kOp, "\"{}\" is already committed", path_);
  std::error_code error;
  const bool exists = fs::exists(path_, error);
  if (exists) {
    ACCEL_CHECK(fs::is_directory(path_, error), kOp,
                "\"{}\" exists and is not a directory; refusing to replace it", path_);
    if (::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, path_.c_str(), RENAME_EXCHANGE) != 0) {
      fail(kOp, "cannot exchange \"{}\" with \"{}\": {}", temp_path_, path_, std::strerror(errno));
    }
    committed_ = true;
    fs::remove_all(temp_path_, error);  // now the old directory
  } else {
    if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
      fail(kOp, "cannot rename \"{}\" to \"{}\": {}", temp_path_, path_, std::strerror(errno));
    }
    committed_ = true;
  }
  int dir = ::open(fs::absolute(path_).parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace accel::io
