#!/usr/bin/env bash
# Checks that every #include "module/..." in src/ points to the same or an earlier module in the
# dependency order, so dependencies keep pointing one way, and that each module's code lives in
# its own namespace (flux::<module>; core is flux itself).
set -euo pipefail
cd "$(dirname "$0")/.."
# The order is the one declared in CMakeLists.txt (FLUX_MODULES), with the CLI on top.
read -r -a order <<<"$(sed -n '/^set(FLUX_MODULES/,/)/p' CMakeLists.txt | tr -d '()' |
  sed -e 's/set//' -e 's/FLUX_MODULES//' | tr '\n' ' ') cli"
rank() { local i; for i in "${!order[@]}"; do [ "${order[$i]}" = "$1" ] && { echo "$i"; return; }; done; echo -1; }
status=0
for dir in src/*/; do
  module=$(basename "$dir")
  r=$(rank "$module")
  [ "$r" -ge 0 ] || { echo "unknown module folder: $dir"; status=1; continue; }
  while IFS=: read -r file _ inc; do
    dep=$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<<"$inc")
    d=$(rank "$dep")
    [ "$d" -ge 0 ] || continue
    if [ "$d" -gt "$r" ]; then
      echo "layering violation: $file includes $dep/ (module $module may use only earlier modules)"
      status=1
    fi
  done < <(grep -Hn '#include "[a-z_]*/' "$dir" -r || true)
  ns="flux::$module"
  [ "$module" = core ] && ns=flux
  while IFS=: read -r file line text; do
    echo "namespace violation: $file:$line opens '${text% \{}', module $module's namespace is $ns"
    status=1
  done < <(grep -Hn -E '^namespace flux(::[a-z_]+)? \{' "$dir" -r --include='*.?pp' |
    grep -v -E ":namespace $ns \{\$" || true)
done
[ $status -eq 0 ] && echo "layering ok"
exit $status
