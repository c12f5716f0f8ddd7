#!/usr/bin/env bash
# Gathers, where the Debian archive is reachable, what scripts/gpu-check.sh needs on a GPU
# machine that has CUDA, CMake, ninja and PyTorch but no package registry: the .deb files of
# the build dependencies (unpacked there without installing) and the Fashion-MNIST files, all
# in .gpu-deps/ (ignored by git; about 34 MB). Usage: scripts/gpu-deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libeigen3-dev libfmt-dev libfmt9 libgtest-dev libgmock-dev nlohmann-json3-dev libcli11-dev
          zlib1g-dev libsleef-dev libsleef3 libbenchmark-dev libbenchmark1debian)
mkdir -p .gpu-deps/fashion-mnist
rm -f .gpu-deps/*.deb
(cd .gpu-deps && apt-get download "${packages[@]}")
scripts/install-deps.sh >/dev/null  # dataset-fashion-mnist, the example's data
cp /usr/share/datasets/fashion-mnist/*-ubyte.gz .gpu-deps/fashion-mnist/
du -sh .gpu-deps
