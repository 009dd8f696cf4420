#!/usr/bin/env bash
# Load test of the server as shipped against a static floor (docs/PERFORMANCE.md).
#
# Builds the dist profile, starts `serve --demo` (authentication, rate limiting, MCP header checks and one
# JSON log line per request to a file, all on as shipped; only the rate limit is raised so that
# the load measures answers, not 429s) pinned to core 0, and for each request:
#   1. captures the server's answer (status, headers, body) with curl;
#   2. starts its floor (benches/floor.rs), which answers those same bytes to every request,
#      pinned to the same core;
# then, RUNS times, loads every request's floor and then the server from core 1 with wrk
# (32 connections, 6 s), request after request, and prints medians: req/s, p50, p99, the
# ratios, and the server's peak RSS (VmHWM).
#
# A benchmark, not a test: kept out of .ci/run. Needs wrk (Debian: apt-get install -y wrk),
# taskset, curl, and two cores. Run it with nothing else busy (no cargo build).
#
# Environment: RUNS (2), DURATION (6s), CONNECTIONS (32), SERVER_CPU (0), LOAD_CPU (1),
# PORT (a free port), OUT (a temporary directory: captures, logs, wrk output),
# NO_BUILD=1 to use the binaries already built (SERVER_BIN, FLOOR_BIN: target/dist), PERF=1 to record a perf profile of
# the server (perf record -g, cpu-clock) during the server loads, into $OUT/perf-<request>.data.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-2}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "RUNS must be a positive number" >&2; exit 1; }
DURATION=${DURATION:-6s}
CONNECTIONS=${CONNECTIONS:-32}
SERVER_CPU=${SERVER_CPU:-0}
LOAD_CPU=${LOAD_CPU:-1}
source bench/wrk-scripts.sh
PORT=${PORT:-$(free_port)}
OUT=${OUT:-$(mktemp -d /tmp/kd-load.XXXXXX)}
mkdir -p "$OUT"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
command -v taskset >/dev/null || { echo "taskset is missing (util-linux)" >&2; exit 1; }

if [[ -z ${NO_BUILD:-} ]]; then
  cargo build --profile dist --bin kobana-dunning --example floor
fi
SERVER_BIN=${SERVER_BIN:-target/dist/kobana-dunning}
FLOOR_BIN=${FLOOR_BIN:-target/dist/examples/floor}
# The link order (link/hot-functions.txt) names symbols whose hashes move with any dependency's
# version or features; a stale list costs a few percent without a word from the linker
# (.ci/link-order fails on one; this says it before a load).
if [[ $SERVER_BIN == target/dist/kobana-dunning ]] && command -v nm >/dev/null; then
  CHECK=1 bench/hot-functions.sh >/dev/null || echo "warning: the load runs with a stale link order" >&2
fi

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

wait_port() {
  for _ in $(seq 1 200); do
    if curl -s -o /dev/null "http://127.0.0.1:$1/"; then return 0; fi
    sleep 0.05
  done
  echo "nothing listens on port $1" >&2
  exit 1
}

# The server as shipped, on a fresh database.
rm -f "$OUT"/db.sqlite*
taskset -c "$SERVER_CPU" "$SERVER_BIN" serve --demo \
  --database "sqlite://$OUT/db.sqlite" --bind "127.0.0.1:$PORT" \
  --log-format json --rate-limit 1000000000 --rate-limit-burst 1000000 \
  >"$OUT/server.out" 2>"$OUT/server.log" &
SERVER_PID=$!
pids+=("$SERVER_PID")
BASE="http://127.0.0.1:$PORT"
demo_ready "$OUT/server.out" "$BASE" || { cat "$OUT/server.log" >&2; exit 1; }
TOKEN=$DEMO_TOKEN CHARGE=$DEMO_CHARGE

