#!/usr/bin/env bash
# Installs accel's build and test dependencies from the Debian archive (bookworm or newer).
# Idempotent: when every package is already installed it touches nothing (no apt-get
# update), so CI and repeated runs pay nothing. Uses sudo only when not run as root.
set -euo pipefail

packages=(
  build-essential     # g++ 12 (C++20), make, libgomp (OpenMP)
  cmake               # >= 3.25
  ninja-build
  ccache              # optional for the build, used when present
  libeigen3-dev       # CPU GEMM and vectorized loops
  libfmt-dev          # error messages and printing
  zlib1g-dev          # gzip'd data files
  libsleef-dev        # vectorized exp, log, tanh, erf, ... (the element-wise CPU kernels)
  libgtest-dev        # unit tests
  libgmock-dev
  libbenchmark-dev    # benchmarks/
  nlohmann-json3-dev  # safetensors headers, test fixtures
  libcli11-dev        # the MNIST example's command line
  libopenmpi-dev      # the MPI backend (multi-process training on CPUs)
  openmpi-bin         # mpirun: the multi-process tests and examples
  clang-format        # .ci/run's formatting check
  clang               # .ci/run's clang build; the fuzz targets (scripts/fuzz.sh)
  libclang-rt-14-dev  # libFuzzer and clang's sanitizer runtimes (only recommended by clang)
  libomp-dev          # OpenMP for clang builds (GCC's is libgomp)
  llvm                # llvm-symbolizer: source lines in sanitizer and fuzzer reports
  dataset-fashion-mnist  # the MNIST example's data and the data tests' real-file check
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
if ((EUID != 0)); then
  command -v sudo >/dev/null || {
    echo "install-deps: not root and no sudo; install as root: ${missing[*]}" >&2
    exit 1
  }
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
