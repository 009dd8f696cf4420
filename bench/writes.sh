#!/usr/bin/env bash
# Writes against the disk's durable-commit floor (docs/PERFORMANCE.md, "Writes").
#
# For each database (SQLite, and PostgreSQL on a durable cluster of its own: fsync and
# synchronous_commit on) and each connection count, first the floor: benches/commit_floor.rs
# committing one small row per transaction with the server's own settings, on the same disk,
# pinned to the server's core; then the server (dist, `serve --demo --no-engine`, pinned to
# SERVER_CPU) under wrk from LOAD_CPU, each request with a fresh Idempotency-Key:
#   create  POST /v1/charges for a debtor with few charges (a new debtor each load)
#   update  PATCH /v1/charges/{id} (a new description), round robin over POOL charges
#   pause   POST /v1/charges/{id}/pause, then /resume on the next turn of the same charge
#   settle  POST /v1/charges/{id}/settle, a partial payment of 0.01
# Each line: requests/s, p50, p99, the server's CPU and the bytes it wrote to disk per request
# (/proc/<pid>/stat and /proc/<pid>/io; on PostgreSQL the cluster's processes' too), the floor's
# commits/s and the ratio of the two. Answers other than 2xx are counted and printed.
#
# A benchmark, not a test. Needs wrk, taskset, curl, python3, two cores and nothing else busy.
#
# Environment: DATABASES ("sqlite postgres"), CONNECTIONS ("1 8 32"), OPS ("create update pause
# settle"), DURATION (6, seconds), POOL (256), SERVER_CPU (0), LOAD_CPU (1), OUT (a new temporary
# folder), NO_BUILD=1 to use SERVER_BIN and FLOOR_BIN (target/dist) as they are, PG_BIN
# (the newest /usr/lib/postgresql/*/bin), PG_SETTINGS (extra `-c name=value` for the cluster),
# PERF=1 to record a profile of the server during each load (perf, cpu-clock, DWARF call graphs:
# build with `--profile profiling`) into $OUT/perf-<database>-<conns>-<op>.data.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/wrk-scripts.sh

DATABASES=${DATABASES:-sqlite postgres}
CONNECTIONS=${CONNECTIONS:-1 8 32}
OPS=${OPS:-create update pause settle}
DURATION=${DURATION:-6}
POOL=${POOL:-256}
SERVER_CPU=${SERVER_CPU:-0}
LOAD_CPU=${LOAD_CPU:-1}
OUT=${OUT:-$(mktemp -d /tmp/kd-writes.XXXXXX)}
mkdir -p "$OUT"
for tool in wrk taskset curl python3; do
  command -v "$tool" >/dev/null || { echo "$tool is missing" >&2; exit 1; }
done

if [[ -z ${NO_BUILD:-} ]]; then
  cargo build --profile dist --bin kobana-dunning --example commit_floor
fi
SERVER_BIN=${SERVER_BIN:-target/dist/kobana-dunning}
FLOOR_BIN=${FLOOR_BIN:-target/dist/examples/commit_floor}

pids=()
cluster=""
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ -n $cluster ]]; then as_pg "$PG_BIN/pg_ctl" -D "$cluster/data" -m fast stop >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
as_pg() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# A PostgreSQL cluster of this run's own, durable as shipped (fsync, synchronous_commit on).
start_postgres() {
  PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
  [[ -x $PG_BIN/initdb ]] || { echo "no PostgreSQL (apt-get install -y postgresql)" >&2; exit 1; }
  cluster="$OUT/pg"
  rm -rf "$cluster" && mkdir -p "$cluster"
  if [[ $(id -u) -eq 0 ]]; then chown postgres: "$cluster"; fi
  PG_PORT=$(free_port)
  as_pg "$PG_BIN/initdb" -D "$cluster/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$cluster/initdb.log"
  # shellcheck disable=SC2086 # PG_SETTINGS is a list of -c options
  as_pg "$PG_BIN/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $cluster -c max_connections=200 ${PG_SETTINGS:-}" \
    start >/dev/null
}

