#!/usr/bin/env bash
# Checks that every #include "module/..." in src/ points to the same or an earlier module in the
# dependency order, so dependencies keep pointing one way, and that each module's code lives in
# its own namespace (flux::<module>; core is flux itself).
set -euo pipefail
cd "$(dirname "$0")/.."
# The order is the one declared in CMakeLists.txt (FLUX_MODULES), with the CLI on top.
order="$(sed -n '/^set(FLUX_MODULES/,/)/p' CMakeLists.txt | tr -d '()' |
  sed -e 's/set//' -e 's/FLUX_MODULES//' | tr '\n' ' ') cli"
# One pass over every source line: a file's module is its folder under src/.
find src -mindepth 2 -type f -print0 | sort -z | xargs -0 awk -v order="$order" '
  BEGIN { n = split(order, names, " "); for (i = 1; i <= n; ++i) rank[names[i]] = i; status = 0 }
  FNR == 1 {
    split(FILENAME, parts, "/"); module = parts[2]
    if (!(module in rank) && !(module in unknown)) {
      unknown[module] = 1; print "unknown module folder: src/" module "/"; status = 1
    }
    ns = module == "core" ? "flux" : "flux::" module
  }
  match($0, /#include "[a-z_]+\//) {
    dep = substr($0, RSTART + 10, RLENGTH - 11)
    if ((dep in rank) && (module in rank) && rank[dep] > rank[module]) {
      print "layering violation: " FILENAME " includes " dep "/ (module " module " may use only earlier modules)"
      status = 1
    }
  }
  (module in rank) && FILENAME ~ /\.[a-z]pp$/ && /^namespace flux(::[a-z_]+)? \{$/ && $0 != "namespace " ns " {" {
    text = $0; sub(/ \{$/, "", text)
    print "namespace violation: " FILENAME ":" FNR " opens '\''" text "'\'', module " module "'\''s namespace is " ns
    status = 1
  }
  END { if (status == 0) print "layering ok"; exit status }' || exit 1
