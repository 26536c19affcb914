#!/usr/bin/env bash
# Load test of `oddsmith serve` (docs/serve.md, docs/benchmarks.md): the
# release binary on a loopback port, driven by Debian's `wrk` for a fixed
# number of seconds, then stopped with Ctrl-C (SIGINT). Prints wrk's
# requests per second and latency percentiles, and the server's peak memory
# (GNU time's maximum resident set size). It sends traffic to 127.0.0.1
# only and stops by itself.
#
#   benches/serve-load.sh [SECONDS] [CONNECTIONS]
#
# The request is a typical one: a Cortex roll against 2d6, exact, with its
# chart as SVG. With CONNECTIONS at or below the server's permits (one per
# core) every answer is 200; above them the surplus is answered 503 at once
# (wrk counts those as "Non-2xx"), which is the limit working.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-2}
bin=${ODDSMITH:-target/release/oddsmith}
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk"; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time is needed: apt-get install time"; exit 1; }
[ -x "$bin" ] || cargo build --locked --release
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
/usr/bin/time -f 'peak memory: %M KiB' "$bin" serve --bind "127.0.0.1:$port" >"$log" 2>&1 &
timer=$!
for _ in $(seq 50); do grep -q listening "$log" && break; sleep 0.1; done
server=$(pgrep -P "$timer" oddsmith)
url="http://127.0.0.1:$port/api/evaluate?cmd=cortex&pool=d10%202d8%20d6&vs=2d6&method=exact"
curl -fsS "$url" -o /dev/null
echo "wrk: $seconds s, $connections connections, 2 threads: $url"
wrk --latency -t2 -c"$connections" -d"${seconds}s" --timeout 10s "$url"
kill -INT "$server"
wait "$timer" || true
grep 'peak memory' "$log"
rm -f "$log"