# Each request: a name, the HTTP method, path, headers (one a line) and body.
declare -a NAMES=(rest call2025 call2026 list)
declare -A LABEL=(
  [rest]='GET /v1/charges/{id}'
  [call2025]='MCP tools/call dunning_charges_get (2025-06-18)'
  [call2026]='MCP tools/call dunning_charges_get (2026-07-28)'
  [list]='MCP tools/list (all scopes)'
)
declare -A METHOD=([rest]=GET [call2025]=POST [call2026]=POST [list]=POST)
declare -A PATHS=([rest]="/v1/charges/$CHARGE" [call2025]=/mcp [call2026]=/mcp [list]=/mcp)
declare -A HEADERS=(
  [rest]=""
  [call2025]=$'Content-Type: application/json\nAccept: application/json, text/event-stream\nMCP-Protocol-Version: 2025-06-18'
  [call2026]=$'Content-Type: application/json\nAccept: application/json, text/event-stream\nMCP-Protocol-Version: 2026-07-28\nMcp-Method: tools/call\nMcp-Name: dunning_charges_get'
  [list]=$'Content-Type: application/json\nAccept: application/json, text/event-stream\nMCP-Protocol-Version: 2025-06-18'
)
ENVELOPE='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
declare -A BODY=(
  [rest]=""
  [call2025]="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"dunning_charges_get\",\"arguments\":{\"id\":\"$CHARGE\"}}}"
  [call2026]="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"dunning_charges_get\",\"arguments\":{\"id\":\"$CHARGE\"},$ENVELOPE}}"
  [list]='{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'
)

# The wrk script of a request: method, headers and body (wrk's -H would do for headers, the body
# needs Lua).
write_lua() {
  local name=$1 file=$OUT/$1.lua
  {
    echo "wrk.method = \"${METHOD[$name]}\""
    echo "wrk.path = \"${PATHS[$name]}\""
    echo "wrk.headers[\"Authorization\"] = \"Bearer $TOKEN\""
    while IFS= read -r line; do
      [[ -z $line ]] && continue
      echo "wrk.headers[\"${line%%: *}\"] = \"${line#*: }\""
    done <<<"${HEADERS[$name]}"
    if [[ -n ${BODY[$name]} ]]; then
      printf 'local f = io.open("%s", "rb")\nwrk.body = f:read("*a")\nf:close()\n' "$OUT/$name.body"
    fi
  } >"$file"
  printf '%s' "${BODY[$name]}" >"$OUT/$name.body"
}

capture() {
  local name=$1 args=(-si -X "${METHOD[$name]}" -H "Authorization: Bearer $TOKEN")
  while IFS= read -r line; do [[ -n $line ]] && args+=(-H "$line"); done <<<"${HEADERS[$name]}"
  [[ -n ${BODY[$name]} ]] && args+=(--data-binary "@$OUT/$name.body")
  curl "${args[@]}" "$BASE${PATHS[$name]}" >"$OUT/$name.http"
  head -1 "$OUT/$name.http" | grep -q ' 200' ||
    { echo "the server answered $name with: $(head -1 "$OUT/$name.http")" >&2; exit 1; }
}

# Milliseconds from a wrk latency (850.00us, 4.70ms, 1.02s).
to_ms() {
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /m$/) n *= 60000; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'
}

# One wrk run against a port; prints "req/s p50_ms p99_ms".
load() {
  local name=$1 port=$2 file=$3
  taskset -c "$LOAD_CPU" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$OUT/$name.lua" \
    "http://127.0.0.1:$port" >"$file"
  if grep -q 'Non-2xx' "$file"; then echo "non-2xx answers in $file" >&2; grep 'Non-2xx' "$file" >&2; fi
  local rps p50 p99
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$file")
  rps=${rps:-0}
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$file")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$file")")
  echo "$rps $p50 $p99"
}

median() { tr ' ' '\n' | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# The run-by-run quotients of two lists of numbers ("a1 a2 …" / "b1 b2 …"): ratios are taken
# within a run, then their median, so that a slow minute of the machine counts once.
quotients() { awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, " "); split(b, y, " "); for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), (y[i] + 0 == 0 ? "nan" : sprintf("%.4f", x[i] / y[i])); print "" }'; }