# The CPU ticks (utime + stime) of the processes given.
ticks() { for p in "$@"; do awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || true; done | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
# The bytes the processes given wrote to disk.
written() {
  # A process gone meanwhile (a PostgreSQL backend) counts nothing.
  for p in "$@"; do awk '/^write_bytes/ { print $2 }' "/proc/$p/io" 2>/dev/null || true; done | awk '{ s += $1 } END { printf "%.0f\n", s }'
}
# The processes whose disk writes count: the server's, and on PostgreSQL the cluster's.
writers() {
  echo "$SERVER_PID"
  if [[ $db == postgres ]]; then cluster_pids; fi
}
# The cluster's postmaster and its children.
cluster_pids() {
  local master
  master=$(head -n 1 "$cluster/data/postmaster.pid")
  echo "$master" $(pgrep -P "$master" | tr '\n' ' ')
}

api() { # METHOD PATH [BODY]: the answer's data.id
  taskset -c "$LOAD_CPU" curl -sf -X "$1" -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \
    ${3:+-d "$3"} "$BASE$2" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])'
}
cpf() {
  python3 -c 'import sys
d = [int(c) for c in f"{int(sys.argv[1]) % 10**9:09d}"]
for n in (10, 11):
    r = sum(x * w for x, w in zip(d, range(n, 1, -1))) * 10 % 11
    d.append(r % 10)
print("".join(map(str, d)))' "$1"
}
# A debtor of its own (a CPF from the clock: each call runs in a subshell of its own).
new_debtor() {
  local n=$(($(date +%s%N) / 1000 % 900000000))
  api POST /v1/debtors "{\"name\":\"Devedora Carga $n\",\"document\":\"$(cpf "$n")\"}"
}

# The wrk script of an operation: ids are the pool's charges, taken round robin.
script() {
  local op=$1 debtor=$2
  cat <<LUA
local ids = { $(sed 's/.*/"&",/' "$OUT/pool.txt" | tr -d '\n') }
local paused = {}
local n = 0
local run = tostring(os.time()) .. "-" .. tostring(math.random(1, 1000000000))
request = function()
  n = n + 1
  local headers = {
    ["Authorization"] = "Bearer $TOKEN",
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = "$op-" .. run .. "-" .. n,
  }
  local id = ids[(n % #ids) + 1]
LUA
  case $op in
    create) echo "  return wrk.format(\"POST\", \"/v1/charges\", headers, '{\"debtor_id\":\"$debtor\",\"amount\":10.0,\"due_date\":\"2027-03-15\"}')" ;;
    update) echo "  return wrk.format(\"PATCH\", \"/v1/charges/\" .. id, headers, '{\"description\":\"v' .. n .. '\"}')" ;;
    pause)
      cat <<'LUA'
  local verb = paused[id] and "resume" or "pause"
  paused[id] = not paused[id]
  return wrk.format("POST", "/v1/charges/" .. id .. "/" .. verb, headers, "{}")
LUA
      ;;
    settle) echo "  return wrk.format(\"POST\", \"/v1/charges/\" .. id .. \"/settle\", headers, '{\"paid_amount\":0.01}')" ;;
  esac
  echo "end"
}

# floor CONNECTIONS: "<commits/s> <bytes a commit>" of the database's durable-commit floor.
floor() {
  local url
  if [[ $db == sqlite ]]; then url="sqlite://$OUT/floor.db"; else url="postgres://postgres@127.0.0.1:$PG_PORT/postgres"; fi
  local before after line
  # shellcheck disable=SC2046 # a list of process ids
  before=$([[ $db == postgres ]] && written $(cluster_pids) || echo 0)
  line=$(taskset -c "$SERVER_CPU" "$FLOOR_BIN" "$url" "$1" "$DURATION")
  # shellcheck disable=SC2046
  after=$([[ $db == postgres ]] && written $(cluster_pids) || echo 0)
  echo "$line" | awk -v pg=$((after - before)) '{ printf "%.0f %.0f\n", $6, ($8 + pg) / $2 }'
}

