#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, float-cast-overflow) in build-sanitize/ and runs
# each for SECONDS (default 30) on its corpus in fuzz/corpus/<target>/, which grows as the fuzzer
# finds new coverage. A crash, a sanitizer report or a failed round trip stops with exit 1 and
# leaves the input in build-sanitize/findings/.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
bash scripts/configure-sanitize.sh
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(demand_json demand_csv matrix_schedule workload fabric circuit_schedule scenario chakra
           astra milp_solution sweep)
fi
cmake --build build-sanitize -j 2 --target "${targets[@]/#/fuzz_}"
mkdir -p build-sanitize/findings
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  echo "fuzz_$t: ${seconds} s"
  # -rss_limit_mb guards against inputs that make a reader allocate without bound.
  build-sanitize/fuzz/fuzz_$t "fuzz/corpus/$t" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 -artifact_prefix="build-sanitize/findings/$t-" -print_final_stats=1 2>"build-sanitize/$t.log" ||
    { tail -40 "build-sanitize/$t.log"; echo "fuzz_$t: FAILED (input in build-sanitize/findings/)"; exit 1; }
  grep -E '^stat::number_of_executed_units' "build-sanitize/$t.log" | sed "s/^/  /"
done
echo "fuzzing: ${#targets[@]} targets, no finding"
