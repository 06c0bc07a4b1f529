#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, float-cast-overflow) in build-sanitize/ and runs
# each for SECONDS (default 30) on its corpus in fuzz/corpus/<target>/, which grows as the fuzzer
# finds new coverage. A crash, a sanitizer report or a failed round trip makes the script exit 1
# (after the other targets finish) and leaves the input in build-sanitize/findings/.
#   scripts/fuzz.sh [--jobs N] [SECONDS] [TARGET...]
# --jobs N runs N targets at a time (default 1; each is one process, so N = the cores to use).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=1
if [ "${1:-}" = --jobs ]; then
  jobs=$2
  shift 2
fi
seconds=${1:-30}
shift || true
bash scripts/configure-sanitize.sh
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(demand_json demand_csv matrix_schedule matrix_bounds workload fabric circuit_schedule
           scenario chakra astra milp_solution sweep)
fi
cmake --build build-sanitize -j 2 --target "${targets[@]/#/fuzz_}"
mkdir -p build-sanitize/findings

# Fuzzes one target; prints its result in one write so that parallel targets do not interleave.
fuzz_one() {
  local t=$1 log=build-sanitize/$1.log
  mkdir -p "fuzz/corpus/$t"
  # -rss_limit_mb guards against inputs that make a reader allocate without bound.
  if build-sanitize/fuzz/fuzz_$t "fuzz/corpus/$t" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -artifact_prefix="build-sanitize/findings/$t-" -print_final_stats=1 2>"$log"; then
    echo "fuzz_$t: ${seconds} s, $(sed -n 's/^stat::number_of_executed_units: *//p' "$log") executions"
  else
    echo "$(tail -40 "$log")
fuzz_$t: FAILED (input in build-sanitize/findings/)"
    return 1
  fi
}

failed=0
pids=()
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
  fuzz_one "$t" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
[ $failed = 0 ] || exit 1
echo "fuzzing: ${#targets[@]} targets, no finding"
