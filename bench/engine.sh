#!/usr/bin/env bash
# One daily pass of the régua's engine on a large organization: builds release, adds CHARGES
# (1,000,000) generated charges to the demo organization of a fresh SQLite database (due dates
# spread over a year either side of today, the demo's default policy), then RUNS times, each on a
# fresh copy of that database: one `engine run-once` at noon in São Paulo of the next business day
# (what it did, and its time under /usr/bin/time), then `engine run-once` again at the same
# instant, which finds nothing due. Prints the median and range of each.
#
# A benchmark, not a test: kept out of .ci/run. SQLite only (PostgreSQL copies need a template
# database: see docs/PERFORMANCE.md). Needs python3 and /usr/bin/time. Run it with nothing else
# busy. Environment: CHARGES, RUNS (3), OUT (a temporary directory), AT (the pass's instant, RFC
# 3339), NO_BUILD=1 (use target/release).
set -euo pipefail
cd "$(dirname "$0")/.."

CHARGES=${CHARGES:-1000000}
RUNS=${RUNS:-3}
OUT=${OUT:-$(mktemp -d /tmp/kd-engine.XXXXXX)}
mkdir -p "$OUT"
BIN=target/release/kobana-dunning
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is missing (Debian: apt-get install -y time)" >&2; exit 1; }
[[ -n ${NO_BUILD:-} ]] || cargo build --release --bin kobana-dunning

# Noon in São Paulo (15:00 UTC) of the next weekday.
AT=${AT:-$(python3 -c 'import datetime as d
t = d.date.today() + d.timedelta(days=1)
while t.weekday() >= 5: t += d.timedelta(days=1)
print(f"{t}T15:00:00Z")')}

"$BIN" --database "sqlite://$OUT/base.db" demo generate --charges "$CHARGES" | tail -1

pass() { # database, label: runs one pass, prints its seconds
  /usr/bin/time -f '%e %M' -o "$OUT/$2.time" "$BIN" --database "sqlite://$1" engine run-once --at "$AT" >"$OUT/$2.out"
  cut -d' ' -f1 "$OUT/$2.time"
}
firsts=(); seconds=()
for i in $(seq "$RUNS"); do
  rm -f "$OUT/run.db"*
  cp "$OUT/base.db" "$OUT/run.db"
  firsts+=("$(pass "$OUT/run.db" "first-$i")")
  seconds+=("$(pass "$OUT/run.db" "again-$i")")
done
echo "pass at $AT on $CHARGES generated charges (and the demo's own), SQLite:"
sed 's/^/  /' "$OUT/first-1.out"
summary() { python3 -c 'import statistics, sys; v = sorted(float(x) for x in sys.argv[2:])
print(f"{sys.argv[1]}: median {statistics.median(v):.2f} s, range {v[0]:.2f}–{v[-1]:.2f} s over {len(v)} runs")' "$@"; }
summary "a daily pass" "${firsts[@]}"
summary "a pass with nothing due" "${seconds[@]}"
echo "peak RSS of the daily pass: $(( $(cut -d' ' -f2 "$OUT/first-1.time") / 1024 )) MiB"
