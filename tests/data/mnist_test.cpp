// MNIST over generated IDX directories (raw and gzip): values, shapes, the batched path
// against get(), bad input errors, and the real Fashion-MNIST when its package is installed.
#include <gtest/gtest.h>

#include <filesystem>

#include "accel/accel.h"
#include "data/idx_files.h"
#include "nn/io_test_util.h"
#include "support/expect_error.h"

namespace accel {
namespace {

using data::MNIST;
using testing::expect_error_containing;
using testing_data::write_mnist;

TEST(MNIST, ReadsRawAndGzipFilesAlike) {
  testing_io::ScratchDir dir;
  write_mnist(dir.file(""), "train", 12, /*gz=*/false);
  write_mnist(dir.file(""), "t10k", 5, /*gz=*/true);
  const MNIST train(dir.file(""), MNIST::Split::Train);
  const MNIST test(dir.file(""), MNIST::Split::Test);
  EXPECT_EQ(train.size(), 12);
  EXPECT_EQ(test.size(), 5);
  EXPECT_EQ(train.images().dtype(), kUInt8);
  EXPECT_EQ(train.targets().dtype(), kInt64);
  EXPECT_TRUE(test.images().equal(train.images().narrow(0, 0, 5)));
}

TEST(MNIST, SamplesAreFloatImagesInUnitRangeAndInt64Labels) {
  testing_io::ScratchDir dir;
  write_mnist(dir.file(""), "train", 4, false);
  const MNIST mnist(dir.file(""), MNIST::Split::Train);
  const data::Example sample = mnist.get(3);
  EXPECT_EQ(sample.data.dtype(), kFloat32);
  EXPECT_EQ(sample.data.sizes(), IntArrayRef({1, 28, 28}));
  EXPECT_EQ(sample.target.dtype(), kInt64);
  EXPECT_EQ(sample.target.dim(), 0);
  EXPECT_EQ(sample.target.item<int64_t>(), testing_data::mnist_label(3));
  const float* pixels = sample.data.data_ptr<float>();
  for (int64_t p : {0, 100, 783}) {
    EXPECT_EQ(pixels[p], static_cast<float>(testing_data::mnist_pixel(3, p)) / 255.0f);
  }
  EXPECT_TRUE(sample.data.equal(mnist.images()[3].to(kFloat32).div(255).unsqueeze(0)));
}

TEST(MNIST, BatchEqualsStackedSamples) {
  testing_io::ScratchDir dir;
  write_mnist(dir.file(""), "train", 9, true);
  const MNIST mnist(dir.file(""), MNIST::Split::Train);
  const std::vector<int64_t> indices = {8, 0, 3, 3};
  const std::optional<data::Example> batch = mnist.get_batch(indices);
  ASSERT_TRUE(batch.has_value());
  EXPECT_EQ(batch->data.sizes(), IntArrayRef({4, 1, 28, 28}));
  EXPECT_EQ(batch->target.sizes(), IntArrayRef({4}));
  const data::Example stacked = data::default_collate(data::get_samples(mnist, indices));
  EXPECT_TRUE(batch->data.equal(stacked.data));
  EXPECT_TRUE(batch->target.equal(stacked.target));
  expect_error_containing(
      [&] {
        mnist.get_batch(std::vector<int64_t>{1, 9});
      },
      "MNIST.get_batch: expected an index in [0, 9), found 9");
  expect_error_containing([&] { mnist.get(-1); },
                          "MNIST.get: expected an index in [0, 9), found -1");
}

TEST(MNIST, MissingDirectoryAndFiles) {
  testing_io::ScratchDir dir;
  expect_error_containing([&] { MNIST(dir.file("nowhere"), MNIST::Split::Train); },
                          "MNIST: expected a directory at \"" + dir.file("nowhere") + "\"");
  write_mnist(dir.file(""), "train", 3, false);
  std::filesystem::remove(dir.file("train-labels-idx1-ubyte"));
  const std::string message = testing::error_of([&] { MNIST(dir.file(""), MNIST::Split::Train); });
  EXPECT_NE(message.find("train-labels-idx1-ubyte\" or"), std::string::npos) << message;
  EXPECT_NE(message.find("train-labels-idx1-ubyte.gz\", found neither"), std::string::npos)
      << message;
  expect_error_containing([&] { MNIST(dir.file(""), MNIST::Split::Test); },
                          "t10k-images-idx3-ubyte");
}

TEST(MNIST, DefaultDirectoryErrorsNameTheDebianPackage) {
  if (std::filesystem::exists(data::kFashionMnistDir)) {
    GTEST_SKIP() << data::kFashionMnistDir << " exists; its missing-package message can't show";
  }
  expect_error_containing([] { MNIST(data::kFashionMnistDir, MNIST::Split::Train); },
                          "apt-get install dataset-fashion-mnist");
}

TEST(MNIST, ImageAndLabelCountsMustAgree) {
  testing_io::ScratchDir dir;
  testing_data::write_file(dir.file("train-images-idx3-ubyte"), testing_data::mnist_images(4));
  testing_data::write_file(dir.file("train-labels-idx1-ubyte"), testing_data::mnist_labels(5));
  expect_error_containing([&] { MNIST(dir.file(""), MNIST::Split::Train); },
                          "expected as many labels as images, found 5 labels");
}

TEST(MNIST, WrongShapesOrTypesAreNamed) {
  testing_io::ScratchDir dir;
  // Labels where images belong: a 1-D file.
  testing_data::write_file(dir.file("train-images-idx3-ubyte"), testing_data::mnist_labels(4));
  testing_data::write_file(dir.file("train-labels-idx1-ubyte"), testing_data::mnist_labels(4));
  expect_error_containing([&] { MNIST(dir.file(""), MNIST::Split::Train); },
                          "expected uint8 images of shape [N, 28, 28], found uint8 [4]");
  testing_data::write_file(dir.file("train-images-idx3-ubyte"), testing_data::mnist_images(4));
  testing_data::write_file(dir.file("train-labels-idx1-ubyte"),
                           testing_data::idx_bytes(0x0C, {1}, std::string(4, '\0')));
  expect_error_containing([&] { MNIST(dir.file(""), MNIST::Split::Train); },
                          "expected uint8 labels of shape [N], found int32 [1]");
}

// A bad label is reported when the dataset loads, naming the file and where it is, not by
// the loss when its batch comes up.
TEST(MNIST, LabelsOutsideTheClassesAreRejectedAtLoad) {
  testing_io::ScratchDir dir;
  write_mnist(dir.file(""), "train", 8, false);
  std::string labels = testing_data::mnist_labels(8);
  labels[8 + 5] = static_cast<char>(200);
  labels[8 + 7] = 10;
  testing_data::write_file(dir.file("train-labels-idx1-ubyte"), labels);
  expect_error_containing([&] { MNIST(dir.file(""), MNIST::Split::Train); },
                          "MNIST: \"" + dir.file("train-labels-idx1-ubyte") +
                              "\": label 200 at index 5 is outside 0..9");
}

// What the file system cannot answer (a symlink loop, a name too long) is an accel::Error
// naming the path, not a std::filesystem exception.
TEST(MNIST, UnreadablePathsAreErrors) {
  testing_io::ScratchDir dir;
  write_mnist(dir.file(""), "train", 2, false);
  std::filesystem::remove(dir.file("train-images-idx3-ubyte"));
  std::filesystem::create_symlink(dir.file("train-images-idx3-ubyte"),
                                  dir.file("train-images-idx3-ubyte"));
  expect_error_containing([&] { MNIST(dir.file(""), MNIST::Split::Train); },
                          "MNIST: cannot inspect \"" + dir.file("train-images-idx3-ubyte") + "\"");
  const std::string too_long = dir.file(std::string(300, 'x'));
  expect_error_containing([&] { MNIST(too_long, MNIST::Split::Train); },
                          "MNIST: cannot inspect \"" + too_long + "\"");
}

TEST(MNIST, RealFashionMnistWhenInstalled) {
  if (!std::filesystem::exists(data::kFashionMnistDir)) {
    GTEST_SKIP() << "apt-get install dataset-fashion-mnist to run this test";
  }
  const MNIST train(data::kFashionMnistDir, MNIST::Split::Train);
  const MNIST test(data::kFashionMnistDir, MNIST::Split::Test);
  EXPECT_EQ(train.size(), 60000);
  EXPECT_EQ(test.size(), 10000);
  EXPECT_EQ(train.targets().min().item<int64_t>(), 0);
  EXPECT_EQ(train.targets().max().item<int64_t>(), 9);
  // Fashion-MNIST is balanced: 6000 training images per class.
  EXPECT_EQ(train.targets().eq(7).sum().item<int64_t>(), 6000);
  const data::Example sample = train.get(0);
  EXPECT_GE(sample.data.min().item<float>(), 0.0f);
  EXPECT_LE(sample.data.max().item<float>(), 1.0f);
  EXPECT_EQ(sample.target.item<int64_t>(), 9);  // the first training image is an ankle boot
}

}  // namespace
}  // namespace accel
