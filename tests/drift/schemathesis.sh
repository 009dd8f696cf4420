#!/usr/bin/env bash
# schemathesis against the live /v1 API of a sandbox organization: every check,
# response-schema conformance included; zero failures and zero errors, or this fails. Starts the
# server built by cargo on a fresh SQLite file with the demo organization (sandbox), rate limits
# lifted for the run, and prints how many operations and requests schemathesis ran.
#
# hooks.py supplies what a schema cannot make valid (check digits, area codes, fresh idempotency
# keys, current ETags, ids of objects that exist); schemathesis.toml keeps the run self-contained.
#
# Environment: MAX_EXAMPLES (hypothesis examples per operation, default 20), SEED (fixed by
# default, so a failure reproduces), KEEP=1 keeps the work directory (server log, report,
# counts.json with each operation's statuses), KD_DRIFT_TRACE=<file> writes one JSON line per
# request.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
here=$PWD
./setup.sh
cd ../..
cargo build --locked --quiet --bin kobana-dunning

work=$(mktemp -d "${TMPDIR:-/tmp}/kd-drift.XXXXXX")
server_pid=""
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  [[ -n ${KEEP:-} ]] || rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
unlimited=1000000000
target/debug/kobana-dunning --database "sqlite://$work/db.sqlite" serve --demo --no-engine \
  --bind "127.0.0.1:$port" --rate-limit $unlimited --rate-limit-burst $unlimited \
  --anonymous-rate-limit $unlimited >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 400); do grep -q '^listening on' "$work/server.out" 2>/dev/null && break; sleep 0.05; done
grep -q '^listening on' "$work/server.out" || { cat "$work/server.log" >&2; echo "the server did not start" >&2; exit 1; }
token=$(sed -n 's/^demo token: //p' "$work/server.out")

export KD_DRIFT_BASE="http://127.0.0.1:$port" KD_DRIFT_TOKEN="$token"
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=hooks KD_DRIFT_COUNTS="$work/counts.json"
status=0
"$here/.venv/bin/schemathesis" --config-file "$here/schemathesis.toml" run openapi/v1.yaml --url "http://127.0.0.1:$port" \
  --checks all -H "Authorization: Bearer $token" \
  --max-examples "${MAX_EXAMPLES:-20}" --seed "${SEED:-20261201}" --workers 1 \
  --report junit --report-dir "$work/report" >"$work/schemathesis.log" 2>&1 || status=$?
cat "$work/schemathesis.log"
# Operations and requests as the hooks counted them (after_call), failures and errors from the
# junit report: the line CI prints.
(python3 - "$work/report" "$work/counts.json" <<'PY'
import glob, json, sys, xml.etree.ElementTree as ET
failures = errors = 0
for path in glob.glob(sys.argv[1] + "/*.xml"):
    for case in ET.parse(path).getroot().iter("testcase"):
        failures += len(case.findall("failure"))
        errors += len(case.findall("error"))
try:
    counts = json.load(open(sys.argv[2]))
except OSError:
    counts = {"operations": "?", "requests": "?"}
print(f"schemathesis: {counts['operations']} operations, {counts['requests']} requests, "
      f"{failures} failures, {errors} errors")
sys.exit(1 if failures or errors else 0)
PY
) || status=1
exit $status
