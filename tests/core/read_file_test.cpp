// read_file, the one way accel's readers take a file in: regular files only (a directory or a
// named pipe is an error, never a hang), a size limit, and errors naming the path.
#include "accel/core/io/read_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/expect_error.h"

namespace accel {
namespace {

using testing::expect_error_containing;

std::string fresh_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "accel_read_file_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ReadFile, ReadsARegularFileWhole) {
  const std::string path = fresh_dir("regular") + "/data.bin";
  const std::string contents("bytes\0with a zero", 17);
  std::ofstream(path, std::ios::binary) << contents;
  EXPECT_EQ(io::read_file(path, "test", 1024), contents);
  EXPECT_EQ(io::read_file(path, "test", contents.size()), contents);
}

TEST(ReadFile, RefusesWhatIsNotARegularFile) {
  const std::string dir = fresh_dir("kinds");
  expect_error_containing([&] { io::read_file(dir, "load", 1024); },
                          "load: \"" + dir + "\" is a directory, not a regular file");
  const std::string fifo = dir + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Opening a FIFO for reading would wait for a writer: this must return at once.
  expect_error_containing([&] { io::read_file(fifo, "load", 1024); }, "is a named pipe");
  expect_error_containing([&] { io::read_file(dir + "/missing", "load", 1024); },
                          "cannot open \"" + dir + "/missing\": No such file");
}

TEST(ReadFile, RefusesFilesBeyondTheLimit) {
  const std::string path = fresh_dir("limit") + "/big.bin";
  std::ofstream(path, std::ios::binary) << std::string(100, 'x');
  expect_error_containing([&] { io::read_file(path, "load", 99); },
                          "holds 100 bytes, more than the 99 this reader accepts");
}

}  // namespace
}  // namespace accel
