// ProgressDisplay: tqdm's text layout; the draw schedule (a count and a time) keeps update() to
// an increment, a clock read and a comparison.
#include "accel/trainer/callbacks/progress_display.h"

#include <fmt/core.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace accel {
namespace {

constexpr std::chrono::milliseconds kLiveInterval{100};
constexpr std::chrono::seconds kLinesInterval{30};
constexpr int kMaxBarWidth = 20;

// "MM:SS", or "H:MM:SS" past an hour, as tqdm.
std::string format_duration(double seconds) {
  const auto total = static_cast<int64_t>(seconds);
  const int64_t h = total / 3600, m = total / 60 % 60, s = total % 60;
  return h > 0 ? fmt::format("{}:{:02}:{:02}", h, m, s) : fmt::format("{:02}:{:02}", m, s);
}

}  // namespace

ProgressDisplay::Mode ProgressDisplay::mode_for(std::FILE* out) {
  return isatty(fileno(out)) ? Mode::Live : Mode::Lines;
}

int ProgressDisplay::width_for(std::FILE* out) {
  winsize size{};
  if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  if (const char* columns = std::getenv("COLUMNS")) {
    const int value = std::atoi(columns);
    if (value > 0) return value;
  }
  return 80;
}

ProgressDisplay::ProgressDisplay(std::string label, int64_t total, int64_t initial, Mode mode,
                                 std::FILE* out, int width)
    : label_(std::move(label)),
      total_(total),
      initial_(initial),
      mode_(mode),
      out_(out),
      width_(width),
      count_(initial) {
  // A live bar first shows at its first step, so output printed as the epoch starts (the
  // previous epoch's line) comes before it rather than across it.
  if (mode_ == Mode::Lines) draw(start_, {});
}

std::string ProgressDisplay::format(const std::string& label, int64_t count, int64_t total,
                                    double elapsed_seconds, double rate, const std::string& postfix,
                                    int width) {
  const std::string rate_text = rate > 0 ? fmt::format("{:.2f}it/s", rate) : "?it/s";
  const std::string elapsed = format_duration(elapsed_seconds);
  const std::string extra = postfix.empty() ? "" : ", " + postfix;
  std::string text;
  if (total <= 0) {
    text = fmt::format("{}: {} [{}, {}{}]", label, count, elapsed, rate_text, extra);
  } else {
    const double fraction =
        std::clamp(static_cast<double>(count) / static_cast<double>(total), 0.0, 1.0);
    const std::string eta =
        rate > 0 ? format_duration(static_cast<double>(std::max<int64_t>(total - count, 0)) / rate)
                 : "?";
    const std::string head = fmt::format("{}: {:3}%|", label, static_cast<int>(fraction * 100));
    const std::string tail =
        fmt::format("| {}/{} [{}<{}, {}{}]", count, total, elapsed, eta, rate_text, extra);
    // The bar takes what the width leaves (a terminal wraps a line that reaches its last
    // column), at most kMaxBarWidth; none at all below 4 columns.
    const int room = width - 1 - static_cast<int>(head.size() + tail.size());
    const int bar_width = std::min(room, kMaxBarWidth);
    if (bar_width >= 4) {
      const auto filled = static_cast<int>(fraction * bar_width);
      text = fmt::format("{}{:#<{}}{:<{}}{}", head, "", filled, "", bar_width - filled, tail);
    } else {
      text = fmt::format("{}: {:3}% {}", label, static_cast<int>(fraction * 100), tail.substr(2));
    }
  }
  if (width > 1 && static_cast<int>(text.size()) > width - 1) text.resize(width - 1);
  return text;
}

double ProgressDisplay::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void ProgressDisplay::draw(Clock::time_point now, const std::string& postfix) {
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  // The rate counts the steps done here, not those a resumed epoch started with.
  const double rate = elapsed > 0 ? static_cast<double>(count_ - initial_) / elapsed : 0;
  const std::string text = format(label_, count_, total_, elapsed, rate, postfix, width_);
  if (mode_ == Mode::Live) {
    fmt::print(out_, "\r{}\x1b[K", text);
    line_open_ = true;
    next_draw_count_ = total_ > 0 ? total_ : INT64_MAX;
    next_draw_time_ = now + kLiveInterval;
  } else {
    fmt::print(out_, "{}\n", text);
    const int64_t tenth = std::max<int64_t>((total_ - initial_) / 10, 1);
    next_draw_count_ = total_ > 0 ? std::min(count_ + tenth, total_) : INT64_MAX;
    next_draw_time_ = now + kLinesInterval;
  }
  std::fflush(out_);
  drawn_count_ = count_;
}

void ProgressDisplay::close(const std::string& postfix) {
  if (drawn_count_ != count_) draw(Clock::now(), postfix);
  break_line();
}

void ProgressDisplay::break_line() {
  if (!line_open_) return;
  std::fputc('\n', out_);
  std::fflush(out_);
  line_open_ = false;
}

}  // namespace accel
