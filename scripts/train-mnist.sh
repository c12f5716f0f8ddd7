#!/usr/bin/env bash
# Installs the dependencies, builds accel's demo (Release) and runs it: a small network
# trained with accel's autograd (examples/demo/train_tiny.cpp). BUILD_DIR: default build.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}

scripts/install-deps.sh
scripts/build.sh "$build_dir" -DACCEL_BUILD_EXAMPLES=ON --target train_tiny
"$build_dir/examples/train_tiny"
