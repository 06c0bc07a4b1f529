#!/usr/bin/env bash
# Fails when a C++ source is not formatted as .clang-format says (fix: clang-format -i FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
find src tests bench fuzz python -name '*.cpp' -o -name '*.hpp' | xargs clang-format --dry-run -Werror
echo "format ok"
