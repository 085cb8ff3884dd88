#!/usr/bin/env bash
# Runs every test (unit and end-to-end) of the build in build/, then the unit
# and front-end tests built with AddressSanitizer and UndefinedBehaviorSanitizer
# (scripts/test_sanitized.sh, in build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
# scripts/setup.sh builds the tool only; the tests are built here.
cmake --build build
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 900
scripts/test_sanitized.sh
