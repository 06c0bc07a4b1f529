#!/usr/bin/env bash
# Checks that the README and docs/ are self-contained: no citation of documents outside the
# repository or of issue numbers, and every relative Markdown link points to a file that exists.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
files=(README.md $(find docs -name '*.md' | sort))
if grep -nE '\.\./shared|DESIGN(\.md| §)|reference/[a-z]+\.md|[Ii]ssues? ?#?[0-9]' "${files[@]}"; then
  echo "docs cite documents outside the repository or issue numbers (lines above)"
  status=1
fi
for f in "${files[@]}"; do
  dir=$(dirname "$f")
  # [text](target) with a relative target; anchors and URLs are not checked.
  while IFS= read -r target; do
    path=${target%%#*}
    [ -z "$path" ] && continue
    if [ ! -e "$dir/$path" ]; then
      echo "$f: link to missing file $target"
      status=1
    fi
  # Code (fenced blocks, inline spans) is not prose: a lambda's `[](...)` is no link.
  done < <(awk '/^```/ { code = !code; next } !code' "$f" | sed -E 's/`[^`]*`//g' |
    grep -oE '\]\([^)]+\)' | sed -E 's/^\]\((.*)\)$/\1/' | grep -vE '^(https?|mailto):' || true)
done
[ $status -eq 0 ] && echo "docs ok"
exit $status
