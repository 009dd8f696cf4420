#!/usr/bin/env bash
# What a hostile or merely large input costs the server (docs/SECURITY.md, docs/PERFORMANCE.md):
#   1. the time to answer a 2 MiB body of 205,000 distinct keys (refused by its shape), beside
#      the time to answer a small valid create, median of 5 each;
#   2. keyed charge creates a second (a fresh Idempotency-Key each) for a debtor with no charges
#      and for one with FILL charges (100,000 by default), in alternating rounds: their ratio
#      says whether a write's cost grows with its debtor's history.
# The server (dist profile, SQLite, engine off) is pinned to core 0, curl and wrk to core 1.
#
# Environment: NO_BUILD (use SERVER_BIN as it is), SERVER_BIN (target/dist/kobana-dunning),
# FILL (100000), DURATION (10s), ROUNDS (2), CONNECTIONS (8), OUT (a new temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/wrk-scripts.sh

SERVER_CPU=0
LOAD_CPU=1
FILL=${FILL:-100000}
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-2}
CONNECTIONS=${CONNECTIONS:-8}
PORT=$(free_port)
OUT=${OUT:-$(mktemp -d /tmp/kd-hardening.XXXXXX)}
mkdir -p "$OUT"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

if [[ -z ${NO_BUILD:-} ]]; then
  cargo build --profile dist --bin kobana-dunning
fi
SERVER_BIN=${SERVER_BIN:-target/dist/kobana-dunning}

rm -f "$OUT"/db.sqlite*
taskset -c "$SERVER_CPU" "$SERVER_BIN" --database "sqlite://$OUT/db.sqlite" serve --demo --no-engine \
  --bind "127.0.0.1:$PORT" --log-format json --rate-limit 1000000000 --rate-limit-burst 1000000 \
  >"$OUT/server.out" 2>"$OUT/server.log" &
SERVER_PID=$!
trap 'kill $SERVER_PID 2>/dev/null || true; wait 2>/dev/null || true' EXIT
BASE="http://127.0.0.1:$PORT"
demo_ready "$OUT/server.out" "$BASE" || { cat "$OUT/server.log" >&2; exit 1; }
AUTH="Authorization: Bearer $DEMO_TOKEN"

# post PATH BODY_FILE: prints "<status> <seconds>".
post() {
  taskset -c "$LOAD_CPU" curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H "$AUTH" \
    -H 'content-type: application/json' --data-binary "@$2" "$BASE$1"
}
median_ms() { sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] * 1000 }'; }

# 1. The many-keys body, beside a small valid create.
python3 -c 'import json; print(json.dumps({format(i, "x"): 1 for i in range(205000)}, separators=(",", ":")))' \
  >"$OUT/keys.json"
many=$(for _ in 1 2 3 4 5; do post /v1/debtors "$OUT/keys.json"; done)
# cpf N: a valid CPF made from N (its check digits computed).
cpf() {
  python3 -c 'import sys
d = [int(c) for c in f"{int(sys.argv[1]) % 10**9:09d}"]
for n in (10, 11):
    r = sum(x * w for x, w in zip(d, range(n, 1, -1))) * 10 % 11
    d.append(r % 10)
print("".join(map(str, d)))' "$1"
}
small=$(for i in 1 2 3 4 5; do
  printf '{"name":"Pequena %s","document":"%s"}' "$i" "$(cpf $((123456000 + i)))" >"$OUT/small.json"
  post /v1/debtors "$OUT/small.json"
done)
echo "205,000 keys ($(wc -c <"$OUT/keys.json") bytes): statuses $(echo "$many" | cut -d' ' -f1 | sort -u | tr '\n' ' ')" \
  "median $(echo "$many" | cut -d' ' -f2 | median_ms) ms"
echo "a small create: median $(echo "$small" | cut -d' ' -f2 | median_ms) ms"

# 2. Keyed creates for a debtor with no charges and for one with FILL.
debtor() {
  taskset -c "$LOAD_CPU" curl -sf -H "$AUTH" -H 'content-type: application/json' \
    -d "{\"name\":\"$1\",\"document\":\"$2\"}" "$BASE/v1/debtors" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])'
}
FRESH=$(debtor "Devedora Nova" "$(cpf 987654001)")
LARGE=$(debtor "Devedora Grande" "$(cpf 987654002)")
creates_script() {
  cat <<LUA
local body = '{"debtor_id":"$1","amount":10.0,"due_date":"2027-03-15"}'
local n = 0
local run = tostring(os.time()) .. "-" .. tostring(math.random(1, 1000000000))
-- wrk.format takes the headers given instead of wrk.headers: all of them, each time.
request = function()
  n = n + 1
  local headers = {
    ["Authorization"] = "Bearer $DEMO_TOKEN",
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = run .. "-" .. n,
  }
  return wrk.format("POST", "/v1/charges", headers, body)
end
LUA
}
creates_script "$FRESH" >"$OUT/fresh.lua"
creates_script "$LARGE" >"$OUT/large.lua"
charges_of() {
  curl -sf -H "$AUTH" "$BASE/v1/charges?debtor_id=$1&per_page=1" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["total"])'
}
while (($(charges_of "$LARGE") < FILL)); do
  taskset -c "$LOAD_CPU" wrk -t1 -c32 -d20s -s "$OUT/large.lua" "$BASE" >/dev/null
done
echo "the large debtor has $(charges_of "$LARGE") charges"

rate() {
  taskset -c "$LOAD_CPU" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$OUT/$1.lua" "$BASE" |
    awk '/Requests\/sec/ { print $2 }'
}
for round in $(seq 1 "$ROUNDS"); do
  fresh=$(rate fresh)
  large=$(rate large)
  echo "round $round: keyed creates/s, few charges $fresh, $(charges_of "$LARGE") charges $large," \
    "ratio $(python3 -c "print(f'{$large / $fresh:.3f}')")"
done
