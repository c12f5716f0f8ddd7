#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, AddressSanitizer + UBSan, CUDA off) and
# runs each for a bounded time over its seeds (tests/fuzz/corpus/<reader>) and what earlier runs
# found (BUILD_DIR/fuzz/corpus/<reader>). Any finding fails: an exception other than
# accel::Error, a sanitizer report, a leak, an allocation over the malloc limit, memory over the
# RSS limit, or an input that runs past the timeout. Crashing inputs are kept in
# BUILD_DIR/fuzz/findings/ (rerun one: BUILD_DIR/tests/fuzz/fuzz_<reader> FILE).
# With --unit-tests, the same clang build (warnings are errors) also builds the unit tests and
# runs them (ctest -LE 'training|install') before fuzzing: CI's second compiler, at the cost of
# one library build.
# Usage: scripts/fuzz.sh [--unit-tests] [SECONDS_PER_READER (60)] [READER...]; BUILD_DIR
# defaults to build-fuzz.
set -euo pipefail
cd "$(dirname "$0")/.."

unit_tests=OFF
if [[ ${1:-} == --unit-tests ]]; then
  unit_tests=ON
  shift
fi
seconds=${1:-60}
(($# == 0)) || shift
readers=("$@")
((${#readers[@]})) || readers=(safetensors idx optimizer_state scheduler_state trainer_state
  training_state_dir)
build_dir=${BUILD_DIR:-build-fuzz}

# The largest input each reader is handed: room for its seeds to grow several times over, small
# enough that a run covers many inputs. JSON readers get less than binary ones.
declare -A max_len=([safetensors]=65536 [idx]=65536 [optimizer_state]=65536
  [scheduler_state]=16384 [trainer_state]=16384 [training_state_dir]=65536)
# No reader needs a single allocation near this for an input of at most 64 KiB (gzip inflates
# by at most ~1000x); the RSS limit leaves room for ASan's quarantine and shadow memory.
malloc_limit_mb=256
rss_limit_mb=2048
timeout_s=25  # per input; a hang is a finding

scripts/install-deps.sh
targets=()
for reader in "${readers[@]}"; do
  [[ -v max_len[$reader] ]] || {
    echo "fuzz.sh: unknown reader '$reader' (known: ${!max_len[*]})" >&2
    exit 2
  }
  targets+=(--target "fuzz_$reader")
done
[[ $unit_tests == OFF ]] || targets=()  # everything: the unit tests and every fuzz target
start=$SECONDS
# Without the MPI backend: OpenMPI's own allocations look like leaks to LeakSanitizer (the MPI
# tests run in the GCC build).
# -O1 with line tables only, as fuzzing builds usually are: about half the compile time of -O2 -g
# and still source lines in every report.
scripts/build.sh "$build_dir" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DCMAKE_CXX_FLAGS=-Werror \
  -DACCEL_FUZZ=ON -DACCEL_CUDA=OFF -DACCEL_MPI=OFF -DACCEL_BUILD_TESTS="$unit_tests" -DACCEL_BUILD_EXAMPLES=OFF \
  -DACCEL_BUILD_BENCHMARKS=OFF "${targets[@]}"
echo "fuzz.sh: build took $((SECONDS - start)) s"
if [[ $unit_tests == ON ]]; then
  start=$SECONDS
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" -LE 'training|install'
  echo "fuzz.sh: unit tests took $((SECONDS - start)) s"
fi

out=$build_dir/fuzz
mkdir -p "$out/findings"
# The targets' scratch files; a crashed target leaves its own behind.
export TMPDIR=$PWD/$out/tmp
rm -rf "$TMPDIR" && mkdir -p "$TMPDIR"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OMP_NUM_THREADS=1  # one input at a time; threads would only add noise to coverage

failed=()
for reader in "${readers[@]}"; do
  mkdir -p "$out/corpus/$reader"
  log=$out/$reader.log
  status=0
  "$build_dir/tests/fuzz/fuzz_$reader" "$out/corpus/$reader" "tests/fuzz/corpus/$reader" \
    -max_total_time="$seconds" -max_len="${max_len[$reader]}" \
    -malloc_limit_mb="$malloc_limit_mb" -rss_limit_mb="$rss_limit_mb" -timeout="$timeout_s" \
    -artifact_prefix="$out/findings/$reader-" -print_final_stats=1 >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(find "$out/corpus/$reader" -type f | wc -l)
  if ((status == 0)); then
    echo "fuzz.sh: $reader: ${runs:-?} executions in $seconds s, ok ($corpus inputs found so far)"
  else
    echo "fuzz.sh: $reader: FINDING after ${runs:-?} executions (exit $status); log $log:"
    # The report: from its first line (an uncaught exception, a sanitizer or libFuzzer error).
    awk '/terminate called|runtime error|==[0-9]+== ?ERROR/ { p = 1 } p && n < 60 { print; n++ }' \
      "$log"
    grep -E 'Test unit written to|^Base64' "$log" || true
    failed+=("$reader")
  fi
done

if ((${#failed[@]})); then
  echo "fuzz.sh: findings in ${failed[*]}; inputs in $out/findings/"
  exit 1
fi
echo "fuzz.sh: no findings"
