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
  python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib "${extra[@]}" >/dev/null
