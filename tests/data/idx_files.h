// Test helpers that make IDX files: header and payload bytes, gzip compression (zlib, which
// accel links), and a small generated MNIST directory whose pixels encode their position.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace accel::testing_data {

// An IDX file: magic, type code, dims (big-endian uint32), then `payload` as given.
inline std::string idx_bytes(unsigned char type_code, const std::vector<uint32_t>& dims,
                             const std::string& payload) {
  std::string out{0, 0, static_cast<char>(type_code), static_cast<char>(dims.size())};
  for (uint32_t d : dims) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(d >> shift));
  }
  return out + payload;
}

inline std::string gzip(const std::string& raw) {
  z_stream stream{};
  if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, raw.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  stream.avail_in = static_cast<uInt>(raw.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Pixel p of image i, and the label of image i, in the generated MNIST files.
inline uint8_t mnist_pixel(int64_t i, int64_t p) { return static_cast<uint8_t>((i * 7 + p) % 256); }
inline uint8_t mnist_label(int64_t i) { return static_cast<uint8_t>(i % 10); }

inline std::string mnist_images(int64_t count) {
  std::string pixels;
  for (int64_t i = 0; i < count; ++i) {
    for (int64_t p = 0; p < 28 * 28; ++p) pixels.push_back(static_cast<char>(mnist_pixel(i, p)));
  }
  return idx_bytes(0x08, {static_cast<uint32_t>(count), 28, 28}, pixels);
}

inline std::string mnist_labels(int64_t count) {
  std::string labels;
  for (int64_t i = 0; i < count; ++i) labels.push_back(static_cast<char>(mnist_label(i)));
  return idx_bytes(0x08, {static_cast<uint32_t>(count)}, labels);
}

// Writes `prefix`-images-idx3-ubyte and -labels-idx1-ubyte (".gz" and compressed if gz).
inline void write_mnist(const std::string& dir, const std::string& prefix, int64_t count, bool gz) {
  const std::string suffix = gz ? ".gz" : "";
  const std::string images = mnist_images(count), labels = mnist_labels(count);
  write_file(dir + "/" + prefix + "-images-idx3-ubyte" + suffix, gz ? gzip(images) : images);
  write_file(dir + "/" + prefix + "-labels-idx1-ubyte" + suffix, gz ? gzip(labels) : labels);
}

}  // namespace accel::testing_data
