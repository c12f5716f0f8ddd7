// AtomicFileWriter: writes a file so that readers see either the old content or the complete
// new one, never a torn mix. Bytes go to "<path>.tmp-<pid>", which commit() fsyncs and renames
// over path; a writer destroyed without commit() (an error midway) removes the temporary.
#pragma once

#include <cstddef>
#include <string>

namespace accel::io {

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
