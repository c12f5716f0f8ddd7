#!/usr/bin/env bash
# Configures and builds accel in one build directory: Ninja, ccache when installed, Release
# unless the options say otherwise. Usage:
#   scripts/build.sh BUILD_DIR [cmake -D options...] [--target TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${1:?usage: scripts/build.sh BUILD_DIR [cmake options...] [--target TARGET...]}
shift
options=()
targets=()
while (($#)); do
  case $1 in
    --target) targets+=(--target "${2:?--target needs a name}"); shift 2 ;;
    *) options+=("$1"); shift ;;
  esac
done
if command -v ccache >/dev/null; then
  options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  # Paths relative to the checkout: builds of other clones (CI's) hit the same cache entries.
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
fi

cmake -S . -B "$build_dir" -G Ninja "${options[@]}"
cmake --build "$build_dir" --parallel "$(nproc)" "${targets[@]}"
