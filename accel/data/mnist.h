// MNIST and Fashion-MNIST (same files, same shapes) from their IDX files, raw or gzip. The
// images stay one uint8 [N,28,28] tensor (47 MB for 60k, not 188 MB as float32) and are
// converted to float32 in [0,1] per sample or per batch.
#pragma once

#include <string>

#include "accel/data/dataset.h"

namespace accel::data {

// Where `apt-get install dataset-fashion-mnist` puts Fashion-MNIST.
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";

class MNIST : public Dataset {
 public:
  enum class Split { Train, Test };

  // Reads {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz] from `root`.
  MNIST(const std::string& root, Split split);
  int64_t size() const override;
  // data: float32 [1,28,28] in [0,1]; target: int64 scalar.
  Example get(int64_t index) const override;
  // data: float32 [B,1,28,28]; target: int64 [B]; converted straight from the uint8 images.
  std::optional<Example> get_batch(std::span<const int64_t> indices) const override;
  const Tensor& images() const { return images_; }    // uint8 [N,28,28]
  const Tensor& targets() const { return targets_; }  // int64 [N]

 private:
  Tensor images_;
  Tensor targets_;
};

}  // namespace accel::data
