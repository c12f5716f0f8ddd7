// Joining and splitting along a dim: cat (with type promotion across its inputs), stack
// (unsqueeze + cat), and split, chunk and unbind (views of the input). cat's gradient hands
// each input its slice of the output's gradient; the pieces of a split share one node whose
// gradient joins theirs back (zeros where none flowed), one pass over the input's size rather
// than one full-size tensor per piece.
#include <algorithm>
#include <numeric>

#include "accel/core/ops/op_support.h"

namespace accel {

using autograd::GradInputs;

namespace {

// PyTorch's legacy rule: 1-D empty tensors join anything, whatever the others' shapes.
bool skipped_by_cat(const Tensor& t) { return t.dim() == 1 && t.numel() == 0; }

// Where one input of cat landed in the output.
struct CatPiece {
  int64_t offset = 0;
  int64_t size = 0;
  ScalarType dtype = kFloat32;
  bool skipped = false;
};

// Records `pieces`, views of `a` along dim d (kept, or removed as unbind removes it), as the
// outputs of one node.
std::vector<Tensor> record_pieces(const char* name, const Tensor& a, int64_t d, bool keeps_dim,
                                  std::vector<Tensor> pieces) {
  if (!autograd::should_record(a)) return pieces;
  std::vector<DimVector> piece_sizes;
  piece_sizes.reserve(pieces.size());
  for (const Tensor& piece : pieces) piece_sizes.emplace_back(piece.sizes());
  autograd::record(
      name, {a}, pieces,
      [d, keeps_dim, piece_sizes = std::move(piece_sizes)](autograd::GradVector& grads,
                                                           GradInputs& in) {
        const auto flowed =
            std::ranges::find_if(grads, [](const Tensor& grad) { return grad.defined(); });
        if (flowed == grads.end()) return;
        const TensorOptions options = flowed->options();
        std::vector<Tensor> parts;
        parts.reserve(piece_sizes.size());
        for (size_t i = 0; i < piece_sizes.size(); ++i) {
          parts.push_back(grads[i].defined() ? grads[i] : zeros(piece_sizes[i], options));
        }
        in[0] = keeps_dim ? cat(parts, d) : stack(parts, d);
      });
  return pieces;
}

}  // namespace

Tensor cat(TensorList tensors, int64_t dim) {
  ACCEL_CHECK(!tensors.empty(), "cat", "expected a non-empty list of tensors");
  const Tensor* first = nullptr;  // the first input that is not skipped: it sets the shape
  ScalarType dtype = tensors[0].dtype();
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    ACCEL_CHECK(t.defined(), "cat", "tensor {} in the list is undefined", i);
    ACCEL_CHECK(t.dim() > 0, "cat",
                "zero-dimensional tensor (at position {}) cannot be concatenated", i);
    check_same_device(tensors[0], t, "cat");
    dtype = promote_types(dtype, t.dtype());
    if (!first && !skipped_by_cat(t)) first = &t;
  }
  if (!first) first = &tensors[0];  // all empty 1-D: the result is empty 1-D too
  const int64_t d = wrap_dim(dim, first->dim(), "cat");

  std::vector<CatPiece> pieces(tensors.size());
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    pieces[i].dtype = t.dtype();
    pieces[i].skipped = skipped_by_cat(t);
    if (pieces[i].skipped) continue;
    ACCEL_CHECK(t.dim() == first->dim(), "cat",
                "tensors must have the same number of dimensions: got {} ({}) and {} ({}) for "
                "tensor number {} in the list",
                first->dim(), first->sizes(), t.dim(), t.sizes(), i);
    for (int64_t k = 0; k < t.dim(); ++k) {
      ACCEL_CHECK(k == d || t.sizes()[k] == first->sizes()[k], "cat",
                  "sizes of tensors must match except in dimension {}: expected size {} but got "
                  "size {} for tensor number {} in the list ({} vs {})",
                  d, first->sizes()[k], t.sizes()[k], i, first->sizes(), t.sizes());
    }
    pieces[i].offset = total;
    pieces[i].size = t.sizes()[d];
    total += pieces[i].size;
  }

  DimVector out_sizes(first->sizes());
  out_sizes[d] = total;
  Tensor out = empty(out_sizes, first->options().dtype(dtype));
  {
    NoGradGuard no_grad;  // the copies are the forward, not recorded ops
    for (size_t i = 0; i < tensors.size(); ++i) {
      if (!pieces[i].skipped) out.narrow(d, pieces[i].offset, pieces[i].size).copy_(tensors[i]);
    }
  }
  if (autograd::should_record(tensors)) {
    autograd::record("cat", tensors, std::span<const Tensor>(&out, 1),
                     [d, pieces = std::move(pieces)](const Tensor& grad, GradInputs& in) {
                       for (size_t i = 0; i < pieces.size(); ++i) {
                         if (!in.needs(i)) continue;
                         const CatPiece& p = pieces[i];
                         in[i] = p.skipped ? zeros({0}, grad.options().dtype(p.dtype))
                                           : grad.narrow(d, p.offset, p.size).to(p.dtype);
                       }
                     });
  }
  return out;
}

