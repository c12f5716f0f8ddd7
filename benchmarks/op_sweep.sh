#!/usr/bin/env bash
# Common ops, accel (op_sweep_bench) against eager PyTorch (benchmarks/pytorch/op_sweep.py) at
# each thread count given, in one table: median microseconds per call and their ratio (below 1:
# accel is faster). Needs torch in python3 (pip install torch numpy).
# Usage: benchmarks/op_sweep.sh [BUILD_DIR] [THREADS...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
threads=("$@")
[[ ${#threads[@]} -gt 0 ]] || threads=(1 2)
for t in "${threads[@]}"; do
  # One after the other (process substitutions would run them at once, on the same cores).
  native=$("$build/benchmarks/op_sweep_bench" "$t" | tail -n +2 | sort)
  eager=$(python3 benchmarks/pytorch/op_sweep.py "$t" | tail -n +2 | sort)
  join <(echo "$native") <(echo "$eager") |
    awk -v t="$t" 'BEGIN { printf "%-24s %8s %12s %12s %14s\n", "op (us per call)", "threads", "accel", "eager", "accel/eager" }
                   { printf "%-24s %8d %12.1f %12.1f %14.2f\n", $1, t, $2, $3, $2 / $3 }'
  echo
done
