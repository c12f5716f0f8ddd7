#!/usr/bin/env bash
# Every flag of train_mnist given a wrong value: one line on stderr naming the flag and what
# it expects, exit code 2 for a usage error and 1 for a run that cannot go on (data that is
# not MNIST, a training state of another model, a device this build lacks), nothing on stdout
# but --help's text, never a crash or a stack trace.
# Usage: bad_input_test.sh path/to/train_mnist
set -euo pipefail
train_mnist=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/tiny_mnist.sh"
write_tiny_mnist "$work/data" 100 20
mkdir -p "$work/other" && echo "not MNIST" >"$work/other/readme.txt"

failures=0
# expect_failure STATUS TEXT ARGS...: the run exits STATUS with exactly one line on stderr,
# which holds TEXT.
expect_failure() {
  local want=$1 text=$2 status=0
  shift 2
  "$train_mnist" "$@" >"$work/out" 2>"$work/err" </dev/null || status=$?
  local lines
  lines=$(wc -l <"$work/err")
  if [[ $status != "$want" || $lines != 1 ]] || ! grep -qF -- "$text" "$work/err"; then
    echo "FAIL: train_mnist $* exited $status (expected $want) with $lines line(s) on stderr," \
      "expected one holding \"$text\":"
    cat "$work/err"
    failures=$((failures + 1))
  fi
}

data=(--data-dir "$work/data" --batch-size 8 --val-fraction 0.2)
# Types, ranges and values.
expect_failure 2 "--epochs: expected a whole number in [1, 1000000], got 2.7" --epochs 2.7
expect_failure 2 "--epochs: expected a whole number in [1, 1000000], got 0" --epochs=0
expect_failure 2 "--batch-size: expected a whole number" --batch-size -4
expect_failure 2 "--lr: expected a finite number > 0, got nan" --lr nan
expect_failure 2 "--lr: expected a finite number > 0, got inf" --lr=inf
expect_failure 2 "--lr: expected a finite number > 0, got fast" --lr fast
expect_failure 2 "--seed: expected a whole number in [0, " --seed -1
expect_failure 2 "--threads: expected a whole number in [1, 1024], got 0" --threads 0
expect_failure 2 "--workers: expected a whole number in [0, 1024], got 2000" --workers 2000
expect_failure 2 "--val-fraction: expected a fraction in (0, 1), got 1" --val-fraction 1
expect_failure 2 "--model: rnn not in {mlp,cnn}" --model rnn
expect_failure 2 "--optimizer: lbfgs not in {sgd,adam,adamw}" --optimizer lbfgs
expect_failure 2 "--device: tpu not in {auto,cpu,cuda}" --device tpu
expect_failure 2 "--mixed-precision: fp8 not in {no,bf16,fp16}" --mixed-precision fp8
# Unknown flags, missing values, missing directories.
expect_failure 2 "--learning-rate" --learning-rate 0.1
expect_failure 2 "--epochs: 1 required" --epochs
expect_failure 2 "--data-dir: Directory does not exist: $work/none" --data-dir "$work/none"
expect_failure 2 "--resume: Directory does not exist: $work/none" "${data[@]}" --resume "$work/none"
# Runs that cannot go on.
expect_failure 1 "train-images-idx3-ubyte" --data-dir "$work/other"
expect_failure 1 "has no checkpoint.json: not a checkpoint written by accel" "${data[@]}" \
  --resume "$work/other"
"$train_mnist" "${data[@]}" --epochs 1 --save "$work/mlp" >/dev/null 2>&1
expect_failure 1 "error(s) loading into CNN: size mismatch for main.0.weight" "${data[@]}" \
  --model cnn --resume "$work/mlp"
if ! nvidia-smi -L >/dev/null 2>&1; then  # no GPU here: asking for one is an error
  expect_failure 1 "cuda" "${data[@]}" --device cuda
fi
if ! "$train_mnist" --help | grep -q -- "--mixed-precision"; then
  echo "FAIL: --help does not list --mixed-precision"
  failures=$((failures + 1))
fi

((failures == 0)) || { echo "$failures case(s) failed"; exit 1; }
echo "bad input test passed"
