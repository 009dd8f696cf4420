#!/usr/bin/env bash
# GET /v1/portfolio at scale: the demo organization filled with CHARGES (1,000,000) generated
# charges beside OTHERS organizations of OTHER_CHARGES charges each (copies of the demo's, so
# every count and index holds more than one organization), on SQLite and, with PG (a
# PostgreSQL URL of a database to create others in), on PostgreSQL. For each database: ROUNDS
# times, N portfolio reads on one connection, then N of GET /v1/me (the floor: a request that
# reads only the token), p50 and p95 of each and the ratio of the p95s; then CREATES
# `POST /v1/charges` and the server's bytes written a create (/proc/<pid>/io write_bytes).
#
# A benchmark, not a test: kept out of .ci/run. Needs python3, curl, sqlite3 (psql with PG).
# Environment: BIN (target/dist/kobana-dunning), OUT (kept between runs: a database is
# generated once), CHARGES, OTHERS (3), OTHER_CHARGES (100,000), N (200), ROUNDS (3), CREATES
# (1,000), PREPARE_ONLY=1 (generate, do not measure), NO_SQLITE=1 (PostgreSQL only), SERVER_CPU (0), LOAD_CPU (1).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-target/dist/kobana-dunning}
OUT=${OUT:-/tmp/kd-portfolio}
CHARGES=${CHARGES:-1000000}
OTHERS=${OTHERS:-3}
OTHER_CHARGES=${OTHER_CHARGES:-100000}
N=${N:-200}
ROUNDS=${ROUNDS:-3}
CREATES=${CREATES:-1000}
SERVER_CPU=${SERVER_CPU:-0}
LOAD_CPU=${LOAD_CPU:-1}
mkdir -p "$OUT"

# Runs SQL on a database: sqlite:// through sqlite3, postgres:// through psql.
sql() {
  case $1 in
    sqlite://*) sqlite3 "${1#sqlite://}" "$2" ;;
    *) psql -qAt -v ON_ERROR_STOP=1 "$1" -c "$2" ;;
  esac
}

# The demo organization of CHARGES charges and the others, once per database.
prepare() {
  local url=$1 made org cols copy
  if [[ -s $OUT/$2.org ]]; then return; fi
  made=$("$BIN" --database "$url" demo generate --charges "$CHARGES" | tail -1)
  echo "$made"
  org=$(grep -o 'org_[0-9a-f]*' <<<"$made" | head -1)
  cols=$(sql "$url" "SELECT name FROM pragma_table_info('charges')" 2>/dev/null ||
    sql "$url" "SELECT column_name FROM information_schema.columns WHERE table_name = 'charges' ORDER BY ordinal_position")
  for i in $(seq "$OTHERS"); do
    local other
    other=$("$BIN" --database "$url" orgs create --name "Outra $i" | tail -1)
    copy=$(tr '\n' ' ' <<<"$cols" | python3 -c "
import sys
cols = sys.stdin.read().split()
take = {'id': \"'o$i' || id\", 'organization_id': \"'$other'\"}
print('INSERT INTO charges (' + ', '.join(cols) + ') SELECT ' + ', '.join(take.get(c, c) for c in cols)
      + \" FROM charges WHERE organization_id = '$org' ORDER BY id LIMIT $OTHER_CHARGES\")")
    sql "$url" "$copy"
  done
  sql "$url" "ANALYZE" >/dev/null
  echo "$org" >"$OUT/$2.org"
}

# p50/p95 of N GETs of a path, on one connection: "p50 p95" in ms.
timed() {
  taskset -c "$LOAD_CPU" python3 - "$1" "$2" "$3" "$N" <<'PY'
import http.client, sys, time
port, token, path, n = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
c = http.client.HTTPConnection("127.0.0.1", port)
h = {"Authorization": "Bearer " + token}
times = []
for _ in range(n):
    t = time.perf_counter()
    c.request("GET", path, headers=h)
    r = c.getresponse()
    body = r.read()
    times.append((time.perf_counter() - t) * 1000)
    if r.status != 200:
        sys.exit(f"{path}: {r.status} {body[:300]}")
times.sort()
p = lambda q: times[min(n - 1, int(round(q * n)) - 1)]
print(f"{p(0.5):.2f} {p(0.95):.2f}")
PY
}

measure() {
  local url=$1 name=$2 org token port
  org=$(cat "$OUT/$name.org")
  token=$("$BIN" --database "$url" tokens create --org "$org" --scopes "dunning.read dunning.write" | tail -1)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  taskset -c "$SERVER_CPU" "$BIN" --database "$url" serve --bind "127.0.0.1:$port" --no-engine \
    --rate-limit 1000000 --rate-limit-burst 1000000 >"$OUT/$name-serve.log" 2>&1 &
  server=$!
  # The binary itself in the background: killed on any exit, a failed step's too.
  trap 'kill $server 2>/dev/null || true' EXIT
  for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  timed "$port" "$token" /v1/portfolio >/dev/null # warm
  curl -sf "http://127.0.0.1:$port/v1/portfolio" -H "Authorization: Bearer $token" >"$OUT/$name-portfolio.json"
  for r in $(seq "$ROUNDS"); do
    read -r pp50 pp95 < <(timed "$port" "$token" /v1/portfolio)
    read -r fp50 fp95 < <(timed "$port" "$token" /v1/me)
    echo "$name round $r: portfolio p50 $pp50 ms p95 $pp95 ms; floor (/v1/me) p50 $fp50 ms p95 $fp95 ms;" \
      "p95 ratio $(python3 -c "print(f'{$pp95 / $fp95:.1f}')")"
  done
  # Bytes written a create: the server's write_bytes over CREATES creates (debtors made first).
  python3 - "$port" "$token" "$server" "$CREATES" "$name" <<'PY'
import http.client, json, sys, datetime
port, token, pid, n, name = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
c = http.client.HTTPConnection("127.0.0.1", port)
h = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
def post(path, body):
    c.request("POST", path, body=json.dumps(body), headers=h)
    r = c.getresponse(); data = r.read()
    if r.status != 201: sys.exit(f"{path}: {r.status} {data[:300]}")
    return json.loads(data)["data"]
c.request("GET", "/v1/debtors?status=active&per_page=20", headers=h)
debtors = [d["id"] for d in json.loads(c.getresponse().read())["data"]]
def written():
    for line in open(f"/proc/{pid}/io"):
        if line.startswith("write_bytes:"): return int(line.split()[1])
day = datetime.date.today()
before = written()
for i in range(n):
    due = (day + datetime.timedelta(days=i % 90 - 45)).isoformat()
    post("/v1/charges", {"debtor_id": debtors[i % len(debtors)], "amount": 100 + i % 997, "due_date": due})
after = written()
print(f"{name}: {n} creates, {(after - before) / n / 1024:.1f} KiB written a create")
PY
  kill "$server"
  wait "$server" 2>/dev/null || true
}

[[ -n ${NO_SQLITE:-} ]] || prepare "sqlite://$OUT/kd.db" sqlite
if [[ -n ${PG:-} ]]; then
  pg_db="${PG%/*}/kdportfolio"
  if [[ ! -s $OUT/postgres.org ]]; then
    sql "$PG" "DROP DATABASE IF EXISTS kdportfolio"
    sql "$PG" "CREATE DATABASE kdportfolio"
  fi
  prepare "$pg_db" postgres
fi
[[ -z ${PREPARE_ONLY:-} ]] || exit 0
[[ -n ${NO_SQLITE:-} ]] || measure "sqlite://$OUT/kd.db" sqlite
[[ -z ${PG:-} ]] || measure "$pg_db" postgres