printf '%-8s %5s %-7s %9s %9s %6s %8s %8s %9s %9s %8s %7s\n' \
  database conns op "req/s" "floor/s" ratio "p50 ms" "p99 ms" "CPU ms/r" "KB/req" "floor KB" non2xx
for db in $DATABASES; do
  if [[ $db == sqlite ]]; then
    rm -f "$OUT"/db.sqlite*
    URL="sqlite://$OUT/db.sqlite"
  else
    start_postgres
    URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
  fi
  PORT=$(free_port)
  taskset -c "$SERVER_CPU" "$SERVER_BIN" --database "$URL" serve --demo --no-engine \
    --bind "127.0.0.1:$PORT" --log-format json --rate-limit 1000000000 --rate-limit-burst 1000000 \
    >"$OUT/server-$db.out" 2>"$OUT/server-$db.log" &
  SERVER_PID=$!
  pids+=("$SERVER_PID")
  BASE="http://127.0.0.1:$PORT"
  demo_ready "$OUT/server-$db.out" "$BASE" || { cat "$OUT/server-$db.log" >&2; exit 1; }
  TOKEN=$DEMO_TOKEN
  pool_debtor=$(new_debtor)
  : >"$OUT/pool.txt"
  for _ in $(seq 1 "$POOL"); do
    api POST /v1/charges "{\"debtor_id\":\"$pool_debtor\",\"amount\":1000000.0,\"due_date\":\"2027-03-15\"}" >>"$OUT/pool.txt"
  done
  for conns in $CONNECTIONS; do
    read -r floor_rate floor_bytes < <(floor "$conns")
    for op in $OPS; do
      script "$op" "$(new_debtor)" >"$OUT/$op.lua"
      # shellcheck disable=SC2046 # a list of process ids
      cpu0=$(ticks $(writers)) bytes0=$(written $(writers))
      if [[ -n ${PERF:-} ]]; then
        perf record -q -e cpu-clock -F 499 --call-graph dwarf,16384 -p "$SERVER_PID" \
          -o "$OUT/perf-$db-$conns-$op.data" -- sleep "$((DURATION - 1))" 2>/dev/null &
        perf_pid=$!
      fi
      taskset -c "$LOAD_CPU" wrk -t1 -c"$conns" -d"${DURATION}s" --latency -s "$OUT/$op.lua" "$BASE" \
        >"$OUT/wrk-$db-$conns-$op.txt"
      if [[ -n ${PERF:-} ]]; then wait "$perf_pid" || true; fi
      # shellcheck disable=SC2046
      cpu1=$(ticks $(writers)) bytes1=$(written $(writers))
      python3 - "$OUT/wrk-$db-$conns-$op.txt" "$db" "$conns" "$op" "$floor_rate" "$floor_bytes" \
        "$((cpu1 - cpu0))" "$((bytes1 - bytes0))" "$(getconf CLK_TCK)" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
db, conns, op, floor_rate, floor_bytes, ticks, written, hz = sys.argv[2:]
def ms(label):
    m = re.search(r"^\s*%s\s+([\d.]+)(us|ms|s)\b" % label, text, re.M)
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
done = int(re.search(r"(\d+) requests in", text).group(1))
rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print("%-8s %5s %-7s %9.0f %9.0f %6.3f %8.2f %8.2f %9.3f %9.1f %8.1f %7s" % (
    db, conns, op, rate, float(floor_rate), rate / float(floor_rate), ms("50%"), ms("99%"),
    int(ticks) * 1000 / int(hz) / max(done, 1), int(written) / 1024 / max(done, 1),
    float(floor_bytes) / 1024, bad.group(1) if bad else 0))
PY
    done
  done
  kill "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  if [[ $db == postgres ]]; then
    as_pg "$PG_BIN/pg_ctl" -D "$cluster/data" -m fast stop >/dev/null
    cluster=""
  fi
done
