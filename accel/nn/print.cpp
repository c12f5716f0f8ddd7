// The module tree as text: PyTorch's repr layout (children indented two spaces a level) and a
// summary table of parameter counts.
#include "accel/nn/print.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace accel::nn {
namespace {

void print_tree(std::ostream& out, const Module& module, const std::string& indent) {
  out << module.name() << "(";
  const auto children = module.named_children();
  const std::string settings = module.extra_repr();
  if (children.size() == 0) {
    out << settings << ")";
    return;
  }
  const std::string inner = indent + "  ";
  out << "\n";
  if (!settings.empty()) out << inner << settings << "\n";
  for (const auto& [name, child] : children) {
    out << inner << "(" << name << "): ";
    print_tree(out, *child, inner);
    out << "\n";
  }
  out << indent << ")";
}

struct SummaryRow {
  std::string name;
  std::string type;
  int64_t parameters;
};

void collect_rows(const Module& module, const std::string& name, std::vector<SummaryRow>& rows) {
  rows.push_back({name, module.name(), count_parameters(module).total});
  for (const auto& [child_name, child] : module.named_children()) {
    collect_rows(*child, name == "(model)" ? child_name : name + "." + child_name, rows);
  }
}

std::string human_bytes(double bytes) {
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  size_t unit = 0;
  while (bytes >= 1024 && unit + 1 < std::size(kUnits)) {
    bytes /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, kUnits[unit]);
}

}  // namespace

std::ostream& operator<<(std::ostream& out, const Module& module) {
  print_tree(out, module, "");
  return out;
}

ParameterCounts count_parameters(const Module& module) {
  ParameterCounts counts;
  for (const Tensor& parameter : module.parameters()) {
    counts.total += parameter.numel();
    if (parameter.requires_grad()) counts.trainable += parameter.numel();
  }
  return counts;
}

std::string grouped_thousands(int64_t count) {
  std::string digits = std::to_string(count < 0 ? -count : count);
  for (auto at = static_cast<int64_t>(digits.size()) - 3; at > 0; at -= 3) {
    digits.insert(static_cast<size_t>(at), ",");
  }
  return count < 0 ? "-" + digits : digits;
}

std::string summary(const Module& module) {
  std::vector<SummaryRow> rows;
  collect_rows(module, "(model)", rows);
  size_t name_width = std::string("module").size();
  size_t type_width = std::string("type").size();
  size_t count_width = std::string("parameters").size();
  for (const SummaryRow& row : rows) {
    name_width = std::max(name_width, row.name.size());
    type_width = std::max(type_width, row.type.size());
    count_width = std::max(count_width, grouped_thousands(row.parameters).size());
  }
  std::string text = fmt::format("{:<{}}  {:<{}}  {:>{}}\n", "module", name_width, "type",
                                 type_width, "parameters", count_width);
  for (const SummaryRow& row : rows) {
    text += fmt::format("{:<{}}  {:<{}}  {:>{}}\n", row.name, name_width, row.type, type_width,
                        grouped_thousands(row.parameters), count_width);
  }
  double bytes = 0;
  for (const Tensor& parameter : module.parameters()) {
    bytes += static_cast<double>(parameter.nbytes());
  }
  const ParameterCounts counts = count_parameters(module);
  text += fmt::format("{} parameters ({} trainable), {}\n", grouped_thousands(counts.total),
                      grouped_thousands(counts.trainable), human_bytes(bytes));
  return text;
}

}  // namespace accel::nn
