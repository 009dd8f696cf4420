#!/usr/bin/env bash
# The CSV export of a large organization: builds the dist profile, adds CHARGES (1,000,000) generated
# charges to the demo organization of a fresh SQLite database (DATABASE to use another, such as
# postgres://…), queues an export of its charges through the API, builds it with `exports build`
# under /usr/bin/time (elapsed time and peak RSS), downloads it and counts its rows.
#
# A benchmark, not a test: kept out of .ci/run. Needs curl, python3 and /usr/bin/time.
# Environment: CHARGES, DATABASE, OUT (a temporary directory), NO_BUILD=1 (use target/dist).
set -euo pipefail
cd "$(dirname "$0")/.."

CHARGES=${CHARGES:-1000000}
OUT=${OUT:-$(mktemp -d /tmp/kd-export.XXXXXX)}
mkdir -p "$OUT"
DATABASE=${DATABASE:-sqlite://$OUT/export.db}
BIN=target/dist/kobana-dunning
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is missing (Debian: apt-get install -y time)" >&2; exit 1; }
[[ -n ${NO_BUILD:-} ]] || cargo build --profile dist --bin kobana-dunning

kd() { "$BIN" --database "$DATABASE" "$@"; }
made=$(kd demo generate --charges "$CHARGES" | tail -1)
echo "$made"
org=$(grep -o 'org_[0-9a-f]*' <<<"$made" | head -1)
token=$(kd tokens create --org "$org" --scopes "dunning.read dunning.exports" | tail -1)

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The binary itself in the background (not the function, whose subshell would outlive a kill).
"$BIN" --database "$DATABASE" serve --bind "127.0.0.1:$port" --no-engine >"$OUT/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -sf "$base/healthz" >/dev/null && break; sleep 0.1; done

id=$(curl -sf -X POST "$base/v1/exports" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"kind": "charges"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["id"])')
/usr/bin/time -v "$BIN" --database "$DATABASE" exports build 2>"$OUT/time.txt" | tee "$OUT/build.txt"
elapsed=$(grep 'Elapsed (wall clock)' "$OUT/time.txt" | awk '{print $NF}')
rss_kib=$(grep 'Maximum resident set size' "$OUT/time.txt" | awk '{print $NF}')

curl -sf "$base/v1/exports/$id/download" -H "Authorization: Bearer $token" -o "$OUT/charges.csv"
rows=$(python3 -c 'import csv, sys
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    reader = csv.reader(f); next(reader); print(sum(1 for _ in reader))' "$OUT/charges.csv")
size=$(stat -c %s "$OUT/charges.csv")
# The demo organization's own charges come with the generated ones.
total=$(curl -sf "$base/v1/charges?per_page=1" -H "Authorization: Bearer $token" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["meta"]["total"])')
echo "export of $total charges: built in $elapsed, peak RSS $((rss_kib / 1024)) MiB, $rows rows parsed back, $size bytes"
[[ $rows -eq $total ]] || { echo "the file has $rows rows, not $total" >&2; exit 1; }
