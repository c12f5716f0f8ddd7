// The IDX reader: every type code, raw and gzip files, and corrupt or hostile inputs (wrong
// magic, sizes that disagree with the file or overflow, truncated or corrupt gzip, gzip bombs,
// missing files, named pipes), plus a bounded fuzz over mutated files that must only ever raise
// accel::Error.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <random>

#include "accel/accel.h"
#include "data/idx_files.h"
#include "data/limited_child.h"
#include "nn/io_test_util.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using testing::expect_error_containing;
using testing_data::ChildLimits;
using testing_data::gzip;
using testing_data::idx_bytes;
using testing_data::kAddressSanitizer;
using testing_data::outcome_in_child;
using testing_data::write_file;

std::string big_endian_bytes(uint64_t value, int bytes) {
  std::string out;
  for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>(value >> shift));
  }
  return out;
}

template <typename T>
uint64_t bits_of(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

TEST(Idx, ReadsUint8RawAndGzipAlike) {
  testing_io::ScratchDir dir;
  const std::string bytes = idx_bytes(0x08, {2, 3}, {1, 2, 3, 4, 5, static_cast<char>(255)});
  write_file(dir.file("raw"), bytes);
  write_file(dir.file("packed.gz"), gzip(bytes));
  write_file(dir.file("packed_without_suffix"), gzip(bytes));
  for (const char* name : {"raw", "packed.gz", "packed_without_suffix"}) {
    const Tensor t = data::read_idx(dir.file(name));
    EXPECT_EQ(t.dtype(), kUInt8);
    EXPECT_EQ(t.sizes(), IntArrayRef({2, 3}));
    EXPECT_TRUE(t.equal(tensor({1, 2, 3, 4, 5, 255}).to(kUInt8).view({2, 3}))) << name;
  }
}

TEST(Idx, ConvertsEveryTypeFromBigEndian) {
  const std::string int8 = idx_bytes(0x09, {2}, {static_cast<char>(-3), 7});
  EXPECT_TRUE(data::parse_idx(int8, "int8").equal(tensor({-3, 7}).to(kInt32)));
  const std::string int16 = idx_bytes(
      0x0B, {2}, big_endian_bytes(static_cast<uint16_t>(-300), 2) + big_endian_bytes(513, 2));
  EXPECT_TRUE(data::parse_idx(int16, "int16").equal(tensor({-300, 513}).to(kInt32)));
  const std::string int32 = idx_bytes(
      0x0C, {2}, big_endian_bytes(static_cast<uint32_t>(-70000), 4) + big_endian_bytes(1 << 20, 4));
  EXPECT_TRUE(data::parse_idx(int32, "int32").equal(tensor({-70000, 1 << 20}).to(kInt32)));
  const std::string f32 = idx_bytes(
      0x0D, {2}, big_endian_bytes(bits_of(1.5f), 4) + big_endian_bytes(bits_of(-0.25f), 4));
  EXPECT_TRUE(data::parse_idx(f32, "f32").equal(tensor({1.5f, -0.25f})));
  const std::string f64 = idx_bytes(0x0E, {1, 1}, big_endian_bytes(bits_of(3.0e-300), 8));
  const Tensor t = data::parse_idx(f64, "f64");
  EXPECT_EQ(t.dtype(), kFloat64);
  EXPECT_EQ(t.sizes(), IntArrayRef({1, 1}));
  EXPECT_EQ(t.item<double>(), 3.0e-300);
}

TEST(Idx, EmptyDimsAndScalars) {
  EXPECT_EQ(data::parse_idx(idx_bytes(0x08, {0, 28}, ""), "empty").sizes(), IntArrayRef({0, 28}));
  EXPECT_EQ(data::parse_idx(idx_bytes(0x08, {}, "x"), "scalar").numel(), 1);
}

TEST(Idx, WrongMagicNamesTheFileAndTheBytes) {
  const std::string message = testing::error_of(
      [] { data::parse_idx(std::string("\x12\x34\x08\x01\0\0\0\0", 8), "f.idx"); });
  EXPECT_NE(message.find("read_idx"), std::string::npos) << message;
  EXPECT_NE(message.find("\"f.idx\""), std::string::npos) << message;
  EXPECT_NE(message.find("0x1234"), std::string::npos) << message;
}

TEST(Idx, UnknownTypeCodeAndShortHeader) {
  expect_error_containing([] { data::parse_idx(idx_bytes(0x0A, {1}, "x"), "f"); }, "found 0x0a");
  expect_error_containing([] { data::parse_idx(std::string(2, '\0'), "f"); },
                          "expected a 4-byte IDX header, found 2 bytes");
  expect_error_containing([] { data::parse_idx(std::string("\0\0\x08\x03\0\0\0\x01", 8), "f"); },
                          "expected 3 dims of 4 bytes");
}

TEST(Idx, CountsThatDisagreeWithTheFileSize) {
  expect_error_containing(
      [] {
        data::parse_idx(idx_bytes(0x08, {2, 3}, "12345"), "f");
      },
      "expected 6 bytes of uint8 data for shape [2, 3], found 5 bytes "
      "(truncated file?)");
  expect_error_containing([] { data::parse_idx(idx_bytes(0x0C, {1}, "12345"), "f"); },
                          "expected 4 bytes of int32 data for shape [1], found more after them");
  // Dims whose product overflows must not wrap around to a small size.
  expect_error_containing(
      [] {
        data::parse_idx(idx_bytes(0x0E, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}, "12345678"), "f");
      },
      "expected dims that (zeros aside) describe at most 4294967296 bytes of data, found shape "
      "[4294967295, 4294967295, 4294967295] of float64");
}

