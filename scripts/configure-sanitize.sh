#!/usr/bin/env bash
# Configures build-sanitize/: clang with AddressSanitizer, UndefinedBehaviorSanitizer (with
# float-cast-overflow) and libFuzzer's coverage instrumentation. One tree serves both the
# sanitized test suite (scripts/test.sh --sanitize) and the fuzz targets (scripts/fuzz.sh). The
# Python module is left out: an instrumented extension cannot load into the uninstrumented
# interpreter (the normal build tests it).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitize -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLUX_FUZZ=ON -DFLUX_BUILD_BENCH=OFF -DFLUX_PYTHON=OFF >/dev/null
