#!/usr/bin/env bash
# Instructions per request under callgrind: a repeatable figure (it counts instructions, not
# seconds, so a busy machine does not move it) to profile and compare changes of the request
# path between load runs (bench/load.sh). Starts `serve --demo` as shipped (JSON logs) under
# valgrind, warms it up, then loads each kind for SECONDS_EACH seconds and prints the
# instructions per request answered and the top functions by inclusive cost.
#
# Environment: BIN (target/profiling/kobana-dunning if built, else target/dist/…),
# SECONDS_EACH (10), OUT (a temporary directory), TOP (25 functions), DEMANGLE (yes; no keeps
# symbol names as the linker sees them, for bench/hot-functions.sh), CACHE_SIM=1 to also count
# cache misses per request (callgrind's simulator: 32 KiB 8-way L1 caches, a 1 MiB 16-way last
# level; it models neither the TLB nor a second level, so it shows misses, not their cost).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/wrk-scripts.sh
command -v valgrind >/dev/null || { echo "valgrind is missing" >&2; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing" >&2; exit 1; }
BIN=${BIN:-$( [[ -x target/profiling/kobana-dunning ]] && echo target/profiling/kobana-dunning || echo target/dist/kobana-dunning )}
SECONDS_EACH=${SECONDS_EACH:-10}
TOP=${TOP:-25}
DEMANGLE=${DEMANGLE:-yes}
cache_sim=()
[[ -n ${CACHE_SIM:-} ]] && cache_sim=(--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=1048576,16,64)
OUT=${OUT:-$(mktemp -d /tmp/kd-instr.XXXXXX)}
mkdir -p "$OUT"
port=$(free_port)

valgrind --tool=callgrind "${cache_sim[@]}" --compress-strings=no --demangle="$DEMANGLE" --callgrind-out-file="$OUT/cg.out" "$BIN" serve --demo --no-engine \
  --database "sqlite://$OUT/db.sqlite" --bind "127.0.0.1:$port" --log-format json \
  --rate-limit 1000000000 --rate-limit-burst 1000000 >"$OUT/server.out" 2>"$OUT/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait 2>/dev/null || true' EXIT
base="http://127.0.0.1:$port"
# Under valgrind the start takes seconds.
demo_ready "$OUT/server.out" "$base" 600 0.2
token=$DEMO_TOKEN charge=$DEMO_CHARGE

write_wrk_scripts "$OUT" "$token" "$charge"

# Loads a kind for a number of seconds on 4 connections; prints the requests answered.
send() {
  local script=$1 seconds=$2
  wrk -t1 -c4 -d"${seconds}s" -s "$OUT/$script.lua" "$base" >"$OUT/$script.wrk" || true
  awk '/requests in/ { print $1 }' "$OUT/$script.wrk"
}

for kind in rest call call2026; do
  send "$kind" 3 >/dev/null
  callgrind_control -z "$pid" >/dev/null
  done_requests=$(send "$kind" "$SECONDS_EACH")
  callgrind_control -d "$kind" "$pid" >/dev/null
  file=$(ls -t "$OUT"/cg.out.* | head -1)
  total=$(callgrind_annotate "$file" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
  echo "== $kind: $done_requests requests, $((total / done_requests)) instructions per request ($file)"
  if [[ -n ${CACHE_SIM:-} ]]; then
    # Events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
    callgrind_annotate "$file" 2>/dev/null | awk -v n="$done_requests" '/PROGRAM TOTALS/ {
      split("Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw", name, " "); k = 0; line = "   misses per request:"
      for (i = 1; i <= NF; i++) if ($i ~ /^[0-9,]+$/) { v = $i; gsub(",", "", v); if (++k >= 4) line = line sprintf(" %s %.0f", name[k], v / n) }
      print line }'
  fi
  callgrind_annotate --inclusive=yes --show=Ir "$file" 2>/dev/null | grep -E '^ *[0-9,]+ \(' | sed -n "20,$((20 + TOP))p" | cut -c1-160
done
