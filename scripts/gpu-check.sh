#!/usr/bin/env bash
# The GPU check, one command for a machine with a CUDA GPU and no package registry: builds
# what the GPU run needs (all cores, sm_90 unless CUDA_ARCHITECTURES says otherwise), runs the
# CUDA tests (tests/cuda and every op-harness case on CUDA against the CPU), the GPU
# benchmarks beside PyTorch (Python eager, and LibTorch C++ from the same wheel for the
# small-op figure), and the MNIST example on the GPU and the CPU, and writes their logs and a
# summary into OUT_DIR (default gpu-check-out); the summary is printed last, also when a step
# fails or runs out of time (every step has a time limit).
# Build dependencies beyond CUDA, CMake and ninja come from .gpu-deps/ when the system lacks
# them (scripts/gpu-deps.sh fills it where a registry is reachable; carry it along).
# Usage: scripts/gpu-check.sh [OUT_DIR]
#   BUILD_DIR (default build-gpu); REUSE_BUILD=1 runs what an earlier call built there.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-gpu-check-out}")
build=${BUILD_DIR:-build-gpu}
mkdir -p "$out"
jobs=$(nproc)
started=$SECONDS
status=0
step() { echo "::: $1 ($((SECONDS - started)) s)"; }

# One row per gtest log: counts from GoogleTest's closing lines, and the exit code.
gtest_row() {  # log exit_code
  local log=$1 code=$2 passed failed skipped
  passed=$(grep -oP '^\[  PASSED  \] \K[0-9]+' "$log" | tail -1)
  failed=$(grep -oP '^\[  FAILED  \] \K[0-9]+(?= tests?, listed below)' "$log" | tail -1)
  skipped=$(grep -oP '^\[  SKIPPED \] \K[0-9]+(?= tests?, listed below)' "$log" | tail -1)
  echo "| $(basename "$log" .log) | ${passed:-0} | ${failed:-0} | ${skipped:-0} | $code |"
}

summary() {
  step "summary"
  {
    echo "GPU: $(cat "$out/gpu.txt" 2>/dev/null)"
    echo "tools: $(head -1 "$out/tools.txt" 2>/dev/null)"
    [[ -s $out/failed_steps ]] && echo "steps that failed: $(paste -sd ';' "$out/failed_steps")"
    echo
    if [[ -f $out/all_tests.log ]]; then
      echo "other tests (ctest): $(grep -E 'tests passed' "$out/all_tests.log")"
      sed -n '/The following tests FAILED/,$p' "$out/all_tests.log" | head -30
      echo
    fi
    echo "| test log | passed | failed | skipped | exit |"
    echo "|---|---|---|---|---|"
    while read -r log code; do gtest_row "$log" "$code"; done < <(cat "$out/exit_codes" 2>/dev/null)
    echo
    if [[ -f $out/bench_accel.txt ]]; then
      echo "| figure | accel | PyTorch | accel / PyTorch |"
      echo "|---|---|---|---|"
      while read -r name value; do
        [[ $name == *_* ]] || continue
        peer=$(awk -v n="torch_$name" '$1 == n {print $2}' "$out/bench_torch.txt" 2>/dev/null)
        [[ $name == small_add_32x128_host_us ]] &&
          peer=$(awk '$1 == "torch_cpp_small_add_32x128_host_us" {print $2}' \
                   "$out/bench_torch.txt" 2>/dev/null)
        ratio=$([[ -n $peer ]] && awk -v a="$value" -v b="$peer" 'BEGIN {printf "%.2f", a / b}')
        echo "| $name | $value | ${peer:--} | ${ratio:--} |"
      done <"$out/bench_accel.txt"
      copy=$(awk '$1 == "copy_256M_f32_GBps" {print $2}' "$out/bench_accel.txt")
      add=$(awk '$1 == "add_256M_f32_GBps" {print $2}' "$out/bench_accel.txt")
      [[ -n $copy && -n $add ]] &&
        echo "add / copy bandwidth: $(awk -v a="$add" -v c="$copy" 'BEGIN {printf "%.2f", a / c}')"
      echo
    fi
    for device in cuda cpu; do
      [[ -f $out/mnist_$device.log ]] &&
        echo "mnist $device: $(grep '^final:' "$out/mnist_$device.log" || tail -2 "$out/mnist_$device.log")"
    done
    echo "total: $((SECONDS - started)) s, status $status"
  } | tee "$out/summary.md"
}
trap summary EXIT

# Runs a command with a time limit, its output in OUT_DIR/NAME.log; a failure or a timeout
# sets the status (and is recorded for the summary's table when it is a gtest binary). No step
# runs past the whole check's budget (TIME_BUDGET seconds, default 540), so that the summary
# is still written inside a caller's limit.
deadline=$((started + ${TIME_BUDGET:-540}))
run_logged() {  # name seconds command...
  local name=$1 seconds=$2
  shift 2
  local left=$((deadline - SECONDS - 10))
  ((seconds > left)) && seconds=$left
  if ((seconds < 5)); then
    echo "$name: not run, the time budget is spent" | tee "$out/$name.log" >>"$out/failed_steps"
    status=1
    return 124
  fi
  timeout -k 5 "$seconds" "$@" >"$out/$name.log" 2>&1
  local code=$?
  if [[ $code -ne 0 ]]; then
    status=1
    local why="exit $code"
    [[ $code -eq 124 || $code -eq 137 ]] && why="stopped after $seconds s"
    echo "$name: $why" | tee -a "$out/$name.log" >>"$out/failed_steps"
  fi
  return $code
}
run_gtest() {  # name binary [filter]
  run_logged "$1" 240 "$build/tests/$2" --gtest_filter="${3:-*}"
  echo "$out/$1.log $?" >>"$out/exit_codes"
}
rm -f "$out/exit_codes" "$out/failed_steps"

