// ProgressDisplay: one tqdm-like progress bar (count/total, percentage, elapsed<ETA, rate, and
// a caller's postfix such as the running loss), fitted to a width so that it never wraps. On a
// terminal it redraws one line in place at most ten times a second; otherwise it prints a plain
// line at every tenth of the total (or every 30 s), so logs stay short and readable.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace accel {

class ProgressDisplay {
 public:
  enum class Mode { Live, Lines };
  // Live when `out` is a terminal, else Lines.
  static Mode mode_for(std::FILE* out);
  // The terminal's width when `out` is one, else $COLUMNS, else 80.
  static int width_for(std::FILE* out);

  // Starts at `initial` of `total` steps (total 0: unknown); lines are at most `width` columns.
  ProgressDisplay(std::string label, int64_t total, int64_t initial = 0, Mode mode = Mode::Lines,
                  std::FILE* out = stdout, int width = 80);

  // One more step done; draws only when it is time to, with the text postfix() returns then
  // (so the postfix costs nothing on the steps that are not drawn).
  template <typename Postfix>
  void update(const Postfix& postfix) {
    ++count_;
    const Clock::time_point now = Clock::now();
    if (count_ >= next_draw_count_ || now >= next_draw_time_) draw(now, postfix());
  }
  void update() {
    update([] { return std::string(); });
  }
  // Draws the final state (unless already shown) and ends the line.
  void close(const std::string& postfix = {});
  // Ends a live bar's line so that other output can follow; the bar redraws below it.
  void break_line();
  // Seconds since the display started.
  double elapsed_seconds() const;

  // "label:  45%|#####     | 45/100 [00:01<00:01, 40.00it/s, postfix]" (rate 0: unknown), the
  // bar as wide as `width` allows (at most 20), the text cut to width - 1 columns if even a
  // bar-less line is too long.
  static std::string format(const std::string& label, int64_t count, int64_t total,
                            double elapsed_seconds, double rate, const std::string& postfix = {},
                            int width = 80);

 private:
  using Clock = std::chrono::steady_clock;
  void draw(Clock::time_point now, const std::string& postfix);

  std::string label_;
  int64_t total_;
  int64_t initial_;
  Mode mode_;
  std::FILE* out_;
  int width_;
  int64_t count_;
  Clock::time_point start_ = Clock::now();
  // The next draw happens at this count or this time, whichever comes first.
  int64_t next_draw_count_ = 0;
  Clock::time_point next_draw_time_;
  int64_t drawn_count_ = -1;  // the count last shown
  bool line_open_ = false;    // a live line has been drawn and not ended
};

}  // namespace accel
