#!/usr/bin/env bash
# The instruction mix of every kernel of a CUDA binary or library, from its
# sm_90 machine code (cuobjdump, on the GPU machine): per kernel, its
# instructions in all and those of each class that bounds a stencil's
# throughput (FP64 adds, multiplies and FMAs; the special-function unit's
# reciprocal steps; shared-memory loads and stores; barriers; global loads
# and stores). Static counts over the whole kernel, not per point: divide a
# steady loop's by the points it computes to read a cost per update.
#   bash bench/gpu/sass_mix.sh BINARY [KERNEL-NAME-PATTERN]
set -euo pipefail
bin=${1:?a binary or library with sm_90 code}
pattern=${2:-.}
cuobjdump --dump-sass "$bin" | awk -v pat="$pattern" '
  function flush() {
    if (name != "" && name ~ pat)
      printf "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", name, n, c["DADD"], c["DMUL"],
             c["DFMA"], c["MUFU"], c["LDS"], c["STS"], c["BAR"], c["LDG"] + c["STG"]
    n = 0
    delete c
  }
  BEGIN {
    print "| kernel | instructions | DADD | DMUL | DFMA | MUFU | LDS | STS | BAR | LDG+STG |"
    print "|---|---|---|---|---|---|---|---|---|---|"
  }
  /Function :/ { flush(); name = $3; next }
  /^[[:space:]]+\/\*[0-9a-f]+\*\// {
    line = $0
    sub(/^[[:space:]]+\/\*[0-9a-f]+\*\/[[:space:]]+/, "", line)
    sub(/^@!?U?P[0-9T] +/, "", line)
    split(line, f, /[ .;]/)
    op = f[1]
    if (op == "" || op == "NOP")
      next
    ++n
    if (op == "DADD" || op == "DMUL" || op == "DFMA" || op == "MUFU" || op == "LDS" || op == "STS" ||
        op == "BAR" || op == "LDG" || op == "STG")
      ++c[op]
  }
  END { flush() }'
