#!/usr/bin/env bash
# Runs every test (unit and end-to-end) of the build in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 900
