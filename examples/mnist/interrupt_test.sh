#!/usr/bin/env bash
# Ctrl-C on train_mnist, with a real SIGINT from outside: the run stops before its next step,
# saves the training state to --save, says how to resume, and exits 130; the saved state then
# resumes to the end of the run.
# Usage: interrupt_test.sh path/to/train_mnist
set -euo pipefail
train_mnist=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/tiny_mnist.sh"
write_tiny_mnist "$work/data" 2000 20
set -m  # background jobs in their own process group, which do not ignore SIGINT

flags=(--data-dir "$work/data" --batch-size 4 --val-fraction 0.1)
"$train_mnist" "${flags[@]}" --epochs 1000 --save "$work/saved" >"$work/run.log" 2>&1 &
pid=$!
for ((i = 0; i < 600; ++i)); do  # until the second epoch is under way (at most 60 s)
  grep -q "^epoch 1/1000 " "$work/run.log" && break
  sleep 0.1
done
kill -INT "$pid"
status=0
wait "$pid" || status=$?
fail() { echo "FAIL: $1"; cat "$work/run.log"; exit 1; }
[[ $status == 130 ]] || fail "expected exit status 130 after SIGINT, found $status"
grep -q "interrupt: stopping before the next training step" "$work/run.log" ||
  fail "no note of the interrupt"
line=$(grep "train_mnist: interrupted in epoch" "$work/run.log") || fail "no interrupted line"
[[ $line == *"saved the training state to $work/saved"*"--resume $work/saved to continue" ]] ||
  fail "the interrupted line does not say how to resume: $line"
[[ -f $work/saved/trainer_state.json ]] || fail "no training state saved"

# Resume and finish the interrupted epoch.
epoch=$(sed -n 's/.*interrupted in epoch \([0-9]*\),.*/\1/p' <<<"$line")
"$train_mnist" "${flags[@]}" --epochs "$epoch" --resume "$work/saved" >"$work/resumed.log" 2>&1 ||
  { cat "$work/resumed.log"; fail "the resumed run failed"; }
grep -q "final: test_accuracy=.* epochs=$epoch" "$work/resumed.log" ||
  { cat "$work/resumed.log"; fail "the resumed run did not finish epoch $epoch"; }
echo "interrupt test passed (interrupted in epoch $epoch)"
