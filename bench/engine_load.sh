#!/usr/bin/env bash
# The API while the engine works: on a copy of a database with a large generated organization
# (BASE, as bench/engine.sh leaves it in its OUT: base.db), starts `serve --no-engine` pinned to
# core 0 and loads `GET /v1/charges/{id}` from core 1 with wrk (32 connections): once with the
# engine idle, then while `engine run-once` does the daily pass on the same database, pinned to
# the server's core and at the lowest CPU priority, as the engine's thread inside `serve` is
# (src/engine/background.rs). Prints both p99s and their ratio.
#
# A benchmark, not a test: kept out of .ci/run. Needs wrk, taskset, curl, python3 and two cores.
# Environment: BASE (required), AT (the pass's instant: noon in São Paulo of the next weekday),
# DURATION (10s), CONNECTIONS (32), OUT (a temporary directory), NO_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${BASE:?set BASE to a SQLite database with a generated organization (bench/engine.sh OUT/base.db)}
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-32}
OUT=${OUT:-$(mktemp -d /tmp/kd-engine-load.XXXXXX)}
mkdir -p "$OUT"
BIN=target/dist/kobana-dunning
source bench/wrk-scripts.sh
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
[[ -n ${NO_BUILD:-} ]] || cargo build --profile dist --bin kobana-dunning
AT=${AT:-$(python3 -c 'import datetime as d
t = d.date.today() + d.timedelta(days=1)
while t.weekday() >= 5: t += d.timedelta(days=1)
print(f"{t}T15:00:00Z")')}

rm -f "$OUT"/run.db*
cp "$BASE" "$OUT/run.db"
DB="sqlite://$OUT/run.db"
PORT=$(free_port)
taskset -c 0 "$BIN" --database "$DB" serve --demo --no-engine --bind "127.0.0.1:$PORT" \
  --rate-limit 1000000000 --rate-limit-burst 1000000 >"$OUT/server.out" 2>"$OUT/server.log" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
demo_ready "$OUT/server.out" "http://127.0.0.1:$PORT" || { cat "$OUT/server.log" >&2; exit 1; }
write_wrk_scripts "$OUT" "$DEMO_TOKEN" "$DEMO_CHARGE"

p99() { # wrk output file: the p99 in ms
  awk '$1 == "99%" { v = $2; n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }' "$1"
}
load() { taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$OUT/rest.lua" "http://127.0.0.1:$PORT" >"$OUT/$1.wrk"; }

taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d2s -s "$OUT/rest.lua" "http://127.0.0.1:$PORT" >/dev/null # warm up
load idle
taskset -c 0 /usr/bin/time -f '%e' -o "$OUT/pass.time" "$BIN" --database "$DB" engine run-once --background --at "$AT" >"$OUT/pass.out" &
pass=$!
load busy
wait $pass
idle=$(p99 "$OUT/idle.wrk") busy=$(p99 "$OUT/busy.wrk")
echo "GET /v1/charges/{id}, $CONNECTIONS connections, $DURATION each:"
echo "  engine idle: p99 $idle ms, $(awk '/Requests\/sec/ { print $2 }' "$OUT/idle.wrk") req/s"
echo "  during the daily pass ($(cat "$OUT/pass.time") s; $(grep '^sent' "$OUT/pass.out")): p99 $busy ms, $(awk '/Requests\/sec/ { print $2 }' "$OUT/busy.wrk") req/s"
python3 -c "import sys; print(f'  ratio: {float(sys.argv[2]) / float(sys.argv[1]):.2f} (target: at most 2)')" "$idle" "$busy"
