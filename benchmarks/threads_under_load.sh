#!/usr/bin/env bash
# Threads under load: the MNIST example's MLP and CNN trained with --threads N against
# --threads 1, on an idle machine and beside one and two busy processes per core, in
# interleaved runs; prints each case's median wall time and the ratio (N threads / 1 thread).
# Usage: benchmarks/threads_under_load.sh [TRAIN_MNIST (build/examples/train_mnist)] [RUNS (5)]
#   [THREADS (the core count)]
set -euo pipefail
train_mnist=${1:-build/examples/train_mnist}
runs=${2:-5}
threads=${3:-$(nproc)}
cores=$(nproc)

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
seconds() {  # seconds THREADS ARGS...: one run's wall time
  local t=$1 start end
  shift
  start=$(date +%s.%N)
  "$train_mnist" --threads "$t" "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

printf '%-6s %-12s %12s %12s %8s\n' model "busy/core" "${threads} threads" "1 thread" ratio
for load in 0 1 2; do
  busy=()
  for ((i = 0; i < load * cores; ++i)); do (while :; do :; done) & busy+=($!); done
  for model in mlp cnn; do
    if [[ $model == mlp ]]; then
      export ACCEL_LIMIT_BATCHES=400 && args=(--epochs 1)
    else
      export ACCEL_LIMIT_BATCHES=60 && args=(--epochs 1 --model cnn --optimizer adam --batch-size 64)
    fi
    seconds 1 "${args[@]}" >/dev/null  # warm-up: page cache, data files
    many=() one=()
    for ((r = 0; r < runs; ++r)); do
      many+=("$(seconds "$threads" "${args[@]}")")
      one+=("$(seconds 1 "${args[@]}")")
    done
    m=$(printf '%s\n' "${many[@]}" | median)
    o=$(printf '%s\n' "${one[@]}" | median)
    printf '%-6s %-12s %11.2fs %11.2fs %8.2f\n' "$model" "$load" "$m" "$o" "$(echo "$m / $o" | bc -l)"
  done
  ((${#busy[@]} == 0)) || { kill "${busy[@]}"; wait "${busy[@]}" 2>/dev/null || true; }
done
