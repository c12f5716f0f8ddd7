#!/usr/bin/env bash
# Installs the dependencies, builds accel with its tests (Release) and runs them with CTest.
# Usage: scripts/test.sh [cmake -D options...]. BUILD_DIR picks the build directory (default
# build); CTEST_ARGS adds CTest arguments, e.g. CTEST_ARGS="-LE training" skips the long tests.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}

scripts/install-deps.sh
# ccache keys relative to the checkout (see build.sh); the packaging tests build accel again.
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
start=$SECONDS
scripts/build.sh "$build_dir" -DACCEL_BUILD_TESTS=ON "$@"
echo "test.sh: build took $((SECONDS - start)) s"

start=$SECONDS
status=0
# shellcheck disable=SC2086  # CTEST_ARGS is a list of words
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" ${CTEST_ARGS:-} || status=$?
echo "test.sh: tests took $((SECONDS - start)) s"
exit "$status"