// A header's sizes are checked before anything is allocated: 2^40 elements are refused, and
// so is an empty shape whose other dims would overflow the tensor's strides.
TEST(Idx, HeadersThatImplyTooMuchDataAreRefused) {
  expect_error_containing(
      [] {
        data::parse_idx(idx_bytes(0x08, {1 << 20, 1 << 20}, ""), "f");
      },
      "found shape [1048576, 1048576] of uint8");
  expect_error_containing(
      [] {
        data::parse_idx(idx_bytes(0x08, {0, 0xFFFFFFFF, 0xFFFFFFFF}, ""), "f");
      },
      "found shape [0, 4294967295, 4294967295] of uint8");
  expect_error_containing(
      [] {
        data::parse_idx(idx_bytes(0x0C, {0, 1 << 16, 1 << 15}, ""), "f");
      },
      "found shape [0, 65536, 32768] of int32");
  // At the limit, and empty shapes whose strides stay in range, are fine.
  EXPECT_EQ(data::parse_idx(idx_bytes(0x08, {0xFFFFFFFF, 0}, ""), "f").sizes(),
            IntArrayRef({0xFFFFFFFF, 0}));
  EXPECT_EQ(data::parse_idx(idx_bytes(0x0C, {0, 1 << 15, 1 << 15}, ""), "f").numel(), 0);
}

TEST(Idx, TruncatedAndCorruptGzip) {
  testing_io::ScratchDir dir;
  const std::string packed = gzip(idx_bytes(0x08, {1000}, std::string(1000, 'a')));
  write_file(dir.file("cut.gz"), packed.substr(0, packed.size() / 2));
  expect_error_containing([&] { data::read_idx(dir.file("cut.gz")); }, "truncated");
  // A flipped checksum (the trailer's first bytes): the data decodes, but the stream is not
  // the one written. (Corrupting the deflate data itself may instead decode a bad header.)
  std::string corrupt = packed;
  corrupt[packed.size() - 8] ^= 0x55;
  corrupt[packed.size() - 7] ^= 0xAA;
  write_file(dir.file("corrupt.gz"), corrupt);
  const std::string message = testing::error_of([&] { data::read_idx(dir.file("corrupt.gz")); });
  EXPECT_NE(message.find(dir.file("corrupt.gz")), std::string::npos) << message;
  EXPECT_NE(message.find("expected a complete gzip stream"), std::string::npos) << message;
}

TEST(Idx, ConcatenatedGzipMembersReadAsOneStream) {
  testing_io::ScratchDir dir;
  const std::string bytes = idx_bytes(0x08, {4}, "abcd");
  write_file(dir.file("two.gz"), gzip(bytes.substr(0, 6)) + gzip(bytes.substr(6)));
  EXPECT_EQ(data::read_idx(dir.file("two.gz")).numel(), 4);
  // Members split anywhere, empty ones included, still make one file.
  write_file(dir.file("split.gz"), gzip(bytes.substr(0, 2)) + gzip("") + gzip(bytes.substr(2, 7)) +
                                       gzip(bytes.substr(9)) + gzip(""));
  EXPECT_TRUE(data::read_idx(dir.file("split.gz")).equal(data::parse_idx(bytes, "raw")));
  write_file(dir.file("extra.gz"), gzip(bytes) + gzip("e"));
  expect_error_containing([&] { data::read_idx(dir.file("extra.gz")); }, "found more after them");
}

// 1 MB of gzip: an IDX file of shape [10, 28, 28] (7840 bytes of data), then 64 members of
// 16 MiB of zeros each, which would inflate to 1 GiB.
std::string idx_gzip_bomb() {
  const std::string zeros = gzip(std::string(16 << 20, '\0'));
  std::string bomb = gzip(idx_bytes(0x08, {10, 28, 28}, std::string(7840, 'p')));
  for (int member = 0; member < 64; ++member) bomb += zeros;
  return bomb;
}

