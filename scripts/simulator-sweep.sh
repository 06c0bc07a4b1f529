#!/usr/bin/env bash
# τ sweep of every scheduler on the Flux paper's 8-GPU scenarios (8 and 16 layers):
# scripts/simulator-sweep.sh [OUT_DIR]; one run directory per (layers, τ, scheduler) and times.txt
# (wall seconds of each `flux simulate`, outputs included).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FLUX=${FLUX:-$ROOT/build/flux}
EX=$ROOT/examples
OUT=${1:-simulator-sweep}
mkdir -p "$OUT" && cd "$OUT"
for L in 8 16; do
  $FLUX workload generate --scenario $EX/llama3-8b-${L}l-tp4-dp2.json -o w$L.json > /dev/null
  for tau in 1us 10us 100us 1ms; do
    t=$(python3 -c "print({'1us':1e-6,'10us':1e-5,'100us':1e-4,'1ms':1e-3}['$tau'])")
    echo "{\"format\": \"flux.fabric/1\", \"gpus\": 8, \"ocs\": 2, \"link_rate\": 100e9, \"latency\": 0, \"reconfig_delay\": $t, \"circuit\": \"duplex\", \"initial_config_free\": false}" > f-$tau.json
    for s in ideal rotornet rotornet-vlb bvn spectra-phase; do
      start=$(date +%s.%N)
      $FLUX simulate --workload w$L.json --fabric f-$tau.json --scheduler $s -o run-$L-$tau-$s > /dev/null
      end=$(date +%s.%N)
      echo "$L $tau $s $(python3 -c "print(round($end-$start,3))")" >> times.txt
    done
  done
done
