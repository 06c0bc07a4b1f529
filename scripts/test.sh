#!/usr/bin/env bash
# Builds Flux and runs the whole test suite (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j 2
ctest --test-dir build --output-on-failure -j 2
