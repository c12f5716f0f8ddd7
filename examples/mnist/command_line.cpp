// The MNIST example's flags, declared once with CLI11: the description, default and accepted
// values of each are what --help prints and what a wrong value is checked against.
#include "command_line.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <iostream>
#include <limits>

namespace {

// A check of a floating-point flag: `accepts` decides; `expected` says what it wants, in --help
// and in the error.
CLI::Validator real_number(const std::string& expected, bool (*accepts)(double)) {
  return {[=](const std::string& text) -> std::string {
            double value = 0;
            if (CLI::detail::lexical_cast(text, value) && accepts(value)) return {};
            return "expected " + expected + ", got " + text;
          },
          expected};
}

// A check of an integer flag: a whole number in [lowest, highest] ("2.7" and "-1" for a count
// are errors that say so).
template <typename Integer>
CLI::Validator whole_number(Integer lowest, Integer highest) {
  const std::string expected = fmt::format("a whole number in [{}, {}]", lowest, highest);
  return {[=](const std::string& text) -> std::string {
            Integer value{};
            const auto [end, error] =
                std::from_chars(text.data(), text.data() + text.size(), value);
            if (error == std::errc() && end == text.data() + text.size() && value >= lowest &&
                value <= highest) {
              return {};
            }
            return "expected " + expected + ", got " + text;
          },
          expected};
}

}  // namespace

ParsedCommandLine parse_command_line(int argc, char** argv) {
  Flags flags;
  CLI::App app(
      "Trains a classifier on MNIST-format data (Fashion-MNIST by default) with accel's "
      "Trainer, evaluates it on the test split and ends with one line:\n"
      "  final: test_accuracy=<x> test_loss=<x> train_samples_per_s=<x> epochs=<n>",
      "train_mnist");
  app.option_defaults()->always_capture_default();
  app.get_formatter()->column_width(34);

  app.add_option("--data-dir", flags.data_dir,
                 "directory holding the four MNIST files (train-/t10k- images and labels, raw "
                 "or .gz)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--model", flags.model, "mlp (784-128-64-10) or cnn (two conv blocks)")
      ->check(CLI::IsMember({"mlp", "cnn"}));
  app.add_option("--epochs", flags.epochs, "training epochs")
      ->check(whole_number<int64_t>(1, 1'000'000));
  app.add_option("--batch-size", flags.batch_size, "training batch size")
      ->check(whole_number<int64_t>(1, 1 << 20));
  app.add_option("--lr", flags.lr, "learning rate")
      ->check(real_number("a finite number > 0",
                          [](double lr) { return std::isfinite(lr) && lr > 0; }));
  app.add_option("--optimizer", flags.optimizer, "sgd (momentum 0.9), adam or adamw")
      ->check(CLI::IsMember({"sgd", "adam", "adamw"}));
  app.add_option("--val-fraction", flags.val_fraction,
                 "part of the training split held out for evaluation after each epoch")
      ->check(real_number("a fraction in (0, 1)",
                          [](double fraction) { return fraction > 0 && fraction < 1; }));
  app.add_option("--workers", flags.workers, "data-loading threads (0: load in the training loop)")
      ->check(whole_number(0, 1024));
  app.add_option("--threads", flags.threads,
                 "threads each op may use (default: ACCEL_NUM_THREADS or OMP_NUM_THREADS when "
                 "set, else 1)")
      ->check(whole_number(1, 1024));
  app.add_option("--seed", flags.seed, "seed of the weights, the split and the shuffling")
      ->check(whole_number<uint64_t>(0, std::numeric_limits<uint64_t>::max()));
  app.add_option("--save", flags.save, "save the training state here at the end (resumable)");
  app.add_option("--resume", flags.resume, "resume from a training state saved with --save")
      ->check(CLI::ExistingDirectory);
  app.add_option("--log-dir", flags.log_dir,
                 "write the metrics here: metrics.csv, TensorBoard event files and metrics.svg");
  app.add_option("--device", flags.device, "auto (a GPU when there is one), cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  app.add_option("--mixed-precision", flags.mixed_precision,
                 "no, bf16 (autocast) or fp16 (autocast with loss scaling)")
      ->check(CLI::IsMember({"no", "bf16", "fp16"}));
  app.add_flag("--verbose", flags.verbose, "also print the Trainer's progress notes and memory");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return {.flags = std::nullopt, .exit_code = 0};
  } catch (const CLI::ParseError& error) {
    std::cerr << "train_mnist: " << error.what() << " (see --help)\n";
    return {.flags = std::nullopt, .exit_code = 2};
  }
  return {.flags = flags, .exit_code = 0};
}