Tensor stack(TensorList tensors, int64_t dim) {
  ACCEL_CHECK(!tensors.empty(), "stack", "expected a non-empty list of tensors");
  const int64_t d = wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> unsqueezed;
  unsqueezed.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    ACCEL_CHECK(tensors[i].sizes() == tensors[0].sizes(), "stack",
                "expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}",
                tensors[0].sizes(), tensors[i].sizes(), i);
    unsqueezed.push_back(tensors[i].unsqueeze(d));
  }
  return cat(unsqueezed, d);
}

std::vector<Tensor> split(const Tensor& a, int64_t split_size, int64_t dim) {
  ACCEL_CHECK(a.dim() > 0, "split", "expects at least a 1-dimensional tensor");
  const int64_t d = wrap_dim(dim, a.dim(), "split");
  const int64_t size = a.sizes()[d];
  ACCEL_CHECK(split_size >= 0, "split", "split_size must be non-negative, got {}", split_size);
  ACCEL_CHECK(split_size > 0 || size == 0, "split",
              "split_size can only be 0 if dimension size is 0, but got dimension size of {}",
              size);
  const int64_t count =
      split_size == 0 ? 1 : std::max<int64_t>((size + split_size - 1) / split_size, 1);
  std::vector<int64_t> sizes;
  for (int64_t i = 0; i < count; ++i) sizes.push_back(std::min(split_size, size - i * split_size));
  return split(a, sizes, d);
}

std::vector<Tensor> split(const Tensor& a, IntArrayRef split_sizes, int64_t dim) {
  ACCEL_CHECK(a.dim() > 0, "split", "expects at least a 1-dimensional tensor");
  const int64_t d = wrap_dim(dim, a.dim(), "split");
  const int64_t size = a.sizes()[d];
  ACCEL_CHECK(std::ranges::all_of(split_sizes, [](int64_t s) { return s >= 0; }), "split",
              "split_sizes must be non-negative, got {}", split_sizes);
  ACCEL_CHECK(std::accumulate(split_sizes.begin(), split_sizes.end(), int64_t{0}) == size, "split",
              "split_sizes {} must sum exactly to {} (the input's size at dimension {}; shape {})",
              split_sizes, size, d, a.sizes());
  std::vector<Tensor> pieces;
  pieces.reserve(split_sizes.size());
  {
    NoGradGuard no_grad;  // the views are recorded together below
    int64_t start = 0;
    for (int64_t s : split_sizes) {
      pieces.push_back(a.narrow(d, start, s));
      start += s;
    }
  }
  return record_pieces("split", a, d, true, std::move(pieces));
}

std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim) {
  ACCEL_CHECK(a.dim() > 0, "chunk", "expects at least a 1-dimensional tensor");
  ACCEL_CHECK(chunks > 0, "chunk", "expects `chunks` to be greater than 0, got {}", chunks);
  const int64_t d = wrap_dim(dim, a.dim(), "chunk");
  const int64_t size = a.sizes()[d];
  // An empty dim still gives `chunks` (empty) pieces, as in PyTorch.
  if (size == 0) return split(a, std::vector<int64_t>(static_cast<size_t>(chunks), 0), d);
  return split(a, (size + chunks - 1) / chunks, d);
}

std::vector<Tensor> unbind(const Tensor& a, int64_t dim) {
  ACCEL_CHECK(a.dim() > 0, "unbind", "dimension specified as {} but tensor has no dimensions", dim);
  const int64_t d = wrap_dim(dim, a.dim(), "unbind");
  std::vector<Tensor> pieces;
  pieces.reserve(static_cast<size_t>(a.sizes()[d]));
  {
    NoGradGuard no_grad;
    for (int64_t i = 0; i < a.sizes()[d]; ++i) pieces.push_back(a.select(d, i));
  }
  return record_pieces("unbind", a, d, false, std::move(pieces));
}

std::vector<Tensor> Tensor::split(int64_t size, int64_t dim) const {
  return accel::split(*this, size, dim);
}
std::vector<Tensor> Tensor::split(IntArrayRef sizes, int64_t dim) const {
  return accel::split(*this, sizes, dim);
}
std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  return accel::chunk(*this, chunks, dim);
}
std::vector<Tensor> Tensor::unbind(int64_t dim) const { return accel::unbind(*this, dim); }

}  // namespace accel
