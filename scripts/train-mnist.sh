#!/usr/bin/env bash
# The main job: installs the dependencies (Fashion-MNIST included), builds the MNIST example
# (Release) and trains it (examples/mnist/train_mnist.cpp). Arguments go to the example, e.g.
#   scripts/train-mnist.sh --model cnn --optimizer adam --epochs 3
# BUILD_DIR picks the build directory (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}

scripts/install-deps.sh
scripts/build.sh "$build_dir" -DACCEL_BUILD_EXAMPLES=ON --target train_mnist
"$build_dir/examples/train_mnist" "$@"
