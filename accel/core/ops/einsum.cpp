// einsum: the equation parsed into one label per operand dim (letters, and "..." as the
// broadcast dims aligned from the right); a label repeated within an operand becomes its
// diagonal; labels no later operand or the output needs are summed away early; operands are
// contracted pairwise, left to right, as one bmm each over [shared kept labels, own labels,
// contracted labels]; the result is summed down to the output's labels and permuted into
// their order. Gradients come from the ops it is composed of.
#include <algorithm>
#include <string>
#include <vector>

#include "accel/core/ops.h"

namespace accel {
namespace {

constexpr const char* kOp = "einsum";
constexpr int kLetters = 52;  // a-z, A-Z; the broadcast dims of "..." follow

// A tensor whose dims carry labels (one per dim, no repeats).
struct Labeled {
  Tensor tensor;
  std::vector<int> labels;
};

int letter_label(char c, std::string_view equation) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  fail(kOp, "invalid subscript '{}' in equation \"{}\" (letters and \"...\" only)", c, equation);
}

// One term's labels: letters, and kEllipsis where "..." stands.
constexpr int kEllipsis = -1;
std::vector<int> parse_term(std::string_view term, std::string_view equation) {
  std::vector<int> labels;
  bool ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term[i] == ' ') continue;
    if (term[i] == '.') {
      ACCEL_CHECK(!ellipsis && term.substr(i, 3) == "...", kOp,
                  "\"...\" must be three dots and appear at most once per term in \"{}\"",
                  equation);
      ellipsis = true;
      labels.push_back(kEllipsis);
      i += 2;
      continue;
    }
    labels.push_back(letter_label(term[i], equation));
  }
  return labels;
}

// The term's labels with "..." expanded to the broadcast labels of its dims (the last `count` of
// `total` broadcast dims).
std::vector<int> expand_ellipsis(const std::vector<int>& term, int64_t count, int64_t total) {
  std::vector<int> labels;
  for (int label : term) {
    if (label != kEllipsis) {
      labels.push_back(label);
      continue;
    }
    for (int64_t i = total - count; i < total; ++i)
      labels.push_back(kLetters + static_cast<int>(i));
  }
  return labels;
}

bool contains(const std::vector<int>& labels, int label) {
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

// Dims with repeated labels replaced by their diagonal (the label moves to the last dim).
Labeled take_diagonals(Labeled operand) {
  for (size_t i = 0; i < operand.labels.size(); ++i) {
    for (size_t j = i + 1; j < operand.labels.size(); ++j) {
      if (operand.labels[i] != operand.labels[j]) continue;
      const Tensor& t = operand.tensor;
      ACCEL_CHECK(t.size(static_cast<int64_t>(i)) == t.size(static_cast<int64_t>(j)), kOp,
                  "a subscript repeated in one operand must index dims of one size, got {} and "
                  "{} in shape {}",
                  t.size(static_cast<int64_t>(i)), t.size(static_cast<int64_t>(j)), t.sizes());
      const int label = operand.labels[i];
      operand.tensor = diagonal(t, 0, static_cast<int64_t>(i), static_cast<int64_t>(j));
      operand.labels.erase(operand.labels.begin() + static_cast<std::ptrdiff_t>(j));
      operand.labels.erase(operand.labels.begin() + static_cast<std::ptrdiff_t>(i));
      operand.labels.push_back(label);
      return take_diagonals(std::move(operand));
    }
  }
  return operand;
}

// Sums away the operand's labels that are not in `keep`.
Labeled sum_unneeded(Labeled operand, const std::vector<int>& keep) {
  DimVector dims;
  std::vector<int> kept;
  for (size_t i = 0; i < operand.labels.size(); ++i) {
    if (contains(keep, operand.labels[i])) {
      kept.push_back(operand.labels[i]);
    } else {
      dims.push_back(static_cast<int64_t>(i));
    }
  }
  if (dims.empty()) return operand;
  return {operand.tensor.sum(dims), kept};
}

int64_t size_of(const Labeled& operand, int label) {
  const auto at = std::find(operand.labels.begin(), operand.labels.end(), label);
  return at == operand.labels.end() ? 1 : operand.tensor.size(at - operand.labels.begin());
}

// `operand` permuted to `order` (labels it lacks become dims of size 1) and expanded to `sizes`.
Tensor arranged(const Labeled& operand, const std::vector<int>& order, IntArrayRef sizes) {
  DimVector permutation, shape;
  for (int label : order) {
    const auto at = std::find(operand.labels.begin(), operand.labels.end(), label);
    if (at != operand.labels.end()) permutation.push_back(at - operand.labels.begin());
  }
  const Tensor permuted = operand.tensor.permute(permutation);
  for (int label : order) shape.push_back(size_of(operand, label));
  return permuted.reshape(shape).expand(sizes);
}

// a and b contracted over their shared labels that `keep` lacks; the shared labels in `keep`
// are a batch.
Labeled contract(const Labeled& a, const Labeled& b, const std::vector<int>& keep) {
  std::vector<int> batch, own_a, own_b, summed;
  for (int label : a.labels) {
    if (!contains(b.labels, label)) {
      own_a.push_back(label);
    } else if (contains(keep, label)) {
      batch.push_back(label);
    } else {
      summed.push_back(label);
    }
  }
  for (int label : b.labels) {
    if (!contains(a.labels, label)) own_b.push_back(label);
  }
  const auto sizes_of = [&](const std::vector<int>& labels) {
    DimVector sizes;
    for (int label : labels) {
      const int64_t sa = size_of(a, label), sb = size_of(b, label);
      ACCEL_CHECK(sa == sb || sa == 1 || sb == 1, kOp,
                  "a subscript indexes dims of sizes {} and {}, which do not broadcast (operands "
                  "of shapes {} and {})",
                  sa, sb, a.tensor.sizes(), b.tensor.sizes());
      sizes.push_back(std::max(sa, sb));
    }
    return sizes;
  };
  const DimVector batch_sizes = sizes_of(batch), a_sizes = sizes_of(own_a),
                  b_sizes = sizes_of(own_b), summed_sizes = sizes_of(summed);
  const auto product = [](const DimVector& sizes) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  };
  const auto joined = [](std::initializer_list<const DimVector*> parts) {
    DimVector out;
    for (const DimVector* part : parts) {
      for (int64_t size : *part) out.push_back(size);
    }
    return out;
  };
  const auto labels = [](std::initializer_list<const std::vector<int>*> parts) {
    std::vector<int> out;
    for (const std::vector<int>* part : parts) out.insert(out.end(), part->begin(), part->end());
    return out;
  };
  const int64_t batches = product(batch_sizes), rows = product(a_sizes), cols = product(b_sizes),
                inner = product(summed_sizes);
  const Tensor left = arranged(a, labels({&batch, &own_a, &summed}),
                               joined({&batch_sizes, &a_sizes, &summed_sizes}))
                          .reshape({batches, rows, inner});
  const Tensor right = arranged(b, labels({&batch, &summed, &own_b}),
                                joined({&batch_sizes, &summed_sizes, &b_sizes}))
                           .reshape({batches, inner, cols});
  return {bmm(left, right).reshape(joined({&batch_sizes, &a_sizes, &b_sizes})),
          labels({&batch, &own_a, &own_b})};
}

}  // namespace

