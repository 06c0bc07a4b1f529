#!/usr/bin/env bash
# Installs every Debian 12 package that building, testing and benchmarking Flux needs.
# --sanitize: also clang 14 with libFuzzer and its sanitizer runtimes, for
# scripts/test.sh --sanitize and scripts/fuzz.sh.
set -euo pipefail
extra=()
if [ "${1:-}" = --sanitize ]; then extra=(clang-14 libfuzzer-14-dev libclang-rt-14-dev); fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  g++ cmake ninja-build pkg-config clang-format \
  nlohmann-json3-dev libcli11-dev libfmt-dev \
  libgtest-dev libgmock-dev libbenchmark-dev \
  coinor-libcbc-dev coinor-libclp-dev zlib1g-dev libssl-dev jq \
  python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib \
  slurm-wlm munge chromium "${extra[@]}" >/dev/null
# Node and npm: the machine's own when it has them (Debian's npm would replace another nodejs).
if ! command -v npm >/dev/null; then
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    nodejs npm >/dev/null
fi
# The report's chart library (inlined into every `flux report` page) and the headless-browser
# test's driver, at the versions pinned in report/web/package-lock.json.
npm ci --prefix "$(dirname "$0")/../report/web" --no-audit --no-fund --loglevel=error >/dev/null
