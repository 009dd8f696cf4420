#!/usr/bin/env bash
# CPU time per request of two builds, loaded at the same time: a comparison the machine's drift
# disturbs little (docs/PERFORMANCE.md, "How to measure"). Starts `serve --demo` of each build, both
# pinned to core 0 (JSON logs, as shipped), then ROUNDS times loads GET /v1/charges/{id}, then
# tools/call, on both builds at once with two wrk processes on core 1 (32 connections each), and
# reads each server's user and system time from /proc before and after. The two servers share the
# core and whatever the machine does to it, so the ratio of their CPU time per request holds still
# where runs taken in turn drifted by 10 % and more. They also share the core's caches and TLB,
# each evicting the other's code and data, as no single server is: the ratio compares builds, it is
# not either build's cost alone. Prints each load, then per request the median of B's CPU time
# over A's.
#
# Usage: bench/compare.sh BIN_A BIN_B. Environment: ROUNDS (6), DURATION (4s), A_ENV / B_ENV
# (VAR=value words put in the environment of one server, e.g. an allocator option), and LOADS:
# the pairs of requests loaded at once, A's:B's ("rest:rest call:call", each build with the same
# request; "rest:call" with the same binary twice gives a call's CPU over a GET's).
#
# The two slots are not alike: the same two builds gave B ÷ A 1.013 one way round and, swapped,
# 1.017 the other (docs/PERFORMANCE.md, "How to measure"). BOTH_ORDERS=1 runs the comparison
# again with the builds (and A_ENV/B_ENV, and each pair's requests) swapped and prints, per pair,
# the geometric mean of the first run's ratio and the inverse of the second's, which cancels it.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/wrk-scripts.sh
[[ $# == 2 ]] || { echo "usage: $0 BIN_A BIN_B" >&2; exit 1; }
ROUNDS=${ROUNDS:-6}
LOADS=${LOADS:-rest:rest call:call}
if [[ ${BOTH_ORDERS:-} == 1 ]]; then
  swapped=$(for pair in $LOADS; do printf '%s ' "${pair##*:}:${pair%%:*}"; done)
  first=$(BOTH_ORDERS= "$0" "$1" "$2" | tee /dev/stderr)
  second=$(BOTH_ORDERS= LOADS="$swapped" A_ENV=${B_ENV:-} B_ENV=${A_ENV:-} "$0" "$2" "$1" | tee /dev/stderr)
  python3 - "$first" "$second" <<'PY'
import math, re, sys
def medians(text):
    pattern = r"^(\S+): B's CPU a request over A's, median ([\d.]+)"
    return {m.group(1): float(m.group(2)) for m in re.finditer(pattern, text, re.M)}
first, second = medians(sys.argv[1]), medians(sys.argv[2])
for pair, ratio in first.items():
    a, b = pair.split(":")
    back = second[f"{b}:{a}"]
    print(f"{pair}: B's CPU a request over A's, both orders, {math.sqrt(ratio / back):.3f} "
          f"(this order {ratio:.3f}, swapped {1 / back:.3f})")
PY
  exit 0
fi
DURATION=${DURATION:-4s}
work=$(mktemp -d /tmp/kd-compare.XXXXXX)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT

# Starts a build and writes its wrk scripts; sets PORT_<side> and PID_<side>.
start() {
  local side=$1 bin=$2 env=$3 dir=$work/$1 port word
  local -a words
  read -ra words <<<"$env"
  for word in "${words[@]}"; do
    [[ $word == ?*=* ]] || { echo "${side}_ENV takes VAR=value words, not '$word'" >&2; exit 1; }
  done
  port=$(free_port)
  mkdir -p "$dir"
  env "${words[@]}" taskset -c 0 "$bin" serve --demo --database "sqlite://$dir/db.sqlite" --bind "127.0.0.1:$port" \
    --log-format json --rate-limit 1000000000 --rate-limit-burst 1000000 >"$dir/server.out" 2>"$dir/server.log" &
  pids+=("$!")
  printf -v "PID_$side" %s "$!"
  printf -v "PORT_$side" %s "$port"
  demo_ready "$dir/server.out" "http://127.0.0.1:$port"
  write_wrk_scripts "$dir" "$DEMO_TOKEN" "$DEMO_CHARGE"
}

# One load of both builds at once; prints per build "req/s user_us sys_us" (CPU microseconds per
# request).
load_both() {
  local -A kind=([A]=$1 [B]=$2)
  local side pid_var port_var
  declare -A before
  for side in A B; do
    pid_var=PID_$side
    before[$side]=$(awk '{ print $14, $15 }' "/proc/${!pid_var}/stat")
  done
  local -a loads=()
  for side in A B; do
    port_var=PORT_$side
    taskset -c 1 wrk -t1 -c32 -d"$DURATION" -s "$work/$side/${kind[$side]}.lua" "http://127.0.0.1:${!port_var}" \
      >"$work/$side/wrk.out" &
    loads+=("$!")
  done
  # Each load's own status: a failed wrk stops the comparison.
  wait "${loads[0]}"
  wait "${loads[1]}"
  for side in A B; do
    pid_var=PID_$side
    echo "$side $(awk '{ print $14, $15 }' "/proc/${!pid_var}/stat") ${before[$side]}" |
      cat - "$work/$side/wrk.out" | awk -v hz="$(getconf CLK_TCK)" '
        NR == 1 { side = $1; u = $2 - $4; s = $3 - $5 }
        /requests in/ { n = $1 } /^Requests\/sec/ { r = $2 }
        END { printf "%s %.0f %.1f %.1f\n", side, r, u / hz * 1e6 / n, s / hz * 1e6 / n }'
  done
}

start A "$1" "${A_ENV:-}"
start B "$2" "${B_ENV:-}"
for round in $(seq 1 "$ROUNDS"); do
  for pair in $LOADS; do
    [[ $pair =~ ^(rest|call|call2026):(rest|call|call2026)$ ]] ||
      { echo "LOADS takes A:B pairs of rest, call and call2026, not '$pair'" >&2; exit 1; }
    load_both "${pair%%:*}" "${pair##*:}" | while read -r side rest; do echo "$round $pair $side $rest"; done
  done
done | tee "$work/loads"
echo "(round, request, build, req/s, user µs, system µs a request; A = $1, B = $2)"
python3 - "$work/loads" <<'PY'
import statistics, sys
cpu = {}
for line in open(sys.argv[1]):
    rnd, kind, side, _, user, system = line.split()
    cpu[(rnd, kind, side)] = float(user) + float(system)
for pair in dict.fromkeys(k for (_, k, _) in cpu):
    ratios = sorted(cpu[(r, k, "B")] / cpu[(r, k, "A")] for (r, k, s) in cpu if k == pair and s == "A")
    print(f"{pair}: B's CPU a request over A's, median {statistics.median(ratios):.3f} (rounds: "
          + " ".join(f"{x:.2f}" for x in ratios) + ")")
PY
