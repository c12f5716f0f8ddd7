// Printing tensors the way LibTorch does: values in right-aligned columns sharing one number
// format, then a line like "[ CPUFloatType{2,3} ]". Tensors of more than 1000 elements are
// summarized as PyTorch's repr does: each long dim shows its first and last three entries
// around "...". Columns stay aligned across all rows and slices.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "accel/core/autograd/grad_mode.h"
#include "accel/core/tensor.h"

namespace accel {

namespace {

constexpr int64_t kSummarizeThreshold = 1000;  // torch.set_printoptions defaults
constexpr int64_t kEdgeItems = 3;
constexpr size_t kLineWidth = 80;
constexpr int64_t kEllipsis = -1;  // stands for the elided middle of a summarized dim

std::string_view type_name(ScalarType t) {
  switch (t) {
    case kFloat32:
      return "Float";
    case kFloat64:
      return "Double";
    case kFloat16:
      return "Half";
    case kBFloat16:
      return "BFloat16";
    case kInt64:
      return "Long";
    case kInt32:
      return "Int";
    case kUInt8:
      return "Byte";
    case kBool:
      return "Bool";
  }
  return "Unknown";
}

// The indices shown along a dim: all of them, or the edges around kEllipsis.
std::vector<int64_t> shown_indices(int64_t size, bool summarize) {
  std::vector<int64_t> shown;
  const bool elide = summarize && size > 2 * kEdgeItems;
  for (int64_t i = 0; i < size; ++i) {
    if (elide && i == kEdgeItems) {
      shown.push_back(kEllipsis);
      i = size - kEdgeItems;
    }
    shown.push_back(i);
  }
  return shown;
}

// How every value of one tensor is written, chosen by LibTorch's rules: whole numbers as
// integers; otherwise four decimals, divided by a common power of ten when all magnitudes are
// very large or very small; scientific when they span more than four decades.
class NumberFormat {
 public:
  explicit NumberFormat(const std::vector<double>& values) {
    bool whole = true;
    double smallest = std::numeric_limits<double>::infinity();
    double largest = 0;
    for (double v : values) {
      if (!std::isfinite(v)) continue;
      if (v != std::ceil(v)) whole = false;
      smallest = std::min(smallest, std::fabs(v));
      largest = std::max(largest, std::fabs(v));
    }
    auto digits = [](double magnitude) {
      return magnitude == 0 || std::isinf(magnitude) ? 1.0 : std::floor(std::log10(magnitude)) + 1;
    };
    const double exp_min = digits(smallest);
    const double exp_max = digits(largest);
    if (whole) {
      style_ = exp_max > 9 ? Style::Scientific : Style::Integer;
      width_ = exp_max > 9 ? 11 : static_cast<size_t>(exp_max) + 1;
    } else if (exp_max - exp_min > 4) {
      style_ = Style::Scientific;
      width_ = std::fabs(exp_max) > 99 || std::fabs(exp_min) > 99 ? 12 : 11;
    } else if (exp_max > 5 || exp_max < 0) {
      style_ = Style::Fixed;
      scale_ = std::pow(10.0, exp_max - 1);
      width_ = 7;
    } else {
      style_ = Style::Fixed;
      width_ = exp_max == 0 ? 7 : static_cast<size_t>(exp_max) + 6;
    }
    // A sign or a long integer may need more room than LibTorch's estimate: keep columns aligned.
    for (double v : values) width_ = std::max(width_, str(v).size());
  }

  double scale() const { return scale_; }
  size_t width() const { return width_; }

  std::string str(double v) const {
    std::ostringstream s;
    switch (style_) {
      case Style::Integer:
        s << std::setprecision(10) << v;
        break;  // at most 9 digits: exact
      case Style::Fixed:
        s << std::fixed << std::setprecision(4) << v / scale_;
        break;
      case Style::Scientific:
        s << std::scientific << std::setprecision(4) << v;
        break;
    }
    return s.str();
  }

 private:
  enum class Style { Integer, Fixed, Scientific };
  Style style_ = Style::Integer;
  double scale_ = 1;
  size_t width_ = 0;
};

// Writes the shown part of a contiguous float64 copy of a tensor of dim >= 1.
class Printer {
 public:
  Printer(std::ostream& out, const double* data, IntArrayRef sizes)
      : out_(out), data_(data), sizes_(sizes), strides_(sizes.size(), 1) {
    const int64_t ndim = static_cast<int64_t>(sizes.size());
    for (int64_t d = ndim - 2; d >= 0; --d) strides_[d] = strides_[d + 1] * sizes[d + 1];
    const bool summarize = product(sizes) > kSummarizeThreshold;
    for (int64_t size : sizes) shown_.push_back(shown_indices(size, summarize));
  }