Tensor einsum(std::string_view equation, TensorList operands) {
  ACCEL_CHECK(!operands.empty(), kOp, "expected at least one operand");
  const size_t arrow = equation.find("->");
  const std::string_view inputs = equation.substr(0, arrow);
  std::vector<std::vector<int>> terms;
  for (size_t start = 0;;) {
    const size_t comma = inputs.find(',', start);
    terms.push_back(parse_term(inputs.substr(start, comma - start), equation));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  ACCEL_CHECK(terms.size() == operands.size(), kOp,
              "the equation \"{}\" has {} operand terms, but {} operands were given", equation,
              terms.size(), operands.size());
  // The labels of each operand's dims; "..." covers the dims the letters leave.
  int64_t broadcast_dims = 0;
  std::vector<int64_t> ellipsis_dims(terms.size(), 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    const int64_t letters = static_cast<int64_t>(std::count_if(
        terms[i].begin(), terms[i].end(), [](int label) { return label != kEllipsis; }));
    const bool has_ellipsis = contains(terms[i], kEllipsis);
    const int64_t dims = operands[i].dim();
    ACCEL_CHECK(has_ellipsis ? dims >= letters : dims == letters, kOp,
                "operand {} has {} dims (shape {}), but its term in \"{}\" names {}", i, dims,
                operands[i].sizes(), equation, letters);
    ellipsis_dims[i] = dims - letters;
    broadcast_dims = std::max(broadcast_dims, ellipsis_dims[i]);
  }
  std::vector<Labeled> labeled;
  std::vector<int> counts(static_cast<size_t>(kLetters + broadcast_dims), 0);
  for (size_t i = 0; i < terms.size(); ++i) {
    // Counted before diagonals merge repeats: "ii" has no implicit output.
    const std::vector<int> labels = expand_ellipsis(terms[i], ellipsis_dims[i], broadcast_dims);
    for (int label : labels) ++counts[static_cast<size_t>(label)];
    labeled.push_back(take_diagonals({operands[i], labels}));
  }
  std::vector<int> output;
  if (arrow != std::string_view::npos) {
    const std::vector<int> term = parse_term(equation.substr(arrow + 2), equation);
    output = expand_ellipsis(term, contains(term, kEllipsis) ? broadcast_dims : 0, broadcast_dims);
    for (size_t i = 0; i < output.size(); ++i) {
      ACCEL_CHECK(counts[static_cast<size_t>(output[i])] > 0, kOp,
                  "output subscript {} of \"{}\" appears in no operand", i, equation);
      ACCEL_CHECK(std::count(output.begin(), output.end(), output[i]) == 1, kOp,
                  "output subscripts of \"{}\" must not repeat", equation);
    }
  } else {
    // Implicit output: the broadcast dims, then the letters seen once, alphabetically (a-z,
    // then A-Z as PyTorch orders them: upper case first).
    for (int64_t i = 0; i < broadcast_dims; ++i) output.push_back(kLetters + static_cast<int>(i));
    for (int i = 0; i < kLetters; ++i) {
      const int label = (i + 26) % kLetters;
      if (counts[static_cast<size_t>(label)] == 1) output.push_back(label);
    }
  }
  // What each step must keep: the output's labels and those of the operands still to come.
  std::vector<std::vector<int>> keep(labeled.size(), output);
  for (size_t i = labeled.size(); i-- > 1;) {
    keep[i - 1] = keep[i];
    keep[i - 1].insert(keep[i - 1].end(), labeled[i].labels.begin(), labeled[i].labels.end());
  }
  Labeled result = sum_unneeded(labeled[0], keep[0]);
  for (size_t i = 1; i < labeled.size(); ++i) {
    std::vector<int> others = keep[i];
    others.insert(others.end(), result.labels.begin(), result.labels.end());
    result = contract(result, sum_unneeded(labeled[i], others), keep[i]);
  }
  result = sum_unneeded(result, output);
  DimVector output_sizes;
  for (int label : output) {
    int64_t size = 1;
    for (const Labeled& operand : labeled) size = std::max(size, size_of(operand, label));
    output_sizes.push_back(size);
  }
  return arranged(result, output, output_sizes).contiguous();
}

}  // namespace accel
