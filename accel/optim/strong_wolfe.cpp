// The strong-Wolfe line search: sufficient decrease (c1 = 1e-4) and curvature (c2 = 0.9)
// conditions, bracketing then zoom, with PyTorch's safeguards (cubic steps kept within bounds,
// a tenth of the bracket kept clear after insufficient progress).
#include "accel/optim/strong_wolfe.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "accel/core/ops.h"

namespace accel::optim {
namespace {

constexpr double kC1 = 1e-4;
constexpr double kC2 = 0.9;

// The minimizer of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2, clamped to
// [low, high]; their midpoint when the cubic has no minimum.
double cubic_interpolate(double x1, double f1, double g1, double x2, double f2, double g2,
                         double low, double high) {
  const double d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2);
  const double d2_square = d1 * d1 - g1 * g2;
  if (!(d2_square >= 0)) return (low + high) / 2.0;
  const double d2 = std::sqrt(d2_square);
  const double min_pos = x1 <= x2 ? x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
                                  : x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
  return std::min(std::max(min_pos, low), high);
}

double cubic_interpolate(double x1, double f1, double g1, double x2, double f2, double g2) {
  return cubic_interpolate(x1, f1, g1, x2, f2, g2, std::min(x1, x2), std::max(x1, x2));
}

// One evaluated step length.
struct Point {
  double t = 0;
  double loss = 0;
  Tensor grad;
  double gtd = 0;  // grad . d
};

}  // namespace

LineSearchResult strong_wolfe(const DirectionalEvaluation& evaluate, double t, const Tensor& d,
                              double loss, const Tensor& flat_grad, double gtd,
                              double tolerance_change, int64_t max_ls) {
  const double d_norm = d.abs().max().item<double>();
  const Point start{0, loss, flat_grad.clone(), gtd};
  const auto evaluate_at = [&](double step) {
    auto [step_loss, grad] = evaluate(step);
    const double step_gtd = grad.dot(d).item<double>();
    return Point{step, step_loss, std::move(grad), step_gtd};
  };
  const auto sufficient_decrease = [&](const Point& p) {
    return !(p.loss > loss + kC1 * p.t * gtd);
  };
  const auto curvature = [&](const Point& p) { return std::abs(p.gtd) <= -kC2 * gtd; };

  // Bracketing: grow the step until [previous, current] holds a point meeting both conditions.
  Point current = evaluate_at(t);
  int64_t func_evals = 1;
  Point previous = start;
  std::array<Point, 2> bracket;
  bool single = false;  // the bracket has collapsed to one point meeting both conditions
  int64_t ls_iter = 0;
  for (; ls_iter < max_ls; ++ls_iter) {
    if (!sufficient_decrease(current) || (ls_iter > 1 && current.loss >= previous.loss)) {
      bracket = {previous, current};
      break;
    }
    if (curvature(current)) {
      bracket = {current, current};
      single = true;
      break;
    }
    if (current.gtd >= 0) {
      bracket = {previous, current};
      break;
    }
    const double next =
        cubic_interpolate(previous.t, previous.loss, previous.gtd, current.t, current.loss,
                          current.gtd, current.t + 0.01 * (current.t - previous.t), current.t * 10);
    previous = current;
    current = evaluate_at(next);
    ++func_evals;
  }
  if (ls_iter == max_ls) bracket = {start, current};

  // Zoom: shrink the bracket around the low point until it meets both conditions.
  bool insufficient_progress = false;
  int low = bracket[0].loss <= bracket[1].loss ? 0 : 1;
  for (bool done = single; !done && ls_iter < max_ls;) {
    if (std::abs(bracket[1].t - bracket[0].t) * d_norm < tolerance_change) break;
    double next = cubic_interpolate(bracket[0].t, bracket[0].loss, bracket[0].gtd, bracket[1].t,
                                    bracket[1].loss, bracket[1].gtd);
    // Keep the trial step a tenth of the bracket away from its ends, unless the last trial
    // already made too little progress there.
    const double high_t = std::max(bracket[0].t, bracket[1].t);
    const double low_t = std::min(bracket[0].t, bracket[1].t);
    const double eps = 0.1 * (high_t - low_t);
    if (std::min(high_t - next, next - low_t) < eps) {
      if (insufficient_progress || next >= high_t || next <= low_t) {
        next = std::abs(next - high_t) < std::abs(next - low_t) ? high_t - eps : low_t + eps;
        insufficient_progress = false;
      } else {
        insufficient_progress = true;
      }
    } else {
      insufficient_progress = false;
    }
    current = evaluate_at(next);
    ++func_evals;
    ++ls_iter;
    const int high = 1 - low;
    if (!sufficient_decrease(current) || current.loss >= bracket[low].loss) {
      bracket[high] = current;
      low = bracket[0].loss <= bracket[1].loss ? 0 : 1;
    } else {
      if (curvature(current)) {
        done = true;
      } else if (current.gtd * (bracket[high].t - bracket[low].t) >= 0) {
        bracket[high] = bracket[low];
      }
      bracket[low] = current;
    }
  }
  const Point& best = bracket[low];
  return {best.loss, best.grad, best.t, func_evals};
}

}  // namespace accel::optim
