#!/usr/bin/env bash
# Soak test of `oddsmith serve` (docs/serve.md, docs/benchmarks.md): is
# memory flat under sustained load? For each connection count, a fresh
# release server on a loopback port is driven by Debian's `wrk` for a fixed
# number of seconds with the typical request of serve-load.sh (a Cortex roll
# against 2d6, exact, with its charts), while its resident memory is read
# every second from /proc/PID/status. Prints wrk's figures and the memory
# at 10, 60 and 120 s and at the end: the resident set (VmRSS) and its peak so far
# (VmHWM). Memory is flat when the end's peak is the 10 s peak give or take
# the allocator's slack. Traffic goes to 127.0.0.1 only; every run stops by
# itself (wrk's -d, then SIGINT to the server this script started).
#
#   benches/serve-soak.sh [SECONDS] [CONNECTIONS...]     # default: 60 2 16
#   VARIED=1 benches/serve-soak.sh ...                   # a new pool each request
#
# With VARIED=1 the requests are those of someone typing: each asks for the
# next of 1,500 hero and doom pools (d10 plus 1-10 d8 and 1-10 d6, against
# 2-4 dice of d6 to d12, exact, with charts), so the memo of pool
# distributions and the tables of shared inputs are kept full and turned
# over, not answered from one entry.
#
# Above the server's permits (one per core) the surplus is answered 503 at
# once (wrk's "Non-2xx"): the limit working, not an error.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(2 16)
bin=${ODDSMITH:-target/release/oddsmith}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk"; exit 1; }
[ -x "$bin" ] || cargo build --locked --release
kib() { awk -v k="$1" '$1 == k":" { print $2 }' "/proc/$2/status"; }

for connections in "${counts[@]}"; do
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    log=$(mktemp)
    "$bin" serve --bind "127.0.0.1:$port" >"$log" 2>&1 &
    server=$!
    for _ in $(seq 50); do grep -q listening "$log" && break; sleep 0.1; done
    url="http://127.0.0.1:$port/api/evaluate?cmd=cortex&pool=d10%202d8%20d6&vs=2d6&method=exact"
    curl -fsS "$url" -o /dev/null
    echo "== $seconds s, $connections connections, 2 wrk threads: $url"
    echo "idle after one request: VmRSS $(kib VmRSS $server) KiB, VmHWM $(kib VmHWM $server) KiB"
    out=$(mktemp)
    script=()
    if [ "${VARIED:-0}" = 1 ]; then
        lua=$(mktemp --suffix .lua)
        cat >"$lua" <<'LUA'
counter = 0
request = function()
    counter = counter + 1
    local n = counter % 1500
    local pool = "d10%20" .. (1 + n % 10) .. "d8%20" .. (1 + math.floor(n / 10) % 10) .. "d6"
    local doom = (2 + math.floor(n / 100) % 3) .. "d" .. (6 + 2 * (math.floor(n / 300) % 4))
    return wrk.format("GET", "/api/evaluate?cmd=cortex&pool=" .. pool .. "&vs=" .. doom .. "&method=exact")
end
LUA
        script=(-s "$lua")
        echo "varied: each request the next of 1,500 pools (VARIED=1)"
    fi
    wrk --latency -t2 -c"$connections" -d"${seconds}s" --timeout 10s "${script[@]}" "$url" >"$out" &
    load=$!
    t=0
    while kill -0 "$load" 2>/dev/null; do
        sleep 1
        t=$((t + 1))
        rss=$(kib VmRSS $server)
        hwm=$(kib VmHWM $server)
        case $t in 10 | 60 | 120) echo "at $t s: VmRSS $rss KiB, VmHWM $hwm KiB" ;; esac
        last="at the end ($t s): VmRSS $rss KiB, VmHWM $hwm KiB"
    done
    wait "$load"
    echo "$last"
    cat "$out"
    kill -INT "$server"
    wait "$server" || true
    rm -f "$log" "$out" ${lua:+"$lua"}
done