declare -A SIZE FRPS FP50 FP99 RPS P50 P99 FLOOR_PORTS FR FA FB SR SA SB SHARE P50X P99X
# Every request's answer captured and its floor started first, so that each run loads every
# request, floor then server, back to back: a ratio (to the floor, or a call's p50 to the GET's)
# compares loads seconds apart, not minutes, on a machine whose speed drifts.
for name in "${NAMES[@]}"; do
  write_lua "$name"
  capture "$name"
  SIZE[$name]=$(python3 -c 'import sys; print(len(open(sys.argv[1], "rb").read().split(b"\r\n\r\n", 1)[1]))' "$OUT/$name.http")
  port=$(free_port)
  FLOOR_PORTS[$name]=$port
  taskset -c "$SERVER_CPU" "$FLOOR_BIN" "127.0.0.1:$port" "$OUT/$name.http" >/dev/null &
  pids+=("$!")
  wait_port "$port"
done
for run in $(seq 1 "$RUNS"); do
  for name in "${NAMES[@]}"; do
    read -r r a b < <(load "$name" "${FLOOR_PORTS[$name]}" "$OUT/$name.floor.$run.txt")
    FR[$name]+=" $r" FA[$name]+=" $a" FB[$name]+=" $b"
    if [[ -n ${PERF:-} && $run == 1 ]]; then
      perf record -e cpu-clock -F 999 -g -p "$SERVER_PID" -o "$OUT/perf-$name.data" -- sleep 5 \
        >/dev/null 2>&1 &
      perf_pid=$!
    fi
    read -r r a b < <(load "$name" "$PORT" "$OUT/$name.server.$run.txt")
    SR[$name]+=" $r" SA[$name]+=" $a" SB[$name]+=" $b"
    [[ -n ${PERF:-} && $run == 1 ]] && wait "$perf_pid"
  done
done
for name in "${NAMES[@]}"; do
  FRPS[$name]=$(echo ${FR[$name]} | median) FP50[$name]=$(echo ${FA[$name]} | median)
  FP99[$name]=$(echo ${FB[$name]} | median)
  RPS[$name]=$(echo ${SR[$name]} | median) P50[$name]=$(echo ${SA[$name]} | median)
  P99[$name]=$(echo ${SB[$name]} | median)
  SHARE[$name]=$(quotients "${SR[$name]}" "${FR[$name]}" | median)
  P50X[$name]=$(quotients "${SA[$name]}" "${SA[rest]}" | median)
  P99X[$name]=$(quotients "${SB[$name]}" "${FB[$name]}" | median)
done
HWM=$(awk '/^VmHWM:/ { printf "%.1f MiB", $2 / 1024 }' "/proc/$SERVER_PID/status")
LOG_LINES=$(wc -l <"$OUT/server.log")

echo
echo "Server pinned to core $SERVER_CPU, wrk on core $LOAD_CPU, $CONNECTIONS connections," \
  "median of $RUNS runs of $DURATION; $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo
echo "| request | answer size | floor req/s | req/s | p50 | p99 | floor p99 | share of its floor |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for name in "${NAMES[@]}"; do
  awk -v l="${LABEL[$name]}" -v s="${SIZE[$name]}" -v fr="${FRPS[$name]}" -v r="${RPS[$name]}" \
    -v a="${P50[$name]}" -v b="${P99[$name]}" -v fb="${FP99[$name]}" -v share="${SHARE[$name]}" \
    'BEGIN { printf "| `%s` | %d B | %d | %d | %.2f ms | %.2f ms | %.2f ms | %.3f |\n", l, s, fr, r, a, b, fb, share }'
done
echo
echo "Each column is a median over the runs; the share is the median of each run's req/s over its"
echo "floor's (and the ratios below medians of each run's), not a quotient of the medians."
for name in call2025 call2026; do
  awk -v l="${LABEL[$name]}" -v a="${P50X[$name]}" -v b="${P99X[$name]}" \
    'BEGIN { printf "%s: p50 = %.2f x the REST p50; p99 = %.2f x its floor'"'"'s p99\n", l, a, b }'
done
for name in "${NAMES[@]}"; do
  echo "$name, run by run: share $(quotients "${SR[$name]}" "${FR[$name]}"); p50 x REST $(quotients "${SA[$name]}" "${SA[rest]}")"
done
echo "server peak RSS (VmHWM): $HWM; JSON log lines written: $LOG_LINES"
echo "captures, wrk output and logs: $OUT"
