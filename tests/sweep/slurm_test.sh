#!/usr/bin/env bash
# `flux sweep slurm --submit` against real Slurm daemons (scripts/slurm-local.sh): the 8-cell test
# sweep as a 4-task job array plus its dependent merge job, whose table must hold the same metrics
# as the same sweep run locally with --jobs 2. Exits 77 (ctest SKIP) with the reason when the
# daemons cannot start on this machine; the daemons and every file are removed on any exit.
# Usage: slurm_test.sh FLUX_BINARY REPO_ROOT
set -euo pipefail
FLUX=$1
ROOT=$2
WORK=$(mktemp -d /tmp/flux-sweep-slurm-XXXXXX)
SLURM_DIR=$WORK/daemons
# A port of its own, so two checkouts testing at once do not meet.
export FLUX_SLURM_PORT=$((20000 + ($$ % 10000) * 2))
cleanup() {
  bash "$ROOT/scripts/slurm-local.sh" stop "$SLURM_DIR" || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

if ! started=$(bash "$ROOT/scripts/slurm-local.sh" start "$SLURM_DIR" 2>&1); then
  echo "SKIP: the Slurm daemons could not start on this machine: $started"
  exit 77
fi
export SLURM_CONF=$SLURM_DIR/slurm.conf
cp "$ROOT/tests/data/sweeps/small.json" "$WORK/sweep.json"

"$FLUX" sweep slurm "$WORK/sweep.json" --out "$WORK/cluster" --shards 4 --time 10 --submit |
  tee "$WORK/submit.txt"
merge_job=$(sed -n 's/.*merge job \([0-9]*\).*/\1/p' "$WORK/submit.txt")
[ -n "$merge_job" ] || { echo "FAIL: no merge job id in the submit output"; exit 1; }

# Until the merge job has left the queue (bounded: a stuck job fails the test, not hangs it).
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$merge_job" -o %i 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -o %i)" ] || { echo "FAIL: jobs still queued after 300 s"; squeue; exit 1; }
ls "$WORK/cluster/slurm"
tasks=$(ls "$WORK/cluster/slurm" | grep -c '^array-.*_[0-3]\.log$' || true)
[ "$tasks" = 4 ] || { echo "FAIL: expected 4 array task logs, found $tasks"; exit 1; }
[ -f "$WORK/cluster/results.csv" ] || {
  echo "FAIL: the merge job wrote no results.csv"; cat "$WORK"/cluster/slurm/*.log; exit 1; }

"$FLUX" sweep run "$WORK/sweep.json" --out "$WORK/local" --jobs 2
"$FLUX" sweep merge "$WORK/local" -o "$WORK/local.csv"

# Every column but the wall time must be identical.
strip() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i }
                   { out = ""; for (i = 1; i <= NF; i++) if (i != w) out = out $i ","; print out }' "$1"; }
if ! diff <(strip "$WORK/cluster/results.csv") <(strip "$WORK/local.csv"); then
  echo "FAIL: the Slurm table differs from the local one"
  exit 1
fi
rows=$(($(wc -l <"$WORK/cluster/results.csv") - 1))
done_rows=$(grep -c ',done,' "$WORK/cluster/results.csv" || true)
[ "$rows" = 8 ] && [ "$done_rows" = 8 ] || { echo "FAIL: $done_rows of $rows cells done, expected 8 of 8"; exit 1; }
echo "PASS: 8 cells in 4 Slurm array tasks, merged table identical to the local --jobs 2 run"
