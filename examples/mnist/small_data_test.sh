#!/usr/bin/env bash
# Regression test of train_mnist on a tiny MNIST-format dataset written here: a test split
# under 256 images evaluates, --resume notes that the saved learning rate wins over --lr, and
# a run that diverges exits 1 with the reason and leaves a saved state as it was, and --log-dir
# writes the metrics as CSV, TensorBoard events and an SVG chart.
# Usage: small_data_test.sh path/to/train_mnist
set -euo pipefail
train_mnist=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/tiny_mnist.sh"
write_tiny_mnist "$work/data" 200 50

expect_in() {  # expect_in TEXT FILE: fail the test, showing FILE, unless it holds TEXT
  grep -qF -- "$1" "$2" || { echo "expected \"$1\" in:"; cat "$2"; exit 1; }
}
run() { "$train_mnist" --data-dir "$work/data" --batch-size 8 --val-fraction 0.2 "$@"; }

# 50 test images: the final evaluation used to ask for a batch of 256 and fail.
run --epochs 1 --save "$work/saved" >"$work/first.log" 2>&1
expect_in "final: test_accuracy=" "$work/first.log"

run --epochs 2 --resume "$work/saved" --lr 0.5 >"$work/resumed.log" 2>&1
expect_in "note: resuming with the saved optimizer state, learning rate 0.001; --lr 0.5 is ignored" \
  "$work/resumed.log"

saved_sums() { find "$work/saved" -type f -print0 | sort -z | xargs -0 md5sum; }
before=$(saved_sums)
status=0
run --epochs 1 --lr 1e30 --save "$work/saved" >"$work/diverged.log" 2>&1 || status=$?
[[ $status == 1 ]] || { echo "expected exit status 1, found $status"; cat "$work/diverged.log"; exit 1; }
expect_in "train_mnist: training stopped: the loss was" "$work/diverged.log"
expect_in "the training state is not saved" "$work/diverged.log"
[[ $(saved_sums) == "$before" ]] || { echo "the diverged run changed $work/saved"; exit 1; }
# --log-dir: the metrics as CSV rows, TensorBoard events and a chart.
run --epochs 2 --log-dir "$work/logs" >"$work/logged.log" 2>&1
[[ $(head -1 "$work/logs/metrics.csv") == "epoch,train_loss_epoch,accuracy,eval_loss_epoch" ]] ||
  { echo "unexpected metrics.csv:"; cat "$work/logs/metrics.csv"; exit 1; }
[[ $(wc -l <"$work/logs/metrics.csv") == 3 ]] || { echo "expected 2 rows"; exit 1; }
compgen -G "$work/logs/events.out.tfevents.*" >/dev/null || { echo "no TensorBoard events"; exit 1; }
[[ $(grep -c "<polyline" "$work/logs/metrics.svg") == 2 ]] || { echo "no curves in metrics.svg"; exit 1; }
echo "small data test passed"
