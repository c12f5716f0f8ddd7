// Writes the fuzz targets' seed corpora: small valid files of every reader, made by accel's own
// writers (so they follow the formats as saved), plus a few edge cases for each. Run by hand
// from a fuzz build when a format changes: make_fuzz_corpus tests/fuzz/corpus
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "directory_framing.h"
#include "fuzz_support.h"
#include "optimizers.h"
#include "schedulers.h"
#include "tiny_run.h"

namespace accel::fuzz {
namespace {

namespace fs = std::filesystem;

class Corpus {
 public:
  explicit Corpus(fs::path root) : root_(std::move(root)) {}
  void add(const std::string& reader, const std::string& name, std::string_view bytes) {
    fs::create_directories(root_ / reader);
    write_file((root_ / reader / name).string(), bytes);
  }

 private:
  fs::path root_;
};

// ---- safetensors ----

void safetensors_seeds(Corpus& corpus) {
  io::NamedTensors tensors{{"f32", arange(6, kFloat32).reshape({2, 3})},
                           {"f64", tensor({1.5, -2.0})},
                           {"f16", ones({2, 2}, kFloat16)},
                           {"bf16", full({3}, 0.25, kBFloat16)},
                           {"i64", tensor(std::vector<int64_t>{7, -8, 9})},
                           {"i32", arange(4, kInt32)},
                           {"u8", arange(5, kUInt8)},
                           {"bool", tensor({true, false})}};
  const std::string all = io::serialize_safetensors(tensors, {{"format", "pt"}});
  corpus.add("safetensors", "every_dtype.safetensors", all);
  corpus.add("safetensors", "scalar_and_empty.safetensors",
             io::serialize_safetensors(
                 {{"scalar", scalar_tensor(3.0, kFloat32)}, {"empty", zeros({0, 4}, kFloat32)}}));
  corpus.add("safetensors", "no_tensors.safetensors", io::serialize_safetensors({}));
  corpus.add("safetensors", "truncated.safetensors", all.substr(0, all.size() - 3));
  // A header length far beyond the file.
  corpus.add("safetensors", "huge_header_length.safetensors",
             std::string("\xff\xff\xff\xff\xff\xff\xff\x7f{}", 10));
  // Offsets that overlap and point past the end.
  const std::string header = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                             R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,64]}})";
  std::string bad_offsets(8, '\0');
  const uint64_t length = header.size();
  std::memcpy(bad_offsets.data(), &length, 8);
  corpus.add("safetensors", "bad_offsets.safetensors", bad_offsets + header + std::string(12, 'x'));
}

// ---- IDX, raw and gzipped ----

