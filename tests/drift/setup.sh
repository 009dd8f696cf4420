#!/usr/bin/env bash
# Installs the pinned tools of the drift checks, inside the repository:
#   tests/drift/.venv          Python venv: schemathesis 4.32.5 and its frozen tree (requirements.txt)
#   tests/drift/node_modules   @redocly/cli 2.77.0 (package.json + package-lock.json)
# Idempotent and quick when nothing changed (a stamp of the pinning files); needs the PyPI and
# npm registries the first time, and fails loudly without them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

fail() {
  echo "drift/setup.sh: $*" >&2
  exit 1
}
trap 'echo "drift/setup.sh: FAILED (line $LINENO): the drift tools come from the PyPI and npm registries (to start over, delete tests/drift/.venv and tests/drift/node_modules)." >&2' ERR

exec 9<setup.sh
flock 9

stamp_of() { cat "$@" setup.sh | sha256sum | cut -d' ' -f1; }

py_stamp=$(stamp_of requirements.txt)
if [[ "$(cat .venv/.kd-setup-stamp 2>/dev/null)" != "$py_stamp" ]]; then
  echo "drift/setup.sh: installing schemathesis into tests/drift/.venv"
  [[ -x .venv/bin/python ]] || python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
  .venv/bin/python -m pip check >/dev/null || fail "schemathesis's dependencies are inconsistent (pip check)"
  echo "$py_stamp" >.venv/.kd-setup-stamp
fi
[[ "$(.venv/bin/schemathesis --version)" == *"4.32.5"* ]] || fail "tests/drift/.venv does not hold schemathesis 4.32.5"

node_stamp=$(stamp_of package.json package-lock.json .npmrc)
if [[ "$(cat node_modules/.kd-setup-stamp 2>/dev/null)" != "$node_stamp" ]]; then
  echo "drift/setup.sh: installing @redocly/cli into tests/drift/node_modules"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$node_stamp" >node_modules/.kd-setup-stamp
fi
[[ "$(node -p "require('./node_modules/@redocly/cli/package.json').version")" == "2.77.0" ]] ||
  fail "@redocly/cli is not 2.77.0"
