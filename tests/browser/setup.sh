#!/usr/bin/env bash
# Installs what tests/browser.rs drives, and fails loudly when it cannot:
#   /usr/bin/chromium, /usr/bin/chromedriver   Debian's chromium and chromium-driver (apt-get, as root)
#   tests/browser/node_modules                 playwright-core, the MCP Apps SDK (its host-side app
#                                              bridge) and axe-core, exactly as package-lock.json pins them
# Playwright never downloads a browser here: the test launches Debian's chromium through
# executablePath. Idempotent and quick when nothing changed (node_modules carries a stamp of the
# files that pin it). Needs Debian's and npm's package registries the first time.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
here=$PWD

fail() {
  echo "browser/setup.sh: $*" >&2
  exit 1
}
trap 'echo "browser/setup.sh: FAILED (line $LINENO). The browser test needs Debian'"'"'s chromium and chromium-driver and the pinned playwright-core (to start over, delete tests/browser/node_modules)." >&2' ERR

# Two cargo runs may set up at once: one installs, the other waits.
exec 9<"$here/setup.sh"
flock 9

CHROMIUM=${KOBANA_DUNNING_CHROMIUM:-/usr/bin/chromium}

# --- Debian's Chromium and ChromeDriver ------------------------------------------------------
if [[ ! -x "$CHROMIUM" || ! -x /usr/bin/chromedriver ]]; then
  echo "browser/setup.sh: installing Debian's chromium and chromium-driver"
  command -v apt-get >/dev/null || fail "$CHROMIUM is missing and there is no apt-get to install chromium"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || fail "$CHROMIUM is missing; run as root (or with sudo): apt-get install chromium chromium-driver"
    sudo=(sudo -n)
  fi
  "${sudo[@]}" apt-get update -qq
  # Another apt-get (CI's PostgreSQL, another engineer) may hold the lock: wait for it.
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
    chromium chromium-driver >/dev/null
fi
[[ -x "$CHROMIUM" ]] || fail "$CHROMIUM is still missing after apt-get install chromium"
chromium_version=$("$CHROMIUM" --version 2>/dev/null) || fail "$CHROMIUM --version failed"
driver_version=$(/usr/bin/chromedriver --version 2>/dev/null) || fail "/usr/bin/chromedriver --version failed"

# --- Node: playwright-core ----------------------------------------------------------------------
command -v node >/dev/null || fail "node (>= 20) is required"
command -v npm >/dev/null || fail "npm is required"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  fail "node >= 20 is required (playwright-core 1.64.1), found $(node --version)"
stamp=$(cat package.json package-lock.json .npmrc setup.sh | sha256sum | cut -d' ' -f1)
if [[ "$(cat node_modules/.kd-setup-stamp 2>/dev/null)" != "$stamp" ]]; then
  echo "browser/setup.sh: installing playwright-core, ext-apps and axe-core into tests/browser/node_modules"
  # `npm ci` installs exactly the lockfile (and fails if package.json disagrees with it).
  # None of them has an install script; playwright-core downloads no browser.
  npm ci --no-audit --no-fund --loglevel=error
  echo "$stamp" >node_modules/.kd-setup-stamp
fi
playwright=$(node -p "require('./node_modules/playwright-core/package.json').version")
[[ "$playwright" == "1.64.1" ]] || fail "playwright-core is $playwright, expected 1.64.1: delete tests/browser/node_modules and rerun"

echo "browser/setup.sh: ready ($chromium_version, $driver_version, playwright-core $playwright, node $(node --version))"