void put_be(std::string& out, uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

// An IDX file: magic, type code, dims, then `elements` values of `width` bytes, big-endian.
std::string idx_file(uint8_t type, const std::vector<uint32_t>& dims,
                     const std::vector<uint64_t>& elements, int width) {
  std::string out{'\0', '\0', static_cast<char>(type), static_cast<char>(dims.size())};
  for (uint32_t dim : dims) put_be(out, dim, 4);
  for (uint64_t value : elements) put_be(out, value, width);
  return out;
}

std::string gzip(std::string_view bytes) {
  z_stream stream{};
  deflateInit2(&stream, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&stream, bytes.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

uint64_t float_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

uint64_t double_bits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bits;
}

void idx_seeds(Corpus& corpus) {
  const std::string images = idx_file(0x08, {2, 3, 3}, std::vector<uint64_t>(18, 200), 1);
  corpus.add("idx", "uint8_images.idx", images);
  corpus.add("idx", "uint8_images.idx.gz", gzip(images));
  const std::string labels = idx_file(0x08, {4}, {1, 0, 9, 3}, 1);
  corpus.add("idx", "labels_concatenated_members.gz", gzip(labels) + gzip(labels));
  corpus.add("idx", "int8.idx", idx_file(0x09, {3}, {0xff, 1, 0x80}, 1));
  corpus.add("idx", "int16.idx", idx_file(0x0B, {2}, {0xfffe, 300}, 2));
  corpus.add("idx", "int32.idx", idx_file(0x0C, {2, 2}, {1, 0xffffffff, 7, 0x80000000}, 4));
  corpus.add("idx", "float32.idx", idx_file(0x0D, {2}, {float_bits(1.5f), float_bits(-0.0f)}, 4));
  corpus.add("idx", "float64.idx", idx_file(0x0E, {1}, {double_bits(3.25)}, 8));
  corpus.add("idx", "no_dims.idx", idx_file(0x08, {}, {42}, 1));
  corpus.add("idx", "empty_huge_dims.idx", idx_file(0x08, {0, 0xffffffff, 0xffffffff}, {}, 1));
  corpus.add("idx", "truncated.idx", images.substr(0, images.size() - 5));
  const std::string gzipped = gzip(images);
  corpus.add("idx", "truncated.idx.gz", gzipped.substr(0, gzipped.size() - 6));
  // A header that announces 1 MiB of data in front of 64 KiB of compressible zeros.
  std::string overstated = idx_file(0x08, {1024, 1024}, {}, 1);
  overstated.append(64 * 1024, '\0');
  corpus.add("idx", "overstated.idx.gz", gzip(overstated));
}

// ---- optimizer and scheduler state ----

void optimizer_seeds(Corpus& corpus) {
  const std::string path = scratch().file("optimizer.safetensors");
  bool first = true;
  for (const NamedOptimizer& named : fresh_optimizers()) {
    if (first) {  // no per-parameter state yet
      optim::save(*named.optimizer, path);
      corpus.add("optimizer_state", named.name + "_before_a_step.safetensors",
                 read_whole_file(path));
      first = false;
    }
    step_with_unit_gradients(*named.optimizer);
    step_with_unit_gradients(*named.optimizer);
    optim::save(*named.optimizer, path);
    corpus.add("optimizer_state", named.name + ".safetensors", read_whole_file(path));
  }
}

void scheduler_seeds(Corpus& corpus) {
  for (const SchedulerUnderTest& scheduler : fresh_schedulers()) {
    for (int i = 0; i < 3; ++i) scheduler.step();
    corpus.add("scheduler_state", scheduler.name + ".json",
               optim::lr_scheduler_state_to_json(scheduler.save()));
  }
}

// ---- training states ----

std::map<std::string, std::string> saved_state(int64_t epoch, int64_t step) {
  const std::string dir = scratch().file("state");
  fs::remove_all(dir);
  tiny_training_run(std::nullopt, {std::make_shared<SaveTrainingStateAt>(dir, epoch, step)});
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    files[entry.path().filename().string()] = read_whole_file(entry.path().string());
  }
  return files;
}

FramedFiles framed(const std::map<std::string, std::string>& files,
                   const std::vector<std::string>& leave_out = {}) {
  FramedFiles out;
  for (const std::string& name : training_state_files()) {
    const auto it = files.find(name);
    if (it == files.end()) continue;
    if (std::find(leave_out.begin(), leave_out.end(), name) != leave_out.end()) continue;
    out.emplace_back(name, it->second);
  }
  return out;
}

void training_state_seeds(Corpus& corpus) {
  const auto mid_epoch = saved_state(0, 1);  // pending gradients: 1 batch of 2 accumulated
  const auto after_epoch = saved_state(1, 0);
  corpus.add("trainer_state", "mid_epoch.json", mid_epoch.at("trainer_state.json"));
  corpus.add("trainer_state", "after_epoch.json", after_epoch.at("trainer_state.json"));
  corpus.add("training_state_dir", "mid_epoch", frame_files(framed(mid_epoch)));
  corpus.add("training_state_dir", "after_epoch", frame_files(framed(after_epoch)));
  corpus.add("training_state_dir", "checkpoint_only",
             frame_files(framed(after_epoch, {"trainer_state.json"})));
  FramedFiles model_is_a_directory = framed(mid_epoch, {"model.safetensors"});
  model_is_a_directory.emplace_back("model.safetensors/", "");
  corpus.add("training_state_dir", "model_is_a_directory", frame_files(model_is_a_directory));
}

}  // namespace
}  // namespace accel::fuzz

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_fuzz_corpus CORPUS_DIR (tests/fuzz/corpus)\n";
    return 2;
  }
  accel::fuzz::Corpus corpus(argv[1]);
  accel::fuzz::safetensors_seeds(corpus);
  accel::fuzz::idx_seeds(corpus);
  accel::fuzz::optimizer_seeds(corpus);
  accel::fuzz::scheduler_seeds(corpus);
  accel::fuzz::training_state_seeds(corpus);
  return 0;
}
