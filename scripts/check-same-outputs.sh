#!/usr/bin/env bash
# Checks that a refactoring changed no output: builds BASE_REF (default HEAD) in a temporary
# worktree and compares, byte for byte, what it and the current tree's build/flux write for
#   flux run                                           (stdout)
#   flux bench flux --layers 8 --time-limit 20s        (stdout, CSV, SVG figures), as two runs:
#     τ ∈ {1us, 10us, 100us} with every scheduler, and τ = 1ms with every scheduler but flux.
#     At τ = 1 ms flux spends the whole time limit in MILP windows (it is not proven optimal), so
#     how far it gets depends on the machine's speed and load: that one cell is not reproducible
#     byte for byte by any build and is left out. At the other τ flux is proven optimal at once.
#   flux matrix bench --quick                          (stdout, CSV, SVG figures)
#   the simulator τ sweep (llama3 8/16 layers × τ ∈ {1us,10us,100us,1ms} × ideal, rotornet,
#   rotornet-vlb, bvn, spectra-phase through `flux simulate`)  (every file of every run)
# Only wall-clock fields are masked: the solver seconds of the Flux rows (`flux run` and
# `flux bench flux` tables "... gap X% N.Ns Kw", the CSV's solver_s column) and the matrix
# bench's "mean ms per run" line and its CSV seconds column. The provenance (the summaries'
# "provenance" key, the CSVs' .meta.json sidecars) records date, host and commit, which differ
# by design: it is removed before comparing.
# Usage: scripts/check-same-outputs.sh [BASE_REF] [WORK_DIR]   (KEEP_BASE=1 keeps the base worktree;
#        BASE_FLUX=path/to/flux uses that binary, already built at BASE_REF, instead of building it)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BASE=${1:-HEAD}
WORK=${2:-$(mktemp -d)}
mkdir -p "$WORK"
echo "work dir: $WORK"

build_base() {
  local src=$WORK/base-src
  [ -d "$src" ] || git -C "$ROOT" worktree add --detach "$src" "$BASE" >/dev/null
  cmake -S "$src" -B "$WORK/base-build" -G Ninja -DFLUX_BUILD_TESTS=OFF -DFLUX_BUILD_BENCH=OFF \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
  cmake --build "$WORK/base-build" --target flux -j 2 >/dev/null
}

# Masks the wall-clock fields (see the header) in every file under $1.
mask() {
  local f
  while IFS= read -r -d '' f; do
    case "$f" in
      *flux_bench.csv)  # the solver_s column, found by name (columns were added before it)
        awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "solver_s") c = i }
          NR > 1 && c && $c != "" { $c = "S" } 1' "$f" >"$f.m" ;;
      *matrix-bench.csv) awk -F, -v OFS=, 'NR > 1 { $(NF-1) = "S" } 1' "$f" >"$f.m" ;;
      *.txt) sed -E -e 's/(gap [0-9.]+% )[0-9.]+s/\1Ns/' -e '/mean ms per run/d' "$f" >"$f.m" ;;
      *.meta.json) rm "$f" && continue ;;
      *summary.json) jq 'del(.provenance)' "$f" >"$f.m" ;;
      *) continue ;;
    esac
    mv "$f.m" "$f"
  done < <(find "$1" -type f -print0)
}

# Runs every compared command with the flux binary $1 into the directory $2.
outputs() {
  local flux=$1 out=$2 ex=$ROOT/examples
  rm -rf "$out" && mkdir -p "$out" && cd "$out"
  "$flux" run >run.txt
  "$flux" bench flux --layers 8 --time-limit 20s --taus 1us,10us,100us --out-dir bench-flux \
    >bench-flux.txt
  "$flux" bench flux --layers 8 --time-limit 20s --taus 1ms --out-dir bench-flux-1ms \
    --schedulers flux-greedy,rotornet,rotornet-vlb,bvn,bvn-periodic,spectra-phase,static,ideal \
    >bench-flux-1ms.txt
  "$flux" matrix bench --quick --out-dir matrix-bench >matrix-bench.txt
  mkdir sweep
  for L in 8 16; do
    "$flux" workload generate --scenario "$ex/llama3-8b-${L}l-tp4-dp2.json" -o sweep/w$L.json >/dev/null
    for tau in 1e-06 1e-05 0.0001 0.001; do
      echo "{\"format\": \"flux.fabric/1\", \"gpus\": 8, \"ocs\": 2, \"link_rate\": 100e9, \"latency\": 0, \"reconfig_delay\": $tau, \"circuit\": \"duplex\", \"initial_config_free\": false}" >sweep/f-$tau.json
      for s in ideal rotornet rotornet-vlb bvn spectra-phase; do
        "$flux" simulate --workload sweep/w$L.json --fabric sweep/f-$tau.json --scheduler $s \
          --out-dir sweep/run-$L-$tau-$s >sweep/run-$L-$tau-$s.txt
      done
    done
  done
  mask "$out"
}

base_flux=${BASE_FLUX:-$WORK/base-build/flux}
if [ -z "${BASE_FLUX:-}" ]; then
  [ -n "${KEEP_BASE:-}" ] ||
    trap 'git -C "$ROOT" worktree remove --force "$WORK/base-src" 2>/dev/null || true' EXIT
  build_base
fi
cmake --build "$ROOT/build" --target flux -j 2 >/dev/null
# One after the other: the two runs should not compete for the cores.
(outputs "$base_flux" "$WORK/base")
(outputs "$ROOT/build/flux" "$WORK/current")
if diff -r "$WORK/base" "$WORK/current"; then
  echo "same outputs as $BASE"
else
  echo "outputs differ from $BASE (see $WORK)" >&2
  exit 1
fi
