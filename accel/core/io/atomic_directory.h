// AtomicDirectoryWriter: builds a directory of files (a checkpoint, a training state) next to
// its destination and swaps it into place in one step, so readers — and a crash midway — see
// either the complete old directory or the complete new one.
#pragma once

#include <string>

namespace accel::io {

class AtomicDirectoryWriter {
 public:
  // Creates "<path>.tmp-<pid>" to write the files into, after removing the temporaries of dead
  // writers of path (see remove_dead_temporaries). Trailing slashes of path are ignored.
  explicit AtomicDirectoryWriter(std::string path);
  // Without commit() (an error midway) the temporary directory is removed.
  ~AtomicDirectoryWriter();
  AtomicDirectoryWriter(const AtomicDirectoryWriter&) = delete;
  AtomicDirectoryWriter& operator=(const AtomicDirectoryWriter&) = delete;

  // Where to write file `name` before commit().
  std::string file(const std::string& name) const { return temp_path_ + "/" + name; }
  // Puts the directory in place: an existing one at path is exchanged atomically
  // (renameat2 RENAME_EXCHANGE) and then deleted.
  void commit();

 private:
  std::string path_;
  std::string temp_path_;
  bool committed_ = false;
};

}  // namespace accel::io
