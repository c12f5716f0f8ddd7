// nonzero on the CPU in two passes over the flags, each split into the same pieces: the first
// counts each piece's true elements, which tells every piece where its rows start; the second
// writes them, without a branch per element.
#include "accel/kernels/cpu/nonzero.h"

#include <algorithm>
#include <vector>

#include "accel/kernels/cpu/parallel.h"

namespace accel::cpu {

namespace {

// The number of true elements among flags[begin, end).
int64_t count_true(const bool* flags, int64_t begin, int64_t end) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(flags);  // a bool is one byte, 0 or 1
  uint64_t trues = 0;
  for (int64_t i = begin; i < end; ++i) trues += bytes[i];
  return static_cast<int64_t>(trues);
}

// Writes the coordinates of the true elements among linear positions [begin, end) to
// out[0, rows) (rows of `dims` coordinates), in order: per run of the innermost dim, first
// every element's last coordinate, moving to the next row only past a true element (once all
// rows are written, to a spare slot), then the run's outer coordinates into the rows it wrote.
void write_piece(const bool* flags, IntArrayRef sizes, int64_t begin, int64_t end, int64_t* out,
                 int64_t rows) {
  const auto dims = static_cast<int64_t>(sizes.size());
  std::vector<int64_t> coordinates(static_cast<size_t>(dims));
  for (int64_t d = dims - 1, rest = begin; d >= 0; --d) {
    coordinates[static_cast<size_t>(d)] = rest % sizes[d];
    rest /= sizes[d];
  }
  const int64_t inner_size = sizes[dims - 1];
  int64_t* last_coordinates = out + dims - 1;
  int64_t spare = 0;
  int64_t written = 0;
  for (int64_t i = begin; i < end;) {
    const int64_t column = coordinates.back();
    const int64_t run = std::min(inner_size - column, end - i);
    const int64_t first_row = written;
    for (int64_t j = 0; j < run; ++j) {
      int64_t* slot = written < rows ? last_coordinates + written * dims : &spare;
      *slot = column + j;
      written += flags[i + j] ? 1 : 0;
    }
    for (int64_t row = first_row; row < written; ++row) {
      for (int64_t d = 0; d < dims - 1; ++d)
        out[row * dims + d] = coordinates[static_cast<size_t>(d)];
    }
    i += run;
    coordinates.back() = 0;  // the next row of the innermost dim
    for (int64_t d = dims - 2; d >= 0; --d) {
      if (++coordinates[static_cast<size_t>(d)] < sizes[d]) break;
      coordinates[static_cast<size_t>(d)] = 0;
    }
  }
}

}  // namespace

void nonzero(const bool* flags, IntArrayRef sizes, int64_t count, int64_t* out) {
  if (sizes.empty() || count == 0) return;  // a 0-dim input's rows have no coordinates
  int64_t n = 1;
  for (int64_t size : sizes) n *= size;
  const int64_t pieces = std::clamp<int64_t>(n / kElementwiseGrain, 1, get_num_threads());
  const auto piece_begin = [&](int64_t piece) { return n * piece / pieces; };
  std::vector<int64_t> rows_before(static_cast<size_t>(pieces) + 1, 0);
  parallel_for(0, pieces, 1, [&](int64_t first, int64_t last) {
    for (int64_t piece = first; piece < last; ++piece) {
      rows_before[static_cast<size_t>(piece) + 1] =
          count_true(flags, piece_begin(piece), piece_begin(piece + 1));
    }
  });
  for (int64_t piece = 0; piece < pieces; ++piece) {
    rows_before[static_cast<size_t>(piece) + 1] += rows_before[static_cast<size_t>(piece)];
  }
  const auto dims = static_cast<int64_t>(sizes.size());
  parallel_for(0, pieces, 1, [&](int64_t first, int64_t last) {
    for (int64_t piece = first; piece < last; ++piece) {
      const int64_t row = rows_before[static_cast<size_t>(piece)];
      write_piece(flags, sizes, piece_begin(piece), piece_begin(piece + 1), out + row * dims,
                  rows_before[static_cast<size_t>(piece) + 1] - row);
    }
  });
}

}  // namespace accel::cpu
