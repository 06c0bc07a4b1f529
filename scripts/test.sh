#!/usr/bin/env bash
# Builds Flux and runs the whole test suite (the README's test command).
# --sanitize: the same with AddressSanitizer + UndefinedBehaviorSanitizer, in build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build
flags=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = --sanitize ]; then
  dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLUX_SANITIZE=ON -DFLUX_BUILD_BENCH=OFF)
fi
cmake -S . -B "$dir" -G Ninja "${flags[@]}" >/dev/null
cmake --build "$dir" -j 2
ctest --test-dir "$dir" --output-on-failure -j 2
