#!/usr/bin/env bash
# Builds Flux and runs the whole test suite (the README's test command).
# --sanitize: the same built with clang, AddressSanitizer + UndefinedBehaviorSanitizer, in
# build-sanitize/ (scripts/configure-sanitize.sh); extra arguments go to ctest (e.g. -E REGEX).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --sanitize ]; then
  shift
  bash scripts/configure-sanitize.sh
  dir=build-sanitize
else
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  dir=build
fi
cmake --build "$dir" -j 2
ctest --test-dir "$dir" --output-on-failure -j 2 "$@"