// The reader inflates the header, then at most one byte past the data it announces: under an
// address-space limit far below the 1 GiB the file would inflate to, the reader still reports
// the trailing data rather than running out of memory (the sanitizers' shadow memory rules out
// the limit, so there only the message is checked).
TEST(Idx, GzipBombInflatesOnlyWhatItsHeaderAnnounces) {
  testing_io::ScratchDir dir;
  write_file(dir.file("bomb.gz"), idx_gzip_bomb());
  const ChildLimits limits{.extra_address_space = kAddressSanitizer ? 0 : uint64_t{128} << 20};
  const std::string outcome =
      outcome_in_child([&] { data::read_idx(dir.file("bomb.gz")); }, limits);
  EXPECT_CONTAINS(outcome,
                  "accel::Error: read_idx: \"" + dir.file("bomb.gz") +
                      "\": expected 7840 bytes of uint8 data for shape [10, 28, 28], found more "
                      "after them");
}

// Memory follows what a file holds and what its header announces: a legitimate 64 MiB file
// reads within twice its data, and a header announcing 2 GiB over 1 MiB of data costs about
// 1 MiB.
TEST(Idx, GzipMemoryStaysWithinTwiceTheAnnouncedData) {
  if (kAddressSanitizer) GTEST_SKIP() << "address-space limits do not work under ASan";
  testing_io::ScratchDir dir;
  write_file(dir.file("large.gz"),
             gzip(idx_bytes(0x08, {64, 1024, 1024}, std::string(64 << 20, 'q'))));
  const ChildLimits twice_the_data_and_some{.extra_address_space = uint64_t{160} << 20};
  EXPECT_EQ(outcome_in_child(
                [&] {
                  const Tensor t = data::read_idx(dir.file("large.gz"));
                  ACCEL_CHECK(t.numel() == int64_t{64} << 20, "test", "read {}", t.sizes());
                },
                twice_the_data_and_some),
            "returned");
  write_file(dir.file("overstated.gz"),
             gzip(idx_bytes(0x08, {1 << 15, 1 << 16}, std::string(1 << 20, 'q'))));
  const ChildLimits little{.extra_address_space = uint64_t{64} << 20};
  EXPECT_CONTAINS(outcome_in_child([&] { data::read_idx(dir.file("overstated.gz")); }, little),
                  "expected 2147483648 bytes of uint8 data for shape [32768, 65536], found "
                  "1048576 bytes (truncated file?)");
}

TEST(Idx, MissingFileAndDirectory) {
  testing_io::ScratchDir dir;
  expect_error_containing([&] { data::read_idx(dir.file("absent")); },
                          "cannot open \"" + dir.file("absent") + "\"");
  expect_error_containing([&] { data::read_idx(dir.file("")); }, "is a directory");
}

// A named pipe at a data file's name is refused at once instead of waiting for a writer (the
// child's alarm turns a hang into a failure).
TEST(Idx, NamedPipeIsRefusedWithoutBlocking) {
  testing_io::ScratchDir dir;
  ASSERT_EQ(mkfifo(dir.file("pipe").c_str(), 0600), 0);
  EXPECT_CONTAINS(
      outcome_in_child([&] { data::read_idx(dir.file("pipe")); },
                       ChildLimits{.timeout_seconds = 10}),
      "accel::Error: read_idx: \"" + dir.file("pipe") + "\" is a named pipe, not a regular file");
}

// Random byte flips, truncations and extensions of valid files (raw and gzip, in memory as
// read_idx sees them): the reader must return a tensor or raise accel::Error, never crash.
// Header bytes are hit often, since the files are small.
TEST(Idx, FuzzedFilesOnlyRaiseAccelErrors) {
  std::mt19937 rng(1234);
  const std::vector<std::string> seeds = {
      idx_bytes(0x08, {3, 4}, std::string(12, 'x')),
      idx_bytes(0x0D, {2, 2}, std::string(16, '\x3f')),
      idx_bytes(0x0B, {5}, std::string(10, '\x01')),
  };
  int parsed = 0, rejected = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string bytes = seeds[iteration % seeds.size()];
    const bool packed = iteration % 2 == 1;
    if (packed) bytes = gzip(bytes);
    switch (rng() % 3) {
      case 0:
        for (int flips = 1 + rng() % 3; flips > 0; --flips) {
          bytes[rng() % bytes.size()] = static_cast<char>(rng());
        }
        break;
      case 1:
        bytes.resize(rng() % bytes.size());
        break;
      default:
        bytes.append(1 + rng() % 8, static_cast<char>(rng()));
        break;
    }
    try {
      data::parse_idx(bytes, "fuzz");
      ++parsed;
    } catch (const Error&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 1000);
  EXPECT_EQ(parsed + rejected, 3000);
}

}  // namespace
}  // namespace accel
