#!/usr/bin/env bash
# When one process of a job fails, the job must end non-zero within a bounded time with that
# process's message on stderr, whichever way the process fails (see failing_rank.cpp).
# Usage: failure_test.sh MPIEXEC FAILING_RANK_BINARY
set -uo pipefail
mpiexec=$1 binary=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ACCEL_DISTRIBUTED_TIMEOUT=5
status=0
for mode in throw abort return; do
  start=$SECONDS
  output=$(timeout 60 "$mpiexec" -n 2 --oversubscribe "$binary" "$mode" 2>&1)
  code=$?
  elapsed=$((SECONDS - start))
  problem=""
  if ((code == 0)); then problem="the job exited 0"; fi
  if ((code == 124)); then problem="the job hung (killed after 60 s)"; fi
  if ((elapsed > 30)); then problem="the job took ${elapsed} s to end"; fi
  if ! grep -q "rank 1: the data file is corrupt" <<<"$output"; then
    problem="${problem:+$problem; }rank 1's message is missing"
  fi
  if grep -q "rank 0 was not stopped" <<<"$output"; then
    problem="${problem:+$problem; }rank 0 went on"
  fi
  if [[ -n $problem ]]; then
    echo "FAIL $mode: $problem (exit $code, ${elapsed} s); output:"
    echo "$output"
    status=1
  else
    echo "ok   $mode: exit $code after ${elapsed} s"
  fi
done
exit "$status"
