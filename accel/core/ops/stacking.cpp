// Tensors joined by shape rather than by a named dim: atleast_1d/2d/3d (views with leading or
// trailing dims of size 1), hstack, vstack, dstack and column_stack (cat after them),
// block_diag and cartesian_prod. All compose views, cat and meshgrid, whose gradients and
// devices they inherit.
#include <vector>

#include "accel/core/factories.h"
#include "accel/core/ops.h"

namespace accel {

namespace {

// atleast_3d's shapes: [] -> [1, 1, 1], [n] -> [1, n, 1], [m, n] -> [m, n, 1].
Tensor at_least_3d(const Tensor& a) {
  if (a.dim() == 0) return a.reshape({1, 1, 1});
  if (a.dim() == 1) return a.unsqueeze(0).unsqueeze(2);
  if (a.dim() == 2) return a.unsqueeze(2);
  return a;
}

std::vector<Tensor> each(TensorList tensors, Tensor (*f)(const Tensor&), const char* op) {
  ACCEL_CHECK(!tensors.empty(), op, "expected at least one tensor");
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) {
    ACCEL_CHECK(t.defined(), op, "tensor {} of the list is undefined", out.size());
    out.push_back(f(t));
  }
  return out;
}

}  // namespace

Tensor atleast_1d(const Tensor& a) { return a.dim() == 0 ? a.reshape({1}) : a; }
Tensor atleast_2d(const Tensor& a) {
  if (a.dim() == 0) return a.reshape({1, 1});
  return a.dim() == 1 ? a.unsqueeze(0) : a;
}
Tensor atleast_3d(const Tensor& a) { return at_least_3d(a); }
std::vector<Tensor> atleast_1d(TensorList tensors) {
  return each(
      tensors, [](const Tensor& t) { return atleast_1d(t); }, "atleast_1d");
}
std::vector<Tensor> atleast_2d(TensorList tensors) {
  return each(
      tensors, [](const Tensor& t) { return atleast_2d(t); }, "atleast_2d");
}
std::vector<Tensor> atleast_3d(TensorList tensors) {
  return each(tensors, at_least_3d, "atleast_3d");
}

Tensor hstack(TensorList tensors) {
  const std::vector<Tensor> parts = atleast_1d(tensors);
  return cat(parts, parts[0].dim() == 1 ? 0 : 1);
}
Tensor vstack(TensorList tensors) { return cat(atleast_2d(tensors), 0); }
Tensor dstack(TensorList tensors) { return cat(atleast_3d(tensors), 2); }
Tensor column_stack(TensorList tensors) {
  return cat(each(
                 tensors,
                 [](const Tensor& t) {
                   return t.dim() <= 1 ? t.reshape({-1, 1}) : t;
                 },
                 "column_stack"),
             1);
}

Tensor block_diag(TensorList tensors) {
  std::vector<Tensor> blocks;
  ScalarType dtype = kBool;
  int64_t columns = 0;
  for (const Tensor& t : tensors) {
    ACCEL_CHECK(t.defined() && t.dim() <= 2, "block_diag",
                "expected tensors of at most 2 dims, got tensor {} of shape {}", blocks.size(),
                t.defined() ? t.sizes() : IntArrayRef());
    ACCEL_CHECK(t.device() == tensors[0].device(), "block_diag",
                "expected tensors on one device, got {} and {}", tensors[0].device(), t.device());
    blocks.push_back(atleast_2d(t));
    dtype = promote_types(dtype, t.dtype());
    columns += blocks.back().size(1);
  }
  if (blocks.empty()) return empty({1, 0});
  // Each block padded with zeros to the full width, then the padded rows stacked.
  const TensorOptions options = TensorOptions(dtype).device(tensors[0].device());
  std::vector<Tensor> rows;
  int64_t left = 0;
  for (const Tensor& block : blocks) {
    const int64_t height = block.size(0);
    const int64_t width = block.size(1);
    rows.push_back(cat({zeros({height, left}, options), block.to(dtype),
                        zeros({height, columns - left - width}, options)},
                       1));
    left += width;
  }
  return cat(rows, 0);
}

Tensor cartesian_prod(TensorList tensors) {
  for (const Tensor& t : tensors) {
    ACCEL_CHECK(t.dim() == 1, "cartesian_prod", "expected 1-D tensors, got one of shape {}",
                t.sizes());
  }
  const std::vector<Tensor> grids = meshgrid(tensors, "ij");
  if (grids.size() == 1) return grids[0];
  std::vector<Tensor> columns;
  for (const Tensor& grid : grids) columns.push_back(grid.flatten());
  return stack(columns, 1);
}

}  // namespace accel
