#!/usr/bin/env bash
# Two builds of oddsmith side by side, in one run (docs/benchmarks.md,
# "Before and after, in one run"): each workload runs with the "before"
# binary, then the "after" one, under GNU time; prints processor time
# (user + system), wall time, peak resident memory and the exit code.
# Then `oddsmith serve` under wrk (benches/serve-load.sh) for each binary
# that has it, and the icepool script three times (it needs icepool 2.1.3).
# Everything runs on this machine, on loopback only, and stops by itself.
#
#   benches/one-run.sh BEFORE_BINARY AFTER_BINARY
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: benches/one-run.sh BEFORE_BINARY AFTER_BINARY"; exit 2; }
before=$(realpath "$1") after=$(realpath "$2")
[ -x /usr/bin/time ] || { echo "GNU time is needed: apt-get install time"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Sweeps of 1d4..Nd4 against 1d6..Nd6: 400 and 44,100 cases.
sweep() {
  python3 - "$1" >"$work/sweep-$1.toml" <<'PY'
import sys
n = int(sys.argv[1])
pools = lambda die: ", ".join(f'"{i}{die}"' for i in range(1, n + 1))
print(f'name = "big"\n[[sweep]]\nsystem = "cortex"\npool = [{pools("d4")}]\nvs = [{pools("d6")}]')
PY
}
sweep 20
sweep 210
T() { # label, then the command's words with BIN for the binary
  local label=$1; shift
  for which in before after; do
    local bin=${!which}
    local args=("${@//BIN/$bin}")
    args=("${args[@]//WORK/$work}")
    /usr/bin/time -f "%U %S %e %M" -o "$work/t" "${args[@]}" >"$work/out" 2>"$work/err"
    local rc=$?
    read -r u s e m < <(tail -1 "$work/t")
    printf '%s\t%s\tcpu=%.2f\twall=%.2f\trss=%sK\trc=%s\t%s\n' "$label" "$which" \
      "$(echo "$u + $s" | bc)" "$e" "$m" "$rc" "$(head -c 100 "$work/err" | tr '\n' ' ')"
  done
}
uptime
M1="--threads 1 --format json"
T cortex-mc-2e7 BIN cortex "d10 2d8 d6" --vs 2d6 --method mc --trials 20000000 $M1
T story5-mc-2e7 BIN storytelling 5 --method mc --trials 20000000 $M1
T story10-mc-2e7 BIN storytelling 10 --method mc --trials 20000000 $M1
T extended-mc-2e7 BIN storytelling 5 --extended 10 --rolls 5 --method mc --trials 20000000 $M1
T contest-mc-2e7 BIN storytelling 5 --vs-dice 4 --contest-ties reroll --method mc --trials 20000000 $M1
T advantage-d8-6-mc-2e7 BIN advantage --die d8 --rolls 6 --gain-on miss=1,weak=0,strong=0 --gain-chance 0.5 --gm-reduce-chance 0.1 --method mc --trials 20000000 $M1
T conflict-mc-2e6 BIN conflict "d10 2d8 d6" --foe "d10 d8 d6" --exchanges 5 --method mc --trials 2000000 $M1
T scene10-mc-2e6 BIN scene "d10 2d8 d6" --doom 3d8 --actions 10 --method mc --trials 2000000 $M1
T economy8-mc-2e6 BIN scene "d10 2d8 d6" --doom 2d6 --actions 8 --start-plot-points 1 --hero-spend add-to-total --spend-below 12 --distinction d4-when-broke --gm-spend to-win --method mc --trials 2000000 $M1
T cortex-10000d8-auto BIN cortex 10000d8 --vs 2d6 --format json
for n in 60 80 90 100; do
  T "scene$n-exact" BIN scene "d10 2d8 d6" --doom 2d6 --actions $n --method exact --format json
done
T scene100-auto BIN scene "d10 2d8 d6" --doom 2d6 --actions 100 --format json
T economy30-exact BIN scene "d10 2d8 d6" --doom 2d6 --actions 30 --method exact --start-plot-points 1 --hero-spend add-to-total --spend-below 12 --distinction d4-when-broke --gm-spend to-win --end-at-2d12 --format json
T readme-main-job BIN run scenarios/doom-ladder.toml --out WORK/ladder --quiet
T report-all BIN report --out WORK/report --quiet
T sweep400-folder BIN run WORK/sweep-20.toml --method mc --trials 1 --quiet --format csv --out WORK/s400
T sweep44100-folder BIN run WORK/sweep-210.toml --method mc --trials 1 --quiet --format csv --out WORK/s44100
T sweep400-json BIN run WORK/sweep-20.toml --method mc --trials 1 --quiet --format json --no-report
T sweep44100-json BIN run WORK/sweep-210.toml --method mc --trials 1 --quiet --format json --no-report
for which in before after; do
  if "${!which}" serve --help >/dev/null 2>&1; then
    echo "serve, $which:"
    ODDSMITH=${!which} bash benches/serve-load.sh 10 2 2>&1 | grep -E "50%|99%|Requests/sec|Non-2xx|peak"
  else
    echo "serve, $which: no serve command"
  fi
done
for _ in 1 2 3; do
  /usr/bin/time -f "icepool	cpu=%U+%S	wall=%e" python3 benches/icepool-doom-ladder.py >/dev/null
done
uptime
