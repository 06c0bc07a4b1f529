#!/usr/bin/env bash
# Simulates a scenario under each given scheduler, makes one `flux report` of all the runs and
# opens it in headless Chromium (report/web/check-report.mjs): every chart must draw marks, with
# no console error and no network request. Leaves report.html and screenshot.png in OUT.
# With FLUX_REPORT_EXTRAS=1 the page also gets a small `flux bench flux` sweep, a demand matrix
# and two matrix schedules (all-stop and per-port), so that every section is drawn.
# Usage: browser-test.sh FLUX WEB_DIR OUT SCENARIO FABRIC MIN_SECTIONS SCHEDULER[:FLAGS]...
set -euo pipefail
flux=$1 web=$2 out=$3 scenario=$4 fabric=$5 min_sections=$6
shift 6
rm -rf "$out" && mkdir -p "$out/runs"
runs=()
for entry in "$@"; do
  scheduler=${entry%%:*}
  flags=()
  [ "$entry" != "$scheduler" ] && read -r -a flags <<<"${entry#*:}"
  "$flux" simulate --scenario "$scenario" --fabric "$fabric" --scheduler "$scheduler" \
    "${flags[@]}" -o "$out/runs/$scheduler" >/dev/null
  runs+=("$out/runs/$scheduler")
done
if [ "${FLUX_REPORT_EXTRAS:-0}" = 1 ]; then
  "$flux" bench flux --scenario "$scenario" --fabric "$fabric" --layers 8 --taus 10us,100us,1ms \
    --schedulers flux-greedy,rotornet,spectra-phase,ideal --out-dir "$out/bench" >/dev/null
  "$flux" matrix generate synthetic --n 16 --seed 1 -o "$out/D.json" >/dev/null
  "$flux" matrix schedule --demand "$out/D.json" --switches 4 --delta 0.01 -o "$out/MS.json" >/dev/null
  "$flux" matrix schedule --demand "$out/D.json" --switches 2 --delta 0.01 -a per-port \
    -o "$out/MS-per-port.json" >/dev/null
  runs+=("$out/bench" "$out/D.json" "$out/MS.json" "$out/MS-per-port.json")
fi
"$flux" report "${runs[@]}" -o "$out/report.html"
echo "report.html: $(stat -c %s "$out/report.html") bytes"
node "$web/check-report.mjs" "$out/report.html" "$out/screenshot.png" "$min_sections"
