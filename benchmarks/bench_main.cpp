// Runs every registered workload (Google Benchmark's usual flags apply), then prints a
// summary: per workload and thread count, accel's figure beside each other
// implementation's, the ratio, and the target where there is one. Figures only:
// nothing here passes or fails.
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "epochs.h"
#include "workloads.h"

namespace {

// One measurement: seconds per call (CPU time of the calling thread) and, for throughput
// workloads, the rate (FLOP/s, bytes/s) over the workload's clock (workloads.h).
struct Figure {
  double seconds = 0;
  double rate = 0;
  const char* unit = nullptr;  // "GFLOP/s", "GB/s" or "samples/s"; null for time-only workloads
};

// Rows of the summary, in registration order then by thread count (random interleaving
// reports runs in any order).
struct Key {
  std::string workload;
  int64_t threads;
  bool operator<(const Key& o) const {
    const size_t a = bench::workload_order().at(workload),
                 b = bench::workload_order().at(o.workload);
    return a != b ? a < b : threads < o.threads;
  }
};

// The console reporter that also keeps each run's figure for the summary. With
// --benchmark_repetitions the median of the repetitions is kept.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "median") continue;
      keep(run);
    }
  }

  void print_summary() const {
    fmt::print("\nSummary (accel vs each other implementation, same run)\n");
#ifdef ACCEL_BENCH_WITH_LIBTORCH
    fmt::print("libtorch: LibTorch {}\n", bench::libtorch_version());
#endif
    for (const auto& [key, impls] : figures_) {
      auto accel = impls.find(bench::kAccel);
      if (accel == impls.end()) continue;
      std::string line = fmt::format("{:<32} threads={}  accel {}", key.workload, key.threads,
                                     format(accel->second));
      for (const auto& [impl, figure] : impls) {
        if (impl == bench::kAccel) continue;
        line += fmt::format(" | {} {} ({})", impl, format(figure),
                            ratio(key.workload, accel->second, figure, impl));
      }
      fmt::print("{}\n", line);
    }
  }

 private:
  void keep(const Run& run) {
    const std::string& name = run.run_name.function_name;  // "<workload>/<impl>"
    const size_t slash = name.rfind('/');
    const Key key{name.substr(0, slash), threads_of(run.run_name.args)};
    // Rates come from counters that already use the benchmark's clock; time-only workloads
    // are the calling-thread-CPU-timed small ops.
    Figure figure;
    figure.seconds = run.GetAdjustedCPUTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
    if (auto it = run.counters.find(bench::kFlopsCounter); it != run.counters.end()) {
      figure = {figure.seconds, it->second.value / 1e9, "GFLOP/s"};
    } else if (auto it = run.counters.find(bench::kBytesCounter); it != run.counters.end()) {
      figure = {figure.seconds, it->second.value / 1e9, "GB/s"};
    } else if (auto it = run.counters.find(bench::kSamplesCounter); it != run.counters.end()) {
      figure = {figure.seconds, it->second.value, "samples/s"};
    }
    figures_[key][name.substr(slash + 1)] = figure;
  }

  static int64_t threads_of(const std::string& args) {  // "threads:2"
    return std::stoll(args.substr(args.find(':') + 1));
  }

  static std::string format(const Figure& f) {
    if (f.unit) return fmt::format("{:.1f} {}", f.rate, f.unit);
    return fmt::format("{:.3f} us", f.seconds * 1e6);
  }

  // accel relative to `other`: a rate ratio (higher is better) or a time ratio (lower is
  // better), with the target for this workload and baseline when an issue sets one.
  static std::string ratio(const std::string& workload, const Figure& accel, const Figure& other,
                           const std::string& impl) {
    const bool rates = accel.unit != nullptr;
    const double r = rates ? accel.rate / other.rate : accel.seconds / other.seconds;
    std::string text = fmt::format("accel/{} {:.2f}", impl, r);
    for (const bench::Target& t : bench::kTargets) {
      if ((t.workload == nullptr || workload == t.workload) && impl == t.baseline &&
          t.higher_is_better == rates) {
        const bool met = rates ? r >= t.ratio : r <= t.ratio;
        text += fmt::format(", target {} {:.2f}: {}", rates ? ">=" : "<=", t.ratio,
                            met ? "met" : "MISSED");
      }
    }
    return text;
  }

  std::map<Key, std::map<std::string, Figure>> figures_;
};

}  // namespace

int main(int argc, char** argv) {
  // Defaults suited to a shared, noisy machine: repetitions interleaved at random so accel and
  // its baselines see the same load, and the median kept. Flags given on the command line
  // come later and win.
  static char defaults[][48] = {
      "--benchmark_repetitions=5", "--benchmark_enable_random_interleaving=true",
      "--benchmark_report_aggregates_only=true", "--benchmark_min_time=0.1"};
  std::vector<char*> args = {argv[0]};
  for (char* flag : defaults) args.push_back(flag);
  args.insert(args.end(), argv + 1, argv + argc);
  argc = static_cast<int>(args.size());
  argv = args.data();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bench::register_accel();
  bench::register_baselines();
#ifdef ACCEL_BENCH_WITH_LIBTORCH
  bench::register_libtorch();
#endif
  SummaryReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_summary();
  benchmark::Shutdown();
}
