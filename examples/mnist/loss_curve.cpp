// The metrics chart: plain SVG (polylines, text) scaled to the values' range; non-finite values
// break a line instead of bending it off the chart.
#include "loss_curve.h"

#include <accel/accel.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

constexpr double kWidth = 640, kHeight = 360;
constexpr double kLeft = 70, kRight = 200, kTop = 20, kBottom = 40;  // margins
constexpr const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

}  // namespace

void write_metrics_svg(const std::string& path,
                       const std::vector<std::pair<std::string, std::vector<double>>>& series) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  size_t epochs = 1;
  for (const auto& [name, values] : series) {
    epochs = std::max(epochs, values.size());
    for (double value : values) {
      if (!std::isfinite(value)) continue;
      low = std::min(low, value);
      high = std::max(high, value);
    }
  }
  if (!(low <= high)) low = 0, high = 1;  // nothing finite to show
  if (high == low) high = low + 1;
  const double plot_width = kWidth - kLeft - kRight, plot_height = kHeight - kTop - kBottom;
  const auto x_of = [&](size_t epoch) {  // epoch counted from 0
    return kLeft + (epochs == 1 ? 0.5 : static_cast<double>(epoch) / (epochs - 1)) * plot_width;
  };
  const auto y_of = [&](double value) {
    return kTop + (1 - (value - low) / (high - low)) * plot_height;
  };

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>\n"
      "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.4g}</text>\n"
      "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.4g}</text>\n"
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">epoch (1 to {})</text>\n",
      kWidth, kHeight, kLeft, kTop, plot_width, plot_height, kLeft - 6, kTop + 10, high, kLeft - 6,
      kTop + plot_height, low, kLeft + plot_width / 2, kHeight - 12, epochs);
  for (size_t i = 0; i < series.size(); ++i) {
    const auto& [name, values] = series[i];
    const char* colour = kColours[i % std::size(kColours)];
    std::string points;
    const auto flush_line = [&] {
      if (!points.empty()) {
        svg += fmt::format(
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", colour,
            points);
      }
      points.clear();
    };
    for (size_t epoch = 0; epoch < values.size(); ++epoch) {
      if (!std::isfinite(values[epoch])) {
        flush_line();
        continue;
      }
      points += fmt::format("{:.1f},{:.1f} ", x_of(epoch), y_of(values[epoch]));
      if (values.size() == 1)
        points += fmt::format("{:.1f},{:.1f} ", x_of(epoch) + 1, y_of(values[epoch]));
    }
    flush_line();
    const double legend_y = kTop + 14 + 18 * static_cast<double>(i);
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"3\"/>\n"
        "<text x=\"{}\" y=\"{}\">{}</text>\n",
        kWidth - kRight + 12, legend_y - 4, kWidth - kRight + 32, legend_y - 4, colour,
        kWidth - kRight + 38, legend_y, escaped(name));
  }
  svg += "</svg>\n";
  accel::io::AtomicFileWriter writer(path);
  writer.write(svg.data(), svg.size());
  writer.commit();
}