prefix=/tmp/accel-gpu-deps
if [[ -d .gpu-deps ]] && compgen -G ".gpu-deps/*.deb" >/dev/null; then
  step "unpacking .gpu-deps"
  mkdir -p "$prefix"
  for deb in .gpu-deps/*.deb; do dpkg -x "$deb" "$prefix"; done
  export CMAKE_PREFIX_PATH=$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
  export CPATH=$prefix/usr/include${CPATH:+:$CPATH}
  export LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}
  export LD_LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
# NCCL: a toolkit without nccl.h, next to Python's NCCL package (its header and library).
cuda_root=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
if ! compgen -G "$cuda_root/include/nccl.h" >/dev/null && [[ ! -f /usr/include/nccl.h ]]; then
  nccl_dir=$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null)
  if [[ -n $nccl_dir && -f $nccl_dir/include/nccl.h ]]; then
    export CPATH=$nccl_dir/include${CPATH:+:$CPATH}
    export LD_LIBRARY_PATH=$nccl_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  fi
fi
# The tests and examples read Fashion-MNIST where Debian installs it.
data=/usr/share/datasets/fashion-mnist
if [[ ! -d $data && -d .gpu-deps/fashion-mnist ]]; then
  mkdir -p "$(dirname "$data")" && ln -sfn "$PWD/.gpu-deps/fashion-mnist" "$data" ||
    data=$PWD/.gpu-deps/fashion-mnist
fi

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$out/gpu.txt" 2>&1
{ c++ --version | head -1; nvcc --version | tail -2; cmake --version | head -1; } >"$out/tools.txt" 2>&1
# MPI and LibTorch stay out of the main build: neither is under test here (the LibTorch figure
# is built apart), and an unknown compiler's new warnings must not stop the examples.
configure_and_build() {
  step "configure"
  if ! run_logged configure 300 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90}" -DACCEL_MPI=OFF \
      -DCMAKE_DISABLE_FIND_PACKAGE_Torch=ON -DACCEL_WARNINGS_AS_ERRORS=OFF \
      -DACCEL_BUILD_TESTS=ON -DACCEL_BUILD_EXAMPLES=ON -DACCEL_BUILD_BENCHMARKS=ON; then
    tail -30 "$out/configure.log"
    return 1
  fi
  step "build"
  if ! run_logged build 420 cmake --build "$build" --parallel "$jobs"; then
    grep -E "error|FAILED" -A3 "$out/build.log" | head -60
    return 1
  fi
  # LibTorch (from the PyTorch wheel) for the small-op figure: a failure loses only it.
  local torch_cmake
  torch_cmake=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)
  [[ -n $torch_cmake ]] || return 0
  timeout 150 bash -c "cmake -S benchmarks/cuda/torch -B '$build-torch' -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH='$torch_cmake' &&
    cmake --build '$build-torch' --parallel $jobs" >"$out/build_torch.log" 2>&1 ||
    echo "LibTorch small-op benchmark not built (build_torch.log)"
}
if [[ ${REUSE_BUILD:-0} == 1 && -x $build/tests/cuda_tests ]]; then
  step "reusing the build in $build"
else
  configure_and_build || exit 1
fi

# From here a missing device fails the GPU tests instead of skipping them. Stop at once if the
# runtime sees no GPU (a driver older than the toolkit, say): nothing after this would test one.
export ACCEL_EXPECT_GPU=1
step "device probe"
if ! run_logged probe 60 "$build/tests/cuda_tests" --gtest_filter='CudaRuntime.SeesADevice'; then
  echo "accel sees no usable GPU (nvidia-smi: $(cat "$out/gpu.txt")):"
  grep -E "Failure|ACCEL_REQUIRE_CUDA|error" "$out/probe.log" | head -10
  exit 1
fi

step "tests"
run_gtest cuda_tests cuda_tests
run_gtest harness_core core_tests '*CudaMatchesCpu*'
run_gtest harness_nn nn_tests '*CudaMatchesCpu*'
# Everything else too (the GPU cases above excepted): with a GPU present the Trainer's tests run
# on it (its default device).
run_logged all_tests 300 ctest --test-dir "$build" --parallel "$jobs" --timeout 120 -LE install \
  -E 'CudaMatchesCpu|^Cuda|^Nccl'

step "benchmarks"
run_logged bench_accel 120 "$build/benchmarks/cuda_bench"
cp "$out/bench_accel.log" "$out/bench_accel.txt"
run_logged bench_torch 120 python3 benchmarks/pytorch/cuda_ops.py
cp "$out/bench_torch.log" "$out/bench_torch.txt"
if [[ -x $build-torch/torch_small_op ]]; then
  run_logged bench_torch_cpp 60 "$build-torch/torch_small_op"
  cat "$out/bench_torch_cpp.log" >>"$out/bench_torch.txt"
fi

step "MNIST example (MLP) on the GPU and the CPU"
for device in cuda cpu; do
  run_logged "mnist_$device" 180 "$build/examples/train_mnist" --device "$device" --data-dir "$data"
done
exit "$status"
