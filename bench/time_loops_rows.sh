# Sourced by the time-loop benchmarks (bench/gpu/time_tiles.sh,
# bench/gpu/time_loops.sh, bench/cpu/time_tiles.sh) from the repository root.

# Prints the rows of bench/time_loops.list (without comments) that the
# caller's selection keeps: PREC, the precisions (default "double single"),
# and ONLY, a regular expression matched against "example/procedure/stencil"
# (ONLY=jacobi3d keeps both 3D 7-point examples, ONLY='^heat2d' both heat
# loops, ONLY=/blur9_ one procedure, ONLY=/2d9 a stencil).
time_loop_rows() {
  local prec=" ${PREC:-double single} " example ext proc stencil precision rest
  while read -r example ext proc stencil precision rest; do
    [[ -z $example || $example == \#* ]] && continue
    [[ $prec == *" $precision "* ]] || continue
    [ -n "${ONLY:-}" ] && ! [[ "$example/$proc/$stencil" =~ $ONLY ]] && continue
    echo "$example $ext $proc $stencil $precision $rest"
  done <bench/time_loops.list
}

# The bytes a precision's element takes.
element_bytes() {
  [ "$1" = single ] && echo 4 || echo 8
}

# How a library (its record, JSON) runs time loop PROCEDURE on its one
# target: the shared memory a block of its forced tiles takes ("-" when the
# record does not say), then "steps" or "T=N [FORM]". The record lists each
# loop's "name" before its choice (keys in order), and a choice's "why"
# last; a loop without a choice (--time-tile=off) runs the steps.
loop_choice() {
  grep -oE '"name": "[A-Za-z0-9_]+"|"form": "[a-z]+"|"tiled": (true|false)|"time_tile": [0-9]+|"why": "[^"]*"' "$1" |
    awk -v p="\"name\": \"$2\"" '
      $0 == p { found = 1; next }
      !found { next }
      /^"name"/ { print "- steps"; done = 1; exit }
      /^"tiled"/ { tiled = $2 }
      /^"time_tile"/ { t = $2 }
      /^"form"/ { form = $2; gsub(/"/, "", form) }
      /^"why"/ {
        shared = "-"
        if (match($0, /[0-9]+ bytes of shared memory a block/))
          shared = substr($0, RSTART, RLENGTH)
        sub(/ .*/, "", shared)
        print shared, (tiled == "true" ? "T=" t " " form : "steps")
        done = 1
        exit
      }
      END { if (found && !done) print "- steps" }'
}
