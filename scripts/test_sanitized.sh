#!/usr/bin/env bash
# Builds the unit and front-end tests with AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan/ (-DF2S_SANITIZE=ON) and runs them;
# any sanitizer report (LeakSanitizer's at exit included) aborts its test, so
# the script fails. scripts/test.sh runs it after the tests of build/;
# TESTING.md has the times.
set -euo pipefail
cd "$(dirname "$0")/.."
# The GoogleTest executables run sanitized (each test is labelled with its
# executable; F2S_SANITIZED_TESTS overrides the list). Left out: e2e_test and
# cuda_test, which mostly run gcc, gfortran and nvcc on generated code (the
# random-program tests build that code with the sanitizers, tests/fuzz), and
# harness_test, which mostly compiles and runs generated harnesses.
read -r -a executables <<<"${F2S_SANITIZED_TESTS:-ast_test canonicalize_test frontend_test transforms_test codegen_test strategy_test}"
# -O1 and line tables only: ASan's reports need no more, and -O2 with full
# debug information of the Flang parse tree's templates is slower to build.
# Debug keeps the assertions on.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DF2S_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCMAKE_C_FLAGS_DEBUG="-O1 -g1"
cmake --build build-asan --target "${executables[@]}"
labels=$(IFS='|' && echo "${executables[*]}")
# ASan's frames are several times larger: a test that prints the IR of a
# 5,000-term sum (RobustInputs) does so on the main thread, whose 8 MiB do not
# hold it then (f2stencil itself runs on a 512 MiB stack of its own).
ulimit -s 65536
# halt_on_error is ASan's default and -fno-sanitize-recover makes every UBSan
# check fatal; the options make the reports complete and catch returns to
# freed stack frames too.
ASAN_OPTIONS=halt_on_error=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan -L "^(${labels})\$" --output-on-failure -j "$(nproc)" --timeout 900
