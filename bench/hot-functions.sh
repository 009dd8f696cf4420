#!/usr/bin/env bash
# Writes link/hot-functions.txt: the functions the server runs to answer GET /v1/charges/{id} and
# tools/call, hottest first. build.rs hands the list to the linker, which places them side by
# side at the start of the code (docs/PERFORMANCE.md, "Fast paths").
#
# The profile is bench/instructions.sh's (callgrind, symbols left mangled) of the dist build.
# A symbol's name carries a hash of its crate's build settings (not of the checkout's place), so
# a toolchain or dependency update stales the list, and the linker says nothing of the names it
# lacks: CHECK=1 counts how many of the list's names the binary has and fails under 90 % of them
# (.ci/link-order runs it on every change).
#
# Environment: BIN (target/dist/kobana-dunning), SECONDS_EACH (5), CHECK.
set -euo pipefail
cd "$(dirname "$0")/.."
LIST=link/hot-functions.txt
BIN=${BIN:-target/dist/kobana-dunning}
[[ -x $BIN ]] || { echo "$BIN is not built" >&2; exit 1; }
work=$(mktemp -d /tmp/kd-hot.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The functions a binary defines, one a line.
symbols() { nm --defined-only "$1" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u; }

if [[ -n ${CHECK:-} ]]; then
  symbols "$BIN" >"$work/symbols"
  listed=$(grep -vc '^#' "$LIST")
  found=$(grep -v '^#' "$LIST" | grep -cxF -f "$work/symbols" || true)
  found=${found:-0}
  echo "$BIN: $found of the list's $listed names"
  if ((found * 10 < listed * 9)); then
    echo "link/hot-functions.txt no longer matches this build: regenerate it (bench/hot-functions.sh)" >&2
    exit 1
  fi
  exit 0
fi

OUT=$work DEMANGLE=no TOP=0 SECONDS_EACH=${SECONDS_EACH:-5} BIN=$BIN bench/instructions.sh >"$work/log" 2>&1 ||
  { cat "$work/log" >&2; exit 1; }
grep '^==' "$work/log"
symbols "$BIN" >"$work/symbols"
# Each function's own cost (exclusive), summed over the loads, hottest first; only the binary's
# own functions (not the C library's).
for dump in "$work"/cg.out.[0-9]*; do callgrind_annotate --threshold=100 --auto=no --show=Ir "$dump"; done |
  python3 -c '
import collections, re, sys
own = set(open(sys.argv[1]).read().split())
cost = collections.Counter()
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S+)", line)
    if m:
        # "file:symbol"
        name = m.group(2).rsplit(":", 1)[-1]
        if name in own:
            cost[name] += int(m.group(1).replace(",", ""))
print("\n".join(name for name, c in cost.most_common() if c > 0))
' "$work/symbols" >"$work/hot.txt"
count=$(wc -l <"$work/hot.txt")
# A request runs several hundred functions: fewer means the profile was not read.
((count >= 100)) || { echo "only $count functions found in the profile of $BIN" >&2; exit 1; }
{
  echo "# The functions a request runs, hottest first (bench/hot-functions.sh; read by build.rs)."
  cat "$work/hot.txt"
} >"$LIST"
echo "$LIST: $count functions from $BIN"
