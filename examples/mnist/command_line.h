// The MNIST example's command line (CLI11): every flag with its description, default and
// range, `--flag value` or `--flag=value`. A wrong value is one line on stderr and exit code 2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

struct Flags {
  std::string data_dir = "/usr/share/datasets/fashion-mnist";
  std::string model = "mlp";
  int64_t epochs = 8;
  int64_t batch_size = 32;
  double lr = 0.001;
  std::string optimizer = "sgd";
  double val_fraction = 5000.0 / 60000.0;
  int workers = 0;
  std::optional<int> threads;  // unset: ACCEL_NUM_THREADS or OMP_NUM_THREADS, else 1
  uint64_t seed = 42;
  std::string save;
  std::string resume;
  std::string log_dir;
  std::string device = "auto";
  std::string mixed_precision = "no";
  bool verbose = false;
};

// What the command line asks for: the flags to run with, or an exit code (0 after --help,
// 2 after a usage error, already reported on stderr).
struct ParsedCommandLine {
  std::optional<Flags> flags;
  int exit_code = 0;
};

ParsedCommandLine parse_command_line(int argc, char** argv);
