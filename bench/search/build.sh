#!/usr/bin/env bash
# Builds the stripped f2stencil that bench/search/quality.sh carries to the
# GPU machine, into .sq-carry/ at the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
ninja -C "$build" -j2 f2stencil
rm -rf .sq-carry
mkdir -p .sq-carry
strip -o .sq-carry/f2stencil "$build/driver/f2stencil"
du -sh .sq-carry
