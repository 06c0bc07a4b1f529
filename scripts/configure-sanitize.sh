#!/usr/bin/env bash
# Configures build-sanitize/: clang with AddressSanitizer, UndefinedBehaviorSanitizer (with
# float-cast-overflow) and libFuzzer's coverage instrumentation. One tree serves both the
# sanitized test suite (scripts/test.sh --sanitize) and the fuzz targets (scripts/fuzz.sh), so CI
# compiles the sources once for both. Its default target holds only what those two need: the
# libraries, the test executables, flux and the fuzz targets. The Python module is left out (an
# instrumented extension cannot load into the uninstrumented interpreter; the normal build tests
# it), and so are the benchmarks. -O1 without -g: the sanitizers need no more optimisation, the
# compile is much cheaper than -O2 -g, and reports still name functions and lines (symbolised
# from the symbol table; -g only adds inlined frames). Assertions stay on.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitize -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE=-O1 \
  -DFLUX_FUZZ=ON -DFLUX_BUILD_BENCH=OFF -DFLUX_PYTHON=OFF >/dev/null