  void print() {
    std::vector<double> values;
    for_each_shown(0, 0, [&](int64_t offset) { values.push_back(data_[offset]); });
    const NumberFormat format(values);
    if (format.scale() != 1) out_ << format.scale() << " *\n";
    const int64_t ndim = static_cast<int64_t>(sizes_.size());
    if (ndim == 1) {
      for (int64_t i : shown_[0]) {
        out_ << (i == kEllipsis ? std::string("...") : cell(data_[i], format)) << '\n';
      }
      return;
    }
    std::vector<int64_t> prefix;
    bool first = true;
    print_slices(0, 0, prefix, first, format);
  }

 private:
  template <typename F>
  void for_each_shown(size_t dim, int64_t offset, const F& f) const {
    if (dim == sizes_.size()) return f(offset);
    for (int64_t i : shown_[dim]) {
      if (i != kEllipsis) for_each_shown(dim + 1, offset + i * strides_[dim], f);
    }
  }

  std::string cell(double v, const NumberFormat& format) const {
    return padded(format.str(v), format);
  }
  static std::string padded(const std::string& text, const NumberFormat& format) {
    return std::string(format.width() - std::min(format.width(), text.size()), ' ') + text;
  }

  // The matrices of the last two dims, each headed "(i,j,.,.) = " as LibTorch does.
  void print_slices(size_t dim, int64_t offset, std::vector<int64_t>& prefix, bool& first,
                    const NumberFormat& format) {
    if (dim + 2 == sizes_.size()) {
      if (!first) out_ << '\n';
      first = false;
      if (!prefix.empty()) {
        out_ << '(';
        for (int64_t i : prefix) out_ << i + 1 << ',';
        out_ << ".,.) = \n";
      }
      print_matrix(offset, format);
      return;
    }
    for (int64_t i : shown_[dim]) {
      if (i == kEllipsis) {
        out_ << (first ? "" : "\n") << "...\n";
        first = false;
        continue;
      }
      prefix.push_back(i);
      print_slices(dim + 1, offset + i * strides_[dim], prefix, first, format);
      prefix.pop_back();
    }
  }

  // Rows of the last two dims; columns that do not fit the line width go to further blocks
  // headed "Columns a to b".
  void print_matrix(int64_t offset, const NumberFormat& format) {
    const size_t ndim = sizes_.size();
    const std::vector<int64_t>& rows = shown_[ndim - 2];
    const std::vector<int64_t>& columns = shown_[ndim - 1];
    const size_t per_line = std::max<size_t>(1, kLineWidth / (format.width() + 1));
    for (size_t begin = 0; begin < columns.size(); begin += per_line) {
      const size_t end = std::min(columns.size(), begin + per_line);
      if (columns.size() > per_line) {
        if (begin != 0) out_ << '\n';
        const int64_t first = columns[begin] == kEllipsis ? columns[begin + 1] : columns[begin];
        const int64_t last = columns[end - 1] == kEllipsis ? columns[end - 2] : columns[end - 1];
        out_ << "Columns " << first + 1 << " to " << last + 1 << '\n';
      }
      for (int64_t r : rows) {
        if (r == kEllipsis) {
          out_ << "...\n";
          continue;
        }
        for (size_t c = begin; c < end; ++c) {
          if (c != begin) out_ << ' ';
          const int64_t j = columns[c];
          out_ << (j == kEllipsis ? padded("...", format)
                                  : cell(data_[offset + r * strides_[ndim - 2] + j], format));
        }
        out_ << '\n';
      }
    }
  }

  std::ostream& out_;
  const double* data_;
  IntArrayRef sizes_;
  std::vector<int64_t> strides_;
  std::vector<std::vector<int64_t>> shown_;
};

}  // namespace

std::string Tensor::toString() const {
  std::ostringstream s;
  s << (is_cuda() ? "CUDA" : "CPU") << type_name(dtype()) << "Type{";
  for (int64_t d = 0; d < dim(); ++d) s << (d == 0 ? "" : ",") << size(d);
  s << '}';
  return s.str();
}

std::ostream& operator<<(std::ostream& out, const Tensor& t) {
  if (!t.defined()) return out << "[ Tensor (undefined) ]";
  Tensor values;
  {
    NoGradGuard no_grad;
    values = t.detach().cpu().to(kFloat64).contiguous();
  }
  std::ostringstream s;  // a private stream: the caller's formatting flags stay untouched
  const double* data = values.data_ptr<double>();
  if (t.dim() == 0) {
    s << *data << '\n';
  } else if (t.numel() > 0) {
    Printer(s, data, values.sizes()).print();
  }
  s << "[ " << t.toString() << " ]";
  return out << s.str();
}

}  // namespace accel
