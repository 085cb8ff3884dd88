#!/bin/sh
# Fuzzes the front end with libFuzzer. Builds build-fuzz/ with Debian's clang
# (clang-14 and libclang-rt-14-dev, or clang-19 and libclang-rt-19-dev) and
# -DF2S_FUZZ=ON, seeds a corpus with every Fortran file of examples/ and
# tests/inputs/ and every Fortran source written in the tests' C++ (raw
# strings), then runs tests/fuzz/run_fuzzer.sh on it.
#   tests/fuzz/fuzz_frontend.sh [SECONDS [WORKERS]]
#     fuzz here (default 600 s, 1 worker); the corpus grows in
#     build-fuzz/corpus/, findings go to build-fuzz/crashes/.
#   tests/fuzz/fuzz_frontend.sh --carry
#     only build and seed .fuzz-carry/ (git-ignored): frontend_fuzzer without
#     its debug information, corpus/ and a copy of run_fuzzer.sh, to run on
#     another machine with
#     sh .fuzz-carry/run_fuzzer.sh .fuzz-carry/frontend_fuzzer .fuzz-carry/corpus CRASH_DIR SECONDS WORKERS
# Each finding becomes a test in tests/frontend/RobustInputsTest.cpp.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$root/build-fuzz
carry=no
if [ "${1:-}" = "--carry" ]; then
  carry=yes
  shift
fi
seconds=${1:-600}
workers=${2:-1}
if ! command -v clang++ >/dev/null; then
  echo "fuzz_frontend.sh: clang++ not found: apt-get install clang-14 libclang-rt-14-dev" >&2
  exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
  launcher=""
  command -v ccache >/dev/null && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DF2S_FUZZ=ON $launcher
fi
cmake --build "$build" --target frontend_fuzzer
fuzzer=$build/tests/fuzz/frontend_fuzzer

if [ "$carry" = yes ]; then
  corpus=$root/.fuzz-carry/corpus
else
  corpus=$build/corpus
fi
mkdir -p "$corpus"
# The first byte of an input picks the form: 0 free form, 1 fixed form.
find "$root/examples" "$root/tests/inputs" -name '*.f90' -o -name '*.f' -o -name '*.F90' -o -name '*.F' |
  while read -r f; do
    case "$f" in
      *.f | *.F) form='\001' ;;
      *) form='\000' ;;
    esac
    name=$(echo "$f" | sed "s|$root/||; s|/|_|g")
    { printf "$form"; cat "$f"; } >"$corpus/seed_$name"
  done
# The Fortran of the tests' raw strings R"(...)": fixed form when every line
# is a comment, a label or starts in column 7.
python3 - "$root" "$corpus" <<'EOF'
import pathlib, re, sys
root, corpus = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for src in sorted((root / "tests").rglob("*.cpp")):
    text = src.read_text(errors="replace")
    for k, m in enumerate(re.finditer(r'R"\((.*?)\)"', text, re.S)):
        code = m.group(1)
        if not re.search(r"subroutine|!\$f2s", code, re.I):
            continue
        lines = [l for l in code.splitlines() if l.strip()]
        fixed = all(re.match(r"[cC*!]|[ 0-9]{5}[^ ]| {6}", l) for l in lines)
        name = f"seed_{src.relative_to(root)}_{k}".replace("/", "_")
        (corpus / name).write_bytes(bytes([1 if fixed else 0]) + code.encode())
EOF

if [ "$carry" = yes ]; then
  # Debug information is most of the binary; ASan's reports keep the function
  # names, and a finding is reproduced here with the unstripped build.
  strip --strip-debug -o "$root/.fuzz-carry/frontend_fuzzer" "$fuzzer"
  cp "$root/tests/fuzz/run_fuzzer.sh" "$root/.fuzz-carry/"
  du -sh "$root/.fuzz-carry"
  echo "fuzz_frontend.sh: .fuzz-carry/ holds frontend_fuzzer and $(ls "$corpus" | wc -l) seeds"
  exit 0
fi
mkdir -p "$build/crashes"
exec "$root/tests/fuzz/run_fuzzer.sh" "$fuzzer" "$corpus" "$build/crashes" "$seconds" "$workers"
