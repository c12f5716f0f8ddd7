#!/usr/bin/env bash
# The GPU check, one command for a machine with a CUDA GPU and no package registry: builds
# what the GPU run needs (all cores, sm_90 unless CUDA_ARCHITECTURES says otherwise), runs the
# CUDA tests (tests/cuda and every op-harness case on CUDA against the CPU), the GPU
# benchmarks beside PyTorch (Python eager, and LibTorch C++ from the same wheel for the
# small-op figure), and the MNIST example on the GPU and the CPU, and writes their logs and a
# summary into OUT_DIR (default gpu-check-out); the summary is printed last.
# Build dependencies beyond CUDA, CMake and ninja come from .gpu-deps/ when the system lacks
# them (scripts/gpu-deps.sh fills it where a registry is reachable; carry it along).
# Usage: scripts/gpu-check.sh [OUT_DIR]      (BUILD_DIR: default build-gpu)
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-gpu-check-out}")
build=${BUILD_DIR:-build-gpu}
mkdir -p "$out"
jobs=$(nproc)
started=$SECONDS
step() { echo "::: $1 ($((SECONDS - started)) s)"; }

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
data=/usr/share/datasets/fashion-mnist
[[ -d .gpu-deps/fashion-mnist ]] && data=$PWD/.gpu-deps/fashion-mnist

step "configure"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$out/gpu.txt" 2>&1
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DACCEL_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90}" -DACCEL_BUILD_TESTS=ON \
  -DACCEL_BUILD_EXAMPLES=ON -DACCEL_BUILD_BENCHMARKS=ON \
  >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
step "build"
cmake --build "$build" --parallel "$jobs" >"$out/build.log" 2>&1 ||
  { grep -E "error|FAILED" -A3 "$out/build.log" | head -60; exit 1; }
# LibTorch (from the PyTorch wheel) for the small-op figure, built apart: a failure loses only it.
torch_cmake=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null)
if [[ -n $torch_cmake ]]; then
  (cmake -S benchmarks/cuda/torch -B "$build-torch" -G Ninja -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_PREFIX_PATH="$torch_cmake" && cmake --build "$build-torch" --parallel "$jobs") \
    >"$out/build_torch.log" 2>&1 || echo "LibTorch small-op benchmark not built (build_torch.log)"
fi

step "tests"
status=0
run_tests() {  # name binary [gtest filter]
  local name=$1 binary=$2 filter=${3:-*}
  "$build/tests/$binary" --gtest_filter="$filter" --gtest_brief=1 >"$out/$name.log" 2>&1 || status=1
}
run_tests cuda_tests cuda_tests
run_tests harness_core core_tests '*CudaMatchesCpu*'
run_tests harness_nn nn_tests '*CudaMatchesCpu*'
# Everything else too: with a GPU present the Trainer's tests run on it (its default device).
ctest --test-dir "$build" --parallel "$jobs" -LE install >"$out/all_tests.log" 2>&1 || status=1

step "benchmarks"
"$build/benchmarks/cuda_bench" >"$out/bench_accel.txt" 2>&1 || status=1
python3 benchmarks/pytorch/cuda_ops.py >"$out/bench_torch.txt" 2>&1 || status=1
[[ -x $build-torch/torch_small_op ]] && "$build-torch/torch_small_op" >>"$out/bench_torch.txt" 2>&1

step "MNIST example (MLP) on the GPU and the CPU"
for device in cuda cpu; do
  "$build/examples/train_mnist" --device "$device" --data-dir "$data" \
    >"$out/mnist_$device.log" 2>&1 || status=1
done

step "summary"
{
  echo "GPU: $(cat "$out/gpu.txt")"
  echo
  echo "all tests: $(grep -E 'tests passed' "$out/all_tests.log")"
  grep -E '\(Failed\)|\(Timeout\)' "$out/all_tests.log" | head -20
  echo
  echo "| test log | passed | failed | skipped |"
  echo "|---|---|---|---|"
  for log in "$out"/cuda_tests.log "$out"/harness_*.log; do
    passed=$(grep -oP '\[  PASSED  \] \K[0-9]+' "$log" | tail -1)
    failed=$(grep -oP '\[  FAILED  \] \K[0-9]+(?= test)' "$log" | tail -1)
    skipped=$(grep -oP '\[  SKIPPED \] \K[0-9]+' "$log" | tail -1)
    echo "| $(basename "$log" .log) | ${passed:-0} | ${failed:-0} | ${skipped:-0} |"
  done
  echo
  echo "| figure | accel | PyTorch | accel / PyTorch |"
  echo "|---|---|---|---|"
  while read -r name value; do
    [[ $name == *_* ]] || continue
    peer=$(awk -v n="torch_$name" '$1 == n {print $2}' "$out/bench_torch.txt")
    [[ $name == small_add_32x128_host_us ]] &&
      peer=$(awk '$1 == "torch_cpp_small_add_32x128_host_us" {print $2}' "$out/bench_torch.txt")
    ratio=$([[ -n $peer ]] && awk -v a="$value" -v b="$peer" 'BEGIN {printf "%.2f", a / b}')
    echo "| $name | $value | ${peer:--} | ${ratio:--} |"
  done <"$out/bench_accel.txt"
  copy=$(awk '$1 == "copy_256M_f32_GBps" {print $2}' "$out/bench_accel.txt")
  add=$(awk '$1 == "add_256M_f32_GBps" {print $2}' "$out/bench_accel.txt")
  [[ -n $copy && -n $add ]] &&
    echo "add / copy bandwidth: $(awk -v a="$add" -v c="$copy" 'BEGIN {printf "%.2f", a / c}')"
  echo
  for device in cuda cpu; do echo "mnist $device: $(grep '^final:' "$out/mnist_$device.log")"; done
  echo "total: $((SECONDS - started)) s, status $status"
} | tee "$out/summary.md"
exit "$status"
