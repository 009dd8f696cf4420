#!/usr/bin/env bash
# One daily pass of the régua's engine on a large organization: builds the dist profile, adds CHARGES
# (1,000,000) generated charges to the demo organization of a fresh database (due dates spread
# over a year either side of today, the demo's default policy, debtors reachable on every
# channel), then RUNS times, each on a fresh copy of that database: one `engine run-once` at noon
# in São Paulo of the next business day (what it did, and its time under /usr/bin/time), then
# `engine run-once` again at the same instant, which finds nothing due. Prints the median and
# range of each.
#
# SQLite always. PostgreSQL too when PG is set to a URL of a server's maintenance database
# (postgres://user@host:port/postgres): the organization is generated once into kd_engine_base
# and each run gets a copy (CREATE DATABASE … TEMPLATE); there, two engine processes also run
# the daily pass together on a copy, and their wall time is printed beside one process's.
#
# A benchmark, not a test: kept out of .ci/run. Needs python3, /usr/bin/time and, for
# PostgreSQL, psql. Run it with nothing else busy. Environment: CHARGES, RUNS (3), OUT (a
# temporary directory), AT (the pass's instant, RFC 3339), PG, NO_BUILD=1 (use target/dist).
set -euo pipefail
cd "$(dirname "$0")/.."

CHARGES=${CHARGES:-1000000}
RUNS=${RUNS:-3}
OUT=${OUT:-$(mktemp -d /tmp/kd-engine.XXXXXX)}
mkdir -p "$OUT"
BIN=target/dist/kobana-dunning
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is missing (Debian: apt-get install -y time)" >&2; exit 1; }
[[ -z ${PG:-} ]] || command -v psql >/dev/null || { echo "psql is missing (Debian: postgresql-client)" >&2; exit 1; }
[[ -n ${NO_BUILD:-} ]] || cargo build --profile dist --bin kobana-dunning

# Noon in São Paulo (15:00 UTC) of the next weekday.
AT=${AT:-$(python3 -c 'import datetime as d
t = d.date.today() + d.timedelta(days=1)
while t.weekday() >= 5: t += d.timedelta(days=1)
print(f"{t}T15:00:00Z")')}

pass() { # database URL, label: runs one pass, prints its seconds
  /usr/bin/time -f '%e %M' -o "$OUT/$2.time" "$BIN" --database "$1" engine run-once --at "$AT" >"$OUT/$2.out"
  cut -d' ' -f1 "$OUT/$2.time"
}
summary() { python3 -c 'import statistics, sys; v = sorted(float(x) for x in sys.argv[2:])
print(f"  {sys.argv[1]}: median {statistics.median(v):.2f} s, range {v[0]:.2f}–{v[-1]:.2f} s over {len(v)} runs")' "$@"; }
# Runs the passes on RUNS fresh copies: `fresh` makes one and prints its URL.
measure() { # label, fresh-copy function
  local firsts=() seconds=() url
  for i in $(seq "$RUNS"); do
    url=$($2)
    firsts+=("$(pass "$url" "$1-first-$i")")
    seconds+=("$(pass "$url" "$1-again-$i")")
  done
  echo "pass at $AT on $CHARGES generated charges (and the demo's own), $1:"
  sed 's/^/    /' "$OUT/$1-first-1.out"
  summary "a daily pass" "${firsts[@]}"
  summary "a pass with nothing due" "${seconds[@]}"
  echo "  peak RSS of the daily pass: $(( $(cut -d' ' -f2 "$OUT/$1-first-1.time") / 1024 )) MiB"
}

sqlite_copy() {
  rm -f "$OUT/run.db"*
  cp "$OUT/base.db" "$OUT/run.db"
  echo "sqlite://$OUT/run.db"
}
"$BIN" --database "sqlite://$OUT/base.db" demo generate --charges "$CHARGES" | tail -1
measure SQLite sqlite_copy

[[ -n ${PG:-} ]] || exit 0
db_url() { echo "${PG%/*}/$1"; }
pg_copy() {
  psql -q "$PG" -c 'DROP DATABASE IF EXISTS kd_engine_run' -c 'CREATE DATABASE kd_engine_run TEMPLATE kd_engine_base' >&2
  db_url kd_engine_run
}
psql -q "$PG" -c 'DROP DATABASE IF EXISTS kd_engine_base' -c 'CREATE DATABASE kd_engine_base'
"$BIN" --database "$(db_url kd_engine_base)" demo generate --charges "$CHARGES" | tail -1
measure PostgreSQL pg_copy

# Two engine processes on one copy: the wall time of the pair beside one process's.
pairs=()
for i in $(seq "$RUNS"); do
  url=$(pg_copy)
  start=$(date +%s.%N)
  "$BIN" --database "$url" engine run-once --at "$AT" >"$OUT/pair-a-$i.out" &
  "$BIN" --database "$url" engine run-once --at "$AT" >"$OUT/pair-b-$i.out"
  wait
  pairs+=("$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)")")
done
echo "two engine processes together, PostgreSQL (sent by each: $(grep -h '^sent' "$OUT"/pair-[ab]-1.out | cut -d' ' -f2 | paste -sd+)):"
summary "the pair's daily pass" "${pairs[@]}"
psql -q "$PG" -c 'DROP DATABASE IF EXISTS kd_engine_run'
