// Safetensors I/O: round trips of every dtype, PyTorch's fixture, one test per validation
// error, a bounded fuzz run (random and mutated files must load or throw accel::Error, never
// crash; CI runs it under ASan) and the atomic writer's guarantees.
#include "accel/core/io/safetensors.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>

#include "accel/accel.h"
#include "accel/core/io/atomic_file.h"
#include "io_test_util.h"

namespace accel {
namespace {

using testing_io::error_message;
using testing_io::ScratchDir;

std::string read_bytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A file from a literal JSON header and data bytes.
std::string make_file(const std::string& header, const std::string& data) {
  std::string out(8, '\0');
  uint64_t length = header.size();
  std::memcpy(out.data(), &length, 8);
  return out + header + data;
}

bool same_bytes(const Tensor& a, const Tensor& b) {
  Tensor ca = a.contiguous(), cb = b.contiguous();
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() &&
         (a.nbytes() == 0 || std::memcmp(ca.data_ptr(), cb.data_ptr(), a.nbytes()) == 0);
}

TEST(Safetensors, RoundTripsEveryDtypeAndShape) {
  ScratchDir dir;
  io::NamedTensors tensors;
  for (ScalarType dtype :
       {kFloat32, kFloat64, kFloat16, kBFloat16, kInt64, kInt32, kUInt8, kBool}) {
    Tensor values = arange(-3, 3).view({2, 3}).to(dtype);
    tensors.emplace_back(std::string(to_string(dtype)), values);
  }
  tensors.emplace_back("scalar", scalar_tensor(2.5, kFloat64));
  tensors.emplace_back("empty", zeros({0, 3}));
  tensors.emplace_back("transposed", randn({3, 4}).t());  // written contiguously
  const std::string path = dir.file("all.safetensors");
  io::save_safetensors(path, tensors, {{"format", "pt"}, {"step", "7"}});

  io::SafetensorsContents loaded = io::load_safetensors(path);
  ASSERT_EQ(loaded.tensors.size(), tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    EXPECT_EQ(loaded.tensors[i].first, tensors[i].first);  // data order = write order
    EXPECT_TRUE(same_bytes(loaded.tensors[i].second, tensors[i].second)) << tensors[i].first;
  }
  EXPECT_EQ(loaded.metadata, (std::map<std::string, std::string>{{"format", "pt"}, {"step", "7"}}));
  // The header is padded so the data is 8-byte aligned.
  uint64_t header_size = 0;
  std::memcpy(&header_size, read_bytes(path).data(), 8);
  EXPECT_EQ(header_size % 8, 0u);
}

TEST(Safetensors, ReadsPyTorchsFile) {
  io::SafetensorsContents file =
      io::load_safetensors(std::string(ACCEL_FIXTURE_DIR) + "/pytorch_mlp.safetensors");
  std::vector<std::string> names;
  for (const auto& [name, tensor] : file.tensors) names.push_back(name);
  // safetensors.torch stores the data sorted by name.
  EXPECT_EQ(names, (std::vector<std::string>{"0.bias", "0.weight", "2.bias", "2.weight"}));
  EXPECT_EQ(file.tensors[1].second.sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(file.tensors[1].second.dtype(), kFloat32);
  EXPECT_EQ(file.metadata.at("format"), "pt");
}

TEST(Safetensors, RejectsNamesItCannotWrite) {
  EXPECT_CONTAINS(error_message([] {
                    io::serialize_safetensors({{"a", ones({1})}, {"a", ones({1})}});
                  }),
                  "\"a\" appears twice");
  EXPECT_CONTAINS(error_message([] {
                    io::serialize_safetensors({{"__metadata__", ones({1})}});
                  }),
                  "reserved");
  EXPECT_CONTAINS(error_message([] {
                    io::serialize_safetensors({{"x", Tensor()}});
                  }),
                  "\"x\" is undefined");
}

// Each malformed input gives an error naming the source and the problem.
TEST(Safetensors, ValidationErrorsNameFileAndProblem) {
  auto parse_error = [](const std::string& bytes) {
    return error_message([&] { io::parse_safetensors(bytes, "model.st"); });
  };
  const std::string f32_entry = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  const std::string eight(8, '\0');
  EXPECT_NO_THROW(io::parse_safetensors(make_file(f32_entry, eight), "ok"));

  std::string msg = parse_error("abc");
  EXPECT_CONTAINS(msg, "model.st");
  EXPECT_CONTAINS(msg, "too short");

  std::string huge(8, '\xff');
  EXPECT_CONTAINS(parse_error(huge + "{}"), "exceeds");
  std::string longer = make_file("{}", "");
  longer[0] = 40;
  EXPECT_CONTAINS(parse_error(longer), "header length 40 is larger");
  EXPECT_CONTAINS(parse_error(make_file("{\"w\":", "")), "not valid JSON");
  EXPECT_CONTAINS(parse_error(make_file("[1, 2]", "")), "not a JSON object");
  EXPECT_CONTAINS(
      parse_error(make_file(R"({"w":{"dtype":"F8","shape":[2],"data_offsets":[0,2]}})", "xx")),
      "unknown or unsupported dtype \"F8\"");
  EXPECT_CONTAINS(parse_error(make_file(R"({"w":{"dtype":"F32","shape":[2]}})", eight)),
                  "needs \"dtype\", \"shape\" and \"data_offsets\"");
  EXPECT_CONTAINS(
      parse_error(make_file(R"({"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", eight)),
      "non-negative integers");
  EXPECT_CONTAINS(
      parse_error(make_file(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,16]}})", eight)),
      "outside the data section of 8 bytes");
  EXPECT_CONTAINS(
      parse_error(make_file(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", eight)),
      "needs 12 bytes but data_offsets [0, 8] span 8");
  EXPECT_CONTAINS(
      parse_error(make_file(
          R"({"w":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,8]}})", eight)),
      "needs too many bytes");
  EXPECT_CONTAINS(parse_error(make_file(R"({"a":{"dtype":"U8","shape":[6],"data_offsets":[0,6]},)"
                                        R"("b":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}})",
                                        eight)),
                  "overlap");
  EXPECT_CONTAINS(parse_error(make_file(
                      R"({"b":{"dtype":"BOOL","shape":[2],"data_offsets":[0,2]}})", "\x01\x07")),
                  "bytes other than 0 and 1");
  EXPECT_CONTAINS(parse_error(make_file(R"({"__metadata__":{"k":3}})", "")),
                  "metadata \"k\" is not a string");
  // Truncated data: the header promises more bytes than the file holds.
  EXPECT_CONTAINS(parse_error(make_file(f32_entry, "1234")), "outside the data section of 4 bytes");

  msg = error_message([] { io::load_safetensors("/nonexistent/dir/model.safetensors"); });
  EXPECT_CONTAINS(msg, "cannot open \"/nonexistent/dir/model.safetensors\"");
}

// Findings of fuzzing and hostile files: each is an error naming the file, never a crash, an
// overflow or a silently chosen winner.
TEST(Safetensors, HostileHeadersAreErrors) {
  auto parse_error = [](const std::string& header, const std::string& data = "") {
    return error_message([&] { io::parse_safetensors(make_file(header, data), "model.st"); });
  };
  const std::string eight(8, '\0');
  // A name given twice: JSON objects keep the last, a reader must refuse.
  EXPECT_CONTAINS(parse_error(R"({"w":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},)"
                              R"("w":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}})",
                              eight),
                  "the tensor name \"w\" appears twice");
  EXPECT_CONTAINS(
      parse_error(R"({"w":{"dtype":"U8","dtype":"U8","shape":[0],"data_offsets":[0,0]}})"),
      "\"dtype\" appears twice");
  // Zero elements, but strides no tensor can have.
  EXPECT_CONTAINS(parse_error(R"({"w":{"dtype":"F32","shape":[0,4611686018427387904,)"
                              R"(4611686018427387904],"data_offsets":[0,0]}})"),
                  "do not fit int64");
  // A name of 5 MB is echoed shortened, with its length.
  const std::string long_name(5'000'000, 'n');
  const std::string message =
      parse_error("{\"" + long_name + R"(":{"dtype":"F8","shape":[1],"data_offsets":[0,1]}})", "x");
  EXPECT_LT(message.size(), 1000u);
  EXPECT_CONTAINS(message, "nnn...\" (5000000 bytes)");
  // Nesting: a deep value in a field the reader ignores costs no stack; the rank is bounded.
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  EXPECT_NO_THROW(io::parse_safetensors(
      make_file(R"({"w":{"x":)" + deep + R"(,"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
                eight),
      "ok"));
  std::string rank_100 = "[";
  for (int i = 0; i < 100; ++i) rank_100 += i ? ",1" : "1";
  EXPECT_CONTAINS(
      parse_error(R"({"w":{"dtype":"U8","shape":)" + rank_100 + R"(],"data_offsets":[0,1]}})", "x"),
      "more than 64 dimensions");
  ScratchDir dir;
  EXPECT_CONTAINS(error_message([&] { io::load_safetensors(dir.file("")); }), "is a directory");
}

// Every input either parses or raises accel::Error: anything else (another exception, a
// crash, an ASan report) fails.
TEST(Safetensors, FuzzedInputsLoadOrThrowAccelError) {
  io::NamedTensors tensors = {{"weight", randn({3, 4})},
                              {"index", arange(5, kInt64)},
                              {"mask", ones({4}, kBool)},
                              {"half", ones({2, 2}, kBFloat16)}};
  const std::string valid = io::serialize_safetensors(tensors, {{"format", "pt"}});
  std::mt19937_64 rng(1234);
  auto below = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  int loaded = 0, rejected = 0;
  auto attempt = [&](const std::string& bytes) {
    try {
      io::parse_safetensors(bytes, "fuzz");
      ++loaded;
    } catch (const Error&) {
      ++rejected;
    }
  };
  for (int i = 0; i < 2000; ++i) {
    std::string bytes = valid;
    switch (i % 5) {
      case 0:  // flip a few bytes anywhere
        for (int k = 0, n = 1 + static_cast<int>(below(4)); k < n; ++k) {
          bytes[below(bytes.size())] ^= static_cast<char>(1 + below(255));
        }
        break;
      case 1:  // truncate
        bytes.resize(below(bytes.size()));
        break;
      case 2: {  // an arbitrary header length
        uint64_t length = i % 2 ? rng() : below(bytes.size() + 16);
        std::memcpy(bytes.data(), &length, 8);
        break;
      }
      case 3: {  // change a digit or a quote inside the JSON header (offsets, shapes, names)
        uint64_t header = 0;
        std::memcpy(&header, bytes.data(), 8);
        size_t at = 8 + below(header);
        const char replacements[] = "0123456789\"[]{},:-e";
        bytes[at] = replacements[below(sizeof(replacements) - 1)];
        break;
      }
      default:  // random bytes, sometimes behind a plausible header length
        bytes.resize(below(64));
        for (char& c : bytes) c = static_cast<char>(rng());
        if (bytes.size() >= 8 && i % 2) {
          uint64_t length = below(bytes.size());
          std::memcpy(bytes.data(), &length, 8);
        }
    }
    attempt(bytes);
  }
  EXPECT_EQ(loaded + rejected, 2000);
  EXPECT_GT(rejected, 0);
}

TEST(AtomicFile, CommitReplacesAndLeavesNoTemporary) {
  ScratchDir dir;
  const std::string path = dir.file("out.bin");
  write_bytes(path, "old");
  io::AtomicFileWriter writer(path);
  writer.write("new content", 11);
  EXPECT_EQ(read_bytes(path), "old");  // untouched until commit
  writer.commit();
  EXPECT_EQ(read_bytes(path), "new content");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"out.bin"});
}

TEST(AtomicFile, FailureMidwayKeepsOldFileAndRemovesTemporary) {
  ScratchDir dir;
  const std::string path = dir.file("model.safetensors");
  io::save_safetensors(path, {{"w", ones({2})}});
  const std::string old = read_bytes(path);
  // An exception after part of the data was written: the writer never commits.
  EXPECT_THROW(
      {
        io::AtomicFileWriter writer(path);
        writer.write("partial", 7);
        fail("test", "simulated failure while writing");
      },
      Error);
  // An error while serializing, before anything reaches the disk.
  EXPECT_THROW(io::save_safetensors(path, {{"w", zeros({3})}, {"w", zeros({3})}}), Error);
  EXPECT_EQ(read_bytes(path), old);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"model.safetensors"});
  // A destination in a missing directory fails cleanly.
  EXPECT_CONTAINS(error_message([&] { io::save_safetensors(dir.file("no/such/dir.st"), {}); }),
                  "cannot create");
}

}  // namespace
}  // namespace accel
