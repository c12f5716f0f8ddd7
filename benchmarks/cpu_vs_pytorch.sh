#!/usr/bin/env bash
# The MNIST example's epochs on the CPU against PyTorch 2.x, in one run and one table: accel's
# Trainer and LibTorch C++ (mnist_epoch_bench, built against the LibTorch CMake found: python3's
# torch package or Torch_DIR), then eager PyTorch (benchmarks/pytorch/epochs.py), with the
# ratios. Without torch in python3 the eager column is left out and says why.
# Usage: benchmarks/cpu_vs_pytorch.sh [BUILD_DIR] [extra mnist_epoch_bench flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
native=$("$build/benchmarks/mnist_epoch_bench" "$@")
echo "$native"
eager=""
if python3 -c "import torch" 2>/dev/null; then
  eager=$(python3 benchmarks/pytorch/epochs.py "$@")
  echo "$eager"
else
  echo "python3 has no torch: no eager PyTorch column (pip install torch numpy)"
fi
echo
# Rows "name  threads | accel wall cpu loss | libtorch wall cpu loss | ..." and the eager
# script's "name  threads | wall cpu loss", joined on name and thread count.
awk -v eager="$eager" '
  function key(line,   parts) { split(line, parts, "|"); sub(/ +$/, "", parts[1]); return parts[1] }
  BEGIN {
    n = split(eager, lines, "\n")
    for (i = 1; i <= n; i++) if (lines[i] ~ /\|/) { split(lines[i], p, "|"); split(p[2], f, " "); py[key(lines[i])] = f[1] }
    printf "%-44s %10s %10s %10s %15s %15s\n", "epoch (samples/s)", "accel", "libtorch", "eager", "accel/libtorch", "accel/eager"
  }
  /\| / && $1 != "epoch" {
    split($0, p, "|"); split(p[2], a, " "); split(p[3], t, " ")
    k = key($0); e = (k in py) ? py[k] : ""
    printf "%-44s %10.0f %10s %10s %15s %15s\n", k, a[1], t[1] == "" ? "-" : t[1], e == "" ? "-" : e,
           t[1] == "" ? "-" : sprintf("%.2f", a[1] / t[1]), e == "" ? "-" : sprintf("%.2f", a[1] / e)
  }' <<<"$native"
