#!/usr/bin/env bash
# Configures build-sanitize/: clang with AddressSanitizer, UndefinedBehaviorSanitizer (with
# float-cast-overflow) and libFuzzer's coverage instrumentation. One tree serves both the
# sanitized test suite (scripts/test.sh --sanitize) and the fuzz targets (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitize -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLUX_FUZZ=ON -DFLUX_BUILD_BENCH=OFF >/dev/null
