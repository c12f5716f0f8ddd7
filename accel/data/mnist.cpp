// MNIST: finds the split's files (raw or .gz), reads them with the IDX reader, checks that
// they are 28x28 uint8 images and uint8 labels in 0..9 of the same count (at load time, not
// when a bad label's batch comes up), and converts images to float32 with x / 255
// (torchvision's ToTensor, bit for bit).
#include "accel/data/mnist.h"

#include <cmath>
#include <filesystem>

#include "accel/core/factories.h"
#include "accel/data/idx.h"

namespace accel::data {
namespace {

constexpr const char* kOp = "MNIST";
constexpr int64_t kSide = 28;
constexpr int64_t kPixels = kSide * kSide;
constexpr int64_t kClasses = 10;

// What is at `path` (file_type::not_found for nothing); a failure to find out (a symlink loop,
// a name too long, a directory without search permission) is an error rather than a "nothing".
std::filesystem::file_type type_at(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  ACCEL_CHECK(!error || status.type() == std::filesystem::file_type::not_found, kOp,
              "cannot inspect \"{}\": {}", path.string(), error.message());
  return status.type();
}

// " (apt-get install ...)" when `root` is the Debian package's directory, else "".
std::string package_hint(const std::filesystem::path& root) {
  std::filesystem::path normal = root.lexically_normal();
  if (!normal.has_filename()) normal = normal.parent_path();
  return normal == std::filesystem::path(kFashionMnistDir)
             ? " (apt-get install dataset-fashion-mnist provides it)"
             : "";
}

// root/name, or root/name.gz when only that exists.
std::string find_file(const std::filesystem::path& root, const std::string& name) {
  const std::filesystem::path raw = root / name;
  const std::filesystem::path gz = root / (name + ".gz");
  if (type_at(raw) != std::filesystem::file_type::not_found) return raw.string();
  if (type_at(gz) != std::filesystem::file_type::not_found) return gz.string();
  fail(kOp, "expected \"{}\" or \"{}\", found neither{}", raw.string(), gz.string(),
       package_hint(root));
}

// Checks that every label names one of the classes, reporting the first that does not.
void check_labels(const Tensor& labels, const std::string& path) {
  const uint8_t* values = labels.data_ptr<uint8_t>();
  for (int64_t i = 0; i < labels.numel(); ++i) {
    ACCEL_CHECK(values[i] < kClasses, kOp, "\"{}\": label {} at index {} is outside 0..{}", path,
                values[i], i, kClasses - 1);
  }
}

// x / 255 without a division (a vector divide is the loop's whole cost): the product with
// 1/255, corrected once by its residual. Equal to the division for every byte value (checked
// exhaustively; the tests compare whole images against div(255)).
void to_unit_float(const uint8_t* in, float* out) {
  constexpr float kInverse = 1.0f / 255.0f;
  for (int64_t i = 0; i < kPixels; ++i) {
    const float x = static_cast<float>(in[i]);
    const float quotient = x * kInverse;
    out[i] = std::fma(std::fma(-quotient, 255.0f, x), kInverse, quotient);
  }
}

}  // namespace

MNIST::MNIST(const std::string& root, Split split) {
  const std::filesystem::file_type root_type = type_at(root);
  ACCEL_CHECK(root_type == std::filesystem::file_type::directory, kOp,
              "expected a directory at \"{}\", found {}{}", root,
              root_type == std::filesystem::file_type::not_found ? "nothing" : "a file",
              package_hint(root));
  const std::string prefix = split == Split::Train ? "train" : "t10k";
  const std::string images_path = find_file(root, prefix + "-images-idx3-ubyte");
  const std::string labels_path = find_file(root, prefix + "-labels-idx1-ubyte");
  images_ = read_idx(images_path);
  const Tensor labels = read_idx(labels_path);
  ACCEL_CHECK(images_.dtype() == kUInt8 && images_.dim() == 3 && images_.size(1) == kSide &&
                  images_.size(2) == kSide,
              kOp, "\"{}\": expected uint8 images of shape [N, 28, 28], found {} {}", images_path,
              images_.dtype(), images_.sizes());
  ACCEL_CHECK(labels.dtype() == kUInt8 && labels.dim() == 1, kOp,
              "\"{}\": expected uint8 labels of shape [N], found {} {}", labels_path,
              labels.dtype(), labels.sizes());
  ACCEL_CHECK(labels.size(0) == images_.size(0), kOp,
              "expected as many labels as images, found {} labels in \"{}\" and {} images in "
              "\"{}\"",
              labels.size(0), labels_path, images_.size(0), images_path);
  check_labels(labels, labels_path);
  targets_ = labels.to(kInt64);
}

int64_t MNIST::size() const { return images_.size(0); }

Example MNIST::get(int64_t index) const {
  check_index("MNIST.get", index, size());
  Tensor data = empty({1, kSide, kSide}, kFloat32);
  to_unit_float(images_.data_ptr<uint8_t>() + index * kPixels, data.data_ptr<float>());
  return {data, scalar_tensor(targets_.data_ptr<int64_t>()[index], kInt64)};
}

std::optional<Example> MNIST::get_batch(std::span<const int64_t> indices) const {
  const auto batch = static_cast<int64_t>(indices.size());
  Tensor data = empty({batch, 1, kSide, kSide}, kFloat32);
  Tensor target = empty({batch}, kInt64);
  const uint8_t* images = images_.data_ptr<uint8_t>();
  const int64_t* labels = targets_.data_ptr<int64_t>();
  float* out = data.data_ptr<float>();
  int64_t* out_target = target.data_ptr<int64_t>();
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t index = indices[b];
    check_index("MNIST.get_batch", index, size());
    // Shuffled samples are scattered over the whole dataset, out of cache: the next one's
    // pixels and label are fetched while this one converts (its loads waited on memory for
    // nearly all of the loop's time).
    if (b + 1 < batch && indices[b + 1] >= 0 && indices[b + 1] < size()) {
      const uint8_t* next = images + indices[b + 1] * kPixels;
      for (int64_t offset = 0; offset < kPixels; offset += 64) __builtin_prefetch(next + offset);
      __builtin_prefetch(labels + indices[b + 1]);
    }
    to_unit_float(images + index * kPixels, out + b * kPixels);
    out_target[b] = labels[index];
  }
  return Example{data, target};
}

}  // namespace accel::data
