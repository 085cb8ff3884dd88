#!/bin/sh
# Fuzzes the front end with libFuzzer for SECONDS (default 600), seeded with
# every Fortran file of examples/ and tests/inputs/. Builds build-fuzz/ with
# Debian's clang (clang-14 and libclang-rt-14-dev, or clang-19 and
# libclang-rt-19-dev) and -DF2S_FUZZ=ON. Crashes are written to
# build-fuzz/crashes/; each one becomes a test (tests/frontend/RobustInputsTest.cpp).
#   tests/fuzz/fuzz_frontend.sh [SECONDS]
set -eu
seconds=${1:-600}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-fuzz
if ! command -v clang++ >/dev/null; then
  echo "fuzz_frontend.sh: clang++ not found: apt-get install clang-14 libclang-rt-14-dev" >&2
  exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DF2S_FUZZ=ON
fi
cmake --build "$build" --target frontend_fuzzer
corpus=$build/corpus
mkdir -p "$corpus" "$build/crashes"
# The first byte of an input picks the form: 0 free form, 1 fixed form.
for f in $(find "$root/examples" "$root/tests/inputs" -name '*.f90' -o -name '*.f' -o -name '*.F90' -o -name '*.F'); do
  case "$f" in
    *.f | *.F) form='\001' ;;
    *) form='\000' ;;
  esac
  name=$(echo "$f" | sed "s|$root/||; s|/|_|g")
  { printf "$form"; cat "$f"; } >"$corpus/seed_$name"
done
# A 20 s limit per input counts as a hang; 2 GB of memory as a leak.
ASAN_OPTIONS=detect_leaks=0 "$build/tests/fuzz/frontend_fuzzer" "$corpus" \
  -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=20000 \
  -artifact_prefix="$build/crashes/" -print_final_stats=1
