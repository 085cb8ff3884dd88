#!/bin/sh
# Runs the differential-testing campaign (run_fuzz.py) on a machine without
# gfortran, such as the GPU machine's 16-core host.
#
# Here:   tests/fuzz/device_campaign.sh --pack F2STENCIL
#   writes .campaign.tgz (git-ignored, about 25 MB): this machine's gfortran
#   (driver, f951, collect2, crt and libgcc files, libgfortran, libstdc++ for
#   the CUDA emulation's link) with the shared libraries f951 needs, and the
#   f2stencil binary F2STENCIL.
# There:  sh tests/fuzz/device_campaign.sh --run START SECONDS JOBS OUT
#   unpacks it into /tmp, puts a gfortran on PATH that finds its parts
#   there, and runs seeds from START on JOBS processes for SECONDS of wall
#   time, the log into OUT/campaign.jsonl and the totals into
#   OUT/campaign.txt. Failures are minimised there into OUT/regressions.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
case "${1:-}" in
--pack)
  f2s=$2
  gcc_dir=$(dirname "$(gfortran -print-libgcc-file-name)")
  stage=$(mktemp -d)
  c=$stage/.campaign-carry
  mkdir -p "$c/bin" "$c/lib" "$c/rt" "$c/gcc/x86_64-linux-gnu"
  cp "$(readlink -f "$(command -v gfortran)")" "$c/bin/gfortran-12"
  # The Fortran compiler proper and what linking needs; not the C and C++
  # compilers, plugins and sanitizer runtimes (the other machine has its own
  # gcc for the C side).
  mkdir -p "$c/gcc/x86_64-linux-gnu/12"
  (cd "$gcc_dir" && tar cf - --exclude=cc1 --exclude=cc1plus --exclude=cc1obj --exclude=lto1 \
    --exclude=lto-dump --exclude=plugin --exclude='lib*san*' --exclude='libstdc++.a' \
    --exclude='libstdc++fs.a' --exclude='libsupc++.a' --exclude='libgo*' --exclude='libobjc*' \
    --exclude='libgphobos*' --exclude='libgdruntime*' --exclude='libitm*' --exclude='libatomic.a' \
    --exclude='libquadmath.a' --exclude='libgfortran.a' --exclude=gnat1 --exclude=adalib \
    --exclude=adainclude --exclude=d21 --exclude=go1 --exclude=cc1gm2 --exclude=f771 .) |
    tar xf - -C "$c/gcc/x86_64-linux-gnu/12"
  for l in libgfortran.so.5 libquadmath.so.0; do
    cp "$(gfortran -print-file-name=$l)" "$c/rt/"
  done
  # What f951 links beyond glibc (MPFR, GMP, MPC, ISL, zstd).
  ldd "$gcc_dir/f951" | awk '/=>/ {print $3}' | grep -v -E 'libc\.|libm\.|ld-linux|libdl|libpthread' |
    while read -r l; do cp "$l" "$c/lib/"; done
  cp "$f2s" "$c/f2stencil"
  tar czf "$root/.campaign.tgz" -C "$stage" .campaign-carry
  rm -rf "$stage"
  ls -l "$root/.campaign.tgz"
  ;;
--run)
  start=$2 seconds=$3 jobs=$4 out=$5
  mkdir -p "$out"
  tar xzf "$root/.campaign.tgz" -C /tmp
  c=/tmp/.campaign-carry
  mkdir -p /tmp/campaign-bin
  cat >/tmp/campaign-bin/gfortran <<EOF
#!/bin/sh
GCC_EXEC_PREFIX=$c/gcc/ LD_LIBRARY_PATH=$c/lib:$c/rt\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH} \\
  exec $c/bin/gfortran-12 -B$c/gcc/x86_64-linux-gnu/12/ -L$c/rt "\$@"
EOF
  chmod +x /tmp/campaign-bin/gfortran
  export PATH=/tmp/campaign-bin:$PATH
  # The programs gfortran links find libgfortran at run time here.
  export LD_LIBRARY_PATH=$c/rt${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  timeout "$seconds" python3 "$root/tests/fuzz/run_fuzz.py" --f2stencil "$c/f2stencil" \
    --count 100000 --start "$start" --jobs "$jobs" --tuned-every 50 --cuda-every 10 \
    --log "$out/campaign.jsonl" --work /tmp/campaign-work --regress-dir "$out/regressions" || true
  python3 "$root/tests/fuzz/run_fuzz.py" --totals "$out/campaign.jsonl" | tee "$out/campaign.txt"
  ;;
*)
  echo "usage: $0 --pack F2STENCIL | --run START SECONDS JOBS OUT" >&2
  exit 2
  ;;
esac
