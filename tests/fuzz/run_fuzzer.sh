#!/bin/sh
# Runs an already-built frontend_fuzzer (tests/fuzz/fuzz_frontend.sh builds it)
# on CORPUS_DIR with WORKERS parallel libFuzzer processes (-fork mode) for at
# most SECONDS of wall-clock time, everything included, then prints the totals.
# Needs only sh, coreutils and grep, so that the binary can be carried to a machine
# without clang. New inputs that add coverage are written into CORPUS_DIR;
# crashes, hangs (an input over 20 s) and inputs over 4 GB of memory into
# CRASH_DIR as crash-*, timeout-*, oom-* (each becomes a test in
# tests/frontend/RobustInputsTest.cpp); libFuzzer's log into CRASH_DIR/fuzz.log.
#   tests/fuzz/run_fuzzer.sh BIN CORPUS_DIR CRASH_DIR SECONDS WORKERS
# Exit status: 0 when no input crashed, hung or ran out of memory, 1 otherwise.
set -eu
if [ $# -ne 5 ]; then
  echo "usage: $0 BIN CORPUS_DIR CRASH_DIR SECONDS WORKERS" >&2
  exit 2
fi
bin=$1
corpus=$2
crashes=$3
seconds=$4
workers=$5
mkdir -p "$corpus" "$crashes"
crashes=$(cd "$crashes" && pwd)
log=$crashes/fuzz.log
# Every worker writes its scratch input (and libFuzzer its job files) under a
# directory of this run's own, removed at the end.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# libFuzzer stops starting jobs after fuzz_s, then waits for the running ones
# (a job runs up to its number in seconds, 300 at most): the last part of
# SECONDS is left for that, and `timeout` stops whatever still runs at SECONDS.
grace=$((seconds / 5))
[ "$grace" -gt 120 ] && grace=120
fuzz_s=$((seconds - grace))
seeds=$(ls "$corpus" | wc -l)
echo "run_fuzzer: $workers workers, $fuzz_s s of fuzzing (stopped at $seconds s), $seeds inputs in $corpus"
start=$(date +%s)
# Leaks are left to the sanitized tests (LeakSanitizer at their exit,
# scripts/test_sanitized.sh); here memory that grows ends in an oom-* finding.
# The fork mode's parent lists every newly covered function (NEW_FUNC, most of
# the log): left out.
{
  TMPDIR=$scratch ASAN_OPTIONS=detect_leaks=0 timeout -k 10 "$seconds" "$bin" "$corpus" \
    -fork="$workers" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$fuzz_s" -timeout=20 -rss_limit_mb=4096 -max_len=20000 \
    -artifact_prefix="$crashes/" -print_final_stats=1 2>&1 && status=0 || status=$?
  echo "run_fuzzer: libFuzzer exited with $status (124: stopped by timeout)"
} | grep -v 'NEW_FUNC' >"$log" || true
end=$(date +%s)
echo "run_fuzzer: fuzzed for $((end - start)) s"
grep '^run_fuzzer:' "$log" || true
# The parent's last progress line: executions, coverage, corpus, findings.
grep -E '^#[0-9]+' "$log" | tail -n 3 || true
grep -E 'INFO: (fuzzed for|exiting)|ERROR:|runtime error:' "$log" | sort | uniq -c | head -n 40 || true
findings=$(ls "$crashes" | grep -E '^(crash|timeout|oom|leak)-' || true)
found=$(echo "$findings" | grep -c . || true)
echo "run_fuzzer: $(ls "$corpus" | wc -l) inputs in the corpus (from $seeds);" \
  "about $((workers * (end - start))) CPU seconds ($workers x $((end - start)) s);" \
  "$found findings in $crashes"
for f in $findings; do
  echo "  $f ($(wc -c <"$crashes/$f") bytes)"
done
[ "$found" -eq 0 ]
