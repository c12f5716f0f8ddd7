#!/usr/bin/env bash
# Data parallelism on this machine, in one run: the small CNN (one thread per process) on one
# process at the global batch, on one process at half of it, and on two processes at half each
# with DistributedDataParallel; then the MPI group's all-reduce beside MPI_Allreduce.
# Usage: benchmarks/data_parallel.sh [BUILD_DIR] [GLOBAL_BATCH] [STEPS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} global=${2:-64} steps=${3:-40}
bench=$build/benchmarks/data_parallel_bench
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
mpirun=(mpirun -np 2 --oversubscribe)

field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }
one_full=$("$bench" "$global" "$steps")
one_half=$("$bench" $((global / 2)) "$steps")
two_half=$("${mpirun[@]}" "$bench" $((global / 2)) "$steps")
echo "$one_full"
echo "$one_half"
echo "$two_half"
awk -v one="$(field samples_per_s "$one_full")" -v two="$(field samples_per_s "$two_half")" \
  -v step="$(field ms_per_step "$one_half")" -v ddp="$(field ms_per_step "$two_half")" \
  -v g="$global" 'BEGIN {
    printf "\n%-58s %10s\n", "figure", "value"
    printf "%-58s %10.0f\n", "1 process x 1 thread, batch " g ": samples/s", one
    printf "%-58s %10.0f\n", "2 processes x 1 thread, batch " g/2 " each: samples/s", two
    printf "%-58s %10.2f\n", "speed-up of 2 processes (target >= 1.7)", two / one
    printf "%-58s %10.2f\n", "DDP step / one-process step on batch " g/2 " (target <= 1.15)", ddp / step
  }'
echo
"${mpirun[@]}" "$build/benchmarks/allreduce_bench"
