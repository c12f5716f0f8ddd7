// A picture of a run's metrics: an SVG line chart of each metric's values per epoch (one
// colour per metric, a legend, the value range on the left), written atomically.
#pragma once

#include <string>
#include <utility>
#include <vector>

// Writes the chart of `series` ((name, values for epochs 1, 2, ...) pairs) to `path`.
void write_metrics_svg(const std::string& path,
                       const std::vector<std::pair<std::string, std::vector<double>>>& series);
