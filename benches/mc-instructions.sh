#!/usr/bin/env bash
# Instructions a Monte Carlo trial costs the whole `oddsmith` process
# (docs/benchmarks.md, "Before and after, in one run"): each case run
# under valgrind's callgrind at two trial counts, one thread, and the
# difference in instructions divided by the difference in trials, so
# start-up, table building and output cancel out. Load-independent.
#
#   benches/mc-instructions.sh BINARY [BINARY ...]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: benches/mc-instructions.sh BINARY [BINARY ...]"; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed: apt-get install valgrind"; exit 1; }
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
M="--method mc --threads 1 --format json"
C() { # label, fewer trials, more trials, then the command's words with BIN
  local label=$1 few=$2 more=$3; shift 3
  for bin in "${binaries[@]}"; do
    local args=("${@//BIN/$bin}")
    local i1 i2
    i1=$(ir "${args[@]}" --trials "$few")
    i2=$(ir "${args[@]}" --trials "$more")
    printf '%s\t%s\t%.1f instructions a trial\n' "$label" "$bin" "$(echo "($i2 - $i1) / ($more - $few)" | bc -l)"
  done
}
binaries=("$@")
C cortex 262144 1048576 BIN cortex "d10 2d8 d6" --vs 2d6 $M
C storytelling-5 262144 1048576 BIN storytelling 5 $M
C storytelling-10 262144 1048576 BIN storytelling 10 $M
C extended 262144 1048576 BIN storytelling 5 --extended 10 --rolls 5 $M
C contest 262144 1048576 BIN storytelling 5 --vs-dice 4 --contest-ties reroll $M
C advantage 262144 1048576 BIN advantage --die d8 --rolls 6 --gain-on miss=1,weak=0,strong=0 --gain-chance 0.5 --gm-reduce-chance 0.1 $M
C conflict 65536 262144 BIN conflict "d10 2d8 d6" --foe "d10 d8 d6" --exchanges 5 $M
C scene 65536 262144 BIN scene "d10 2d8 d6" --doom 3d8 --actions 10 $M
C economy 65536 262144 BIN scene "d10 2d8 d6" --doom 2d6 --actions 8 --start-plot-points 1 --hero-spend add-to-total --spend-below 12 --distinction d4-when-broke --gm-spend to-win $M
