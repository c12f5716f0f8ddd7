// unique and unique_consecutive: the distinct elements (or slices along a dim) of a tensor, with
// where each input element went (inverse) and how many fell together (counts). Both find the runs
// of equal items in one order of them, unique's sorted one (slices sorted lexicographically by
// stable sorts from their last element to their first) or unique_consecutive's own, and number
// the runs with a running count. NaN equals nothing, so every NaN is an item of its own, as in
// PyTorch. Integer elements of a narrow range are counted instead of sorted.
#include <algorithm>
#include <optional>

#include "accel/core/ops/index_support.h"
#include "accel/core/ops/op_support.h"

namespace accel {

namespace {

// The items, one per row: [count, item size].
struct Items {
  Tensor rows;
  int64_t count;
};

// The items along `dim` of a (dim moved first), or a's elements when dim is absent.
Items items_of(const Tensor& a, std::optional<int64_t> dim, const char* op) {
  if (!dim) return {a.reshape({a.numel(), 1}), a.numel()};
  const int64_t count = a.size(*dim);
  const int64_t item_size = count == 0 ? 0 : a.numel() / count;
  ACCEL_CHECK(count == 0 || item_size > 0, op,
              "the slices along dim {} of a tensor of shape {} are empty: nothing to compare", *dim,
              a.sizes());
  return {a.movedim(*dim, 0).reshape({count, item_size}), count};
}

// The order that sorts the rows lexicographically: stable sorts by each column, last first.
Tensor lexicographic_order(const Tensor& rows) {
  Tensor order = arange(rows.size(0), TensorOptions(kInt64).device(rows.device()));
  for (int64_t j = rows.size(1) - 1; j >= 0; --j) {
    order = order.index_select(0, argsort(rows.select(1, j).index_select(0, order)));
  }
  return order;
}

std::tuple<Tensor, Tensor, Tensor> runs_of(const Tensor& a, std::optional<int64_t> dim,
                                           bool in_sorted_order, bool return_inverse,
                                           bool return_counts, const char* op) {
  ACCEL_CHECK(a.defined(), op, "the input is undefined");
  if (dim) {
    ACCEL_CHECK(a.dim() > 0, op, "dim {} given for a 0-dim tensor", *dim);
    dim = wrap_dim(*dim, a.dim(), op);
  }
  NoGradGuard no_gradient;
  const Items items = items_of(a, dim, op);
  const TensorOptions index_options = TensorOptions(kInt64).device(a.device());
  Tensor order, ordered;
  if (!in_sorted_order) {
    order = arange(items.count, index_options);
    ordered = items.rows;
  } else if (items.rows.size(1) == 1) {
    // Single elements: one sort gives the order and the ordered items.
    std::tie(ordered, order) = sort(items.rows, 0);
    order = order.reshape({-1});
  } else {
    order = lexicographic_order(items.rows);
    ordered = items.rows.index_select(0, order);
  }
  // A run starts at the first item and wherever an item differs from the one before it.
  Tensor starts_run = ones({items.count}, TensorOptions(kBool).device(a.device()));
  if (items.count > 1) {
    const Tensor unequal =
        ne(ordered.narrow(0, 1, items.count - 1), ordered.narrow(0, 0, items.count - 1));
    const Tensor differs = unequal.size(1) == 1 ? unequal.squeeze(1) : unequal.any(1);
    starts_run = cat({starts_run.narrow(0, 0, 1), differs});
  }
  const Tensor run_of = cumsum(starts_run, 0) - 1;
  const Tensor run_starts = nonzero(starts_run).reshape({-1});
  const Tensor firsts = ordered.index_select(0, run_starts);
  Tensor values;
  if (dim) {
    DimVector sizes(a.movedim(*dim, 0).sizes());
    sizes[0] = firsts.size(0);
    values = firsts.reshape(sizes).movedim(0, *dim);
  } else {
    values = firsts.reshape({-1});
  }
  Tensor inverse = empty({0}, index_options), counts = empty({0}, index_options);
  if (return_inverse) {
    inverse = empty({items.count}, index_options).scatter(0, order, run_of);
    if (!dim) inverse = inverse.reshape(a.sizes());
  }
  if (return_counts) {  // each run ends where the next starts, the last at the end
    const Tensor bounds = cat({run_starts, full({1}, items.count, index_options)});
    counts = bounds.narrow(0, 1, run_starts.size(0)) - run_starts;
  }
  return {values, inverse, counts};
}

// unique's elements of a non-empty integer tensor whose values span no more than
// kMaxSpan or its element count, found by counting each value (a pass to add them into a bin per
// value, one to number the bins in use, one to read each element's number) instead of sorting.
// Null where the span is wider.
constexpr uint64_t kMaxSpan = uint64_t(1) << 16;
std::optional<std::tuple<Tensor, Tensor, Tensor>> unique_by_counting(const Tensor& a,
                                                                     bool return_inverse,
                                                                     bool return_counts) {
  const Tensor flat = a.reshape({-1}).to(kInt64);
  const int64_t low = flat.min().item<int64_t>(), high = flat.max().item<int64_t>();
  // span - 1, computed without overflow: the int64 extremes are 2^64 - 1 apart.
  const uint64_t widest = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  if (widest >= std::max(kMaxSpan, static_cast<uint64_t>(flat.numel()))) return std::nullopt;
  const int64_t span = static_cast<int64_t>(widest) + 1;
  const TensorOptions index_options = TensorOptions(kInt64).device(a.device());
  const Tensor bin = flat - low;  // in [0, span)
  Tensor per_value = zeros({span}, index_options);
  scatter_into("unique", math::ScatterReduce::Sum, per_value, 0, bin,
               ones({1}, index_options).expand(bin.sizes()));
  const Tensor present = per_value > 0;
  const Tensor present_bins = nonzero(present).reshape({-1});
  const Tensor values = (present_bins + low).to(a.dtype());
  Tensor inverse = empty({0}, index_options), counts = empty({0}, index_options);
  if (return_inverse) {
    const Tensor number = cumsum(present, 0) - 1;  // each bin's place among those in use
    inverse = gather_values("unique", number, 0, bin).reshape(a.sizes());
  }
  if (return_counts) counts = gather_values("unique", per_value, 0, present_bins);
  return std::tuple{values, inverse, counts};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& input, bool /*sorted*/, bool return_inverse,
                                          bool return_counts, std::optional<int64_t> dim) {
  if (!dim && input.defined() && is_integral(input.dtype(), false) && input.numel() > 0) {
    NoGradGuard no_gradient;
    if (auto found = unique_by_counting(input, return_inverse, return_counts)) return *found;
  }
  return runs_of(input, dim, true, return_inverse, return_counts, "unique");
}

std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& input, bool return_inverse,
                                                      bool return_counts,
                                                      std::optional<int64_t> dim) {
  return runs_of(input, dim, false, return_inverse, return_counts, "unique_consecutive");
}

std::tuple<Tensor, Tensor, Tensor> Tensor::unique(bool sorted, bool return_inverse,
                                                  bool return_counts,
                                                  std::optional<int64_t> dim) const {
  return accel::unique(*this, sorted, return_inverse, return_counts, dim);
}
std::tuple<Tensor, Tensor, Tensor> Tensor::unique_consecutive(bool return_inverse,
                                                              bool return_counts,
                                                              std::optional<int64_t> dim) const {
  return accel::unique_consecutive(*this, return_inverse, return_counts, dim);
}

}  // namespace accel
