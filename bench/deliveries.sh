#!/usr/bin/env bash
# Deliveries leaving the server: a production organization with CHARGES charges due on the next
# weekday, a policy whose one step sends an SMS that day, and a webhook on `notification.sent`,
# both pointed at bench/receiver.py (answers every POST at once, pinned to core 1). Then
# `engine run-once` on core 0: the pass hands each SMS to the HTTP gateway, then the webhook
# sender posts each `notification.sent`. Prints what the receiver counted per path: requests,
# deliveries a second (first to last arrival) and the most connections it saw open at once.
#
# A benchmark, not a test: kept out of .ci/run. Needs curl, python3, taskset and two cores.
# Environment: CHARGES (5000), OUT (a temporary directory), NO_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."

CHARGES=${CHARGES:-5000}
OUT=${OUT:-$(mktemp -d /tmp/kd-deliveries.XXXXXX)}
mkdir -p "$OUT"
BIN=target/dist/kobana-dunning
source bench/wrk-scripts.sh
[[ -n ${NO_BUILD:-} ]] || cargo build --profile dist --bin kobana-dunning
read -r DUE AT < <(python3 -c 'import datetime as d
t = d.date.today() + d.timedelta(days=1)
while t.weekday() >= 5: t += d.timedelta(days=1)
print(t, f"{t}T15:00:00Z")')

rm -f "$OUT"/deliveries.db* "$OUT"/counts.json
DB="sqlite://$OUT/deliveries.db"
ORG=$("$BIN" --database "$DB" orgs create --name "Entregas" --environment production)
TOKEN=$("$BIN" --database "$DB" tokens create --org "$ORG" --scopes "dunning.read dunning.write dunning.notify dunning.webhooks")

taskset -c 1 python3 bench/receiver.py "$OUT/counts.json" >"$OUT/receiver.port" &
receiver=$!
PORT=$(free_port)
"$BIN" --database "$DB" serve --no-engine --allow-insecure-targets --bind "127.0.0.1:$PORT" \
  --rate-limit 1000000000 --rate-limit-burst 1000000 >"$OUT/server.out" 2>"$OUT/server.log" &
server=$!
trap 'kill $server $receiver 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  [[ -s "$OUT/receiver.port" ]] && grep -q '^listening on' "$OUT/server.out" && break
  sleep 0.1
done
RECEIVER="http://127.0.0.1:$(head -1 "$OUT/receiver.port")"

echo "setting up $CHARGES charges due $DUE ..."
python3 - "http://127.0.0.1:$PORT" "$TOKEN" "$CHARGES" "$DUE" "$RECEIVER/hooks" <<'EOF'
import http.client, json, sys, urllib.parse
base, token, charges, due, hook = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
url = urllib.parse.urlsplit(base)
conn = http.client.HTTPConnection(url.hostname, url.port)
def post(path, body):
    conn.request("POST", path, json.dumps(body), {"Authorization": f"Bearer {token}",
                                                  "Content-Type": "application/json"})
    r = conn.getresponse(); data = json.loads(r.read())
    if r.status != 201: sys.exit(f"POST {path}: {r.status} {data}")
    return data["data"]
def cpf(n):
    digits = [int(c) for c in f"{100_000_000 + n:09d}"]
    for _ in range(2):
        size = len(digits) + 1
        digits.append(sum(d * (size - i) for i, d in enumerate(digits)) * 10 % 11 % 10)
    return "".join(map(str, digits))
post("/v1/collection_policies", {"name": "Régua", "steps": [
    {"offset_days": 0, "channel": "sms", "template": {"body": "{{debtor_name}}, sua cobrança vence hoje."}}]})
post("/v1/webhooks", {"url": hook, "events": ["notification.sent"], "name": "ERP"})
for n in range(charges):
    debtor = post("/v1/debtors", {"name": f"Cliente {n}", "document": cpf(n), "mobile": "+5511987654321"})
    post("/v1/charges", {"debtor_id": debtor["id"], "amount": 10 + n % 90, "due_date": due})
EOF
kill $server
wait $server 2>/dev/null || true

echo "engine run-once --at $AT (core 0), receiver on core 1:"
KOBANA_DUNNING_GATEWAY_SECRET=segredo-do-gateway taskset -c 0 /usr/bin/time -f '%e s, %M KiB' -o "$OUT/pass.time" \
  "$BIN" --database "$DB" engine run-once --at "$AT" --gateway-url "$RECEIVER/gateway" \
  --allow-insecure-targets | tee "$OUT/pass.out"
echo "  run-once: $(cat "$OUT/pass.time")"
kill -TERM $receiver
wait $receiver
python3 - "$OUT/counts.json" <<'EOF'
import json, sys
for path, s in sorted(json.load(open(sys.argv[1])).items()):
    print(f"  {path}: {s['requests']} requests in {s['seconds']} s, {s['per_second']} a second, "
          f"at most {s['most_open']} connections open at once")
EOF
