// AtomicFileWriter: writes a file so that readers see either the old content or the complete
// new one, never a torn mix. Bytes go to "<path>.tmp-<pid>", which commit() fsyncs and renames
// over path; a writer destroyed without commit() (an error midway) removes the temporary, and
// the next writer of path removes those that killed processes left behind.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

namespace accel::io {

// Where the writer in process `pid` puts the new content of `path` until it commits.
std::string temporary_path(const std::string& path, pid_t pid);

// What a temporary of a path is: a file (AtomicFileWriter) or a directory (AtomicDirectoryWriter).
enum class TemporaryKind { kFile, kDirectory };

// Removes what writers of `path` left when killed midway (SIGKILL, OOM, preemption): entries
// named exactly temporary_path(path, pid), of the given kind, whose process no longer exists —
// or is this one, whose earlier writers removed their own, so the entry is from a dead process
// that had the same id. Symbolic links are never followed: a link named like a temporary is
// not one and stays; links inside a removed directory are removed themselves. Best effort: a
// leftover costs disk space, not correctness, so failures are ignored.
void remove_dead_temporaries(const std::string& path, TemporaryKind kind);

class AtomicFileWriter {
 public:
  // Creates the temporary next to `path` (same directory, so the rename stays atomic).
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(const void* data, size_t size);
  // Flushes to disk and renames the temporary over the destination.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  // Closes the descriptor if open and deletes the temporary.
  void abandon() noexcept;

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace accel::io
