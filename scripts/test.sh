#!/usr/bin/env bash
# Installs the dependencies, builds accel with its tests and examples (Release) and runs them
# with CTest: every test but the packaging tests, which build accel a second time as an outside
# project (label "install", several minutes on 2 cores). --full also builds the benchmarks and
# runs the packaging tests (CI does).
# Usage: scripts/test.sh [--full] [cmake -D options...]. BUILD_DIR picks the build
# directory (default build); CTEST_ARGS adds CTest arguments, e.g. CTEST_ARGS="-LE training"
# skips the long tests.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
labels=(-LE install)
benchmarks=OFF
if [[ ${1:-} == --full ]]; then
  labels=()
  benchmarks=ON
  shift
fi

scripts/install-deps.sh
# ccache keys relative to the checkout (see build.sh).
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
start=$SECONDS
scripts/build.sh "$build_dir" -DACCEL_BUILD_TESTS=ON -DACCEL_BUILD_BENCHMARKS=$benchmarks "$@"
echo "test.sh: build took $((SECONDS - start)) s"

start=$SECONDS
status=0
# shellcheck disable=SC2086  # CTEST_ARGS is a list of words
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "${labels[@]}" \
  ${CTEST_ARGS:-} || status=$?
echo "test.sh: tests took $((SECONDS - start)) s"
exit "$status"
