#!/usr/bin/env bash
# Simulates a scenario under each given scheduler, makes one `flux report` of all the runs and
# opens it in headless Chromium (report/web/check-report.mjs): every chart must draw marks, with
# no console error and no network request. Leaves report.html and screenshot.png in OUT.
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
"$flux" report "${runs[@]}" -o "$out/report.html"
echo "report.html: $(stat -c %s "$out/report.html") bytes"
node "$web/check-report.mjs" "$out/report.html" "$out/screenshot.png" "$min_sections"
