#!/usr/bin/env bash
# Writes link/hot-functions.txt: the functions the server runs to answer GET /v1/charges/{id} and
# tools/call, hottest first. build.rs hands the list to the linker, which places them side by
# side at the start of the code (docs/PERFORMANCE.md, "Ninth pass").
#
# The profile is bench/instructions.sh's (callgrind, symbols left mangled). A symbol's name
# carries a hash of its crate's build settings, so each optimised build contributes its own
# names: BINS lists the binaries to profile (default: the release build, and the profiling build
# when it is there). A build skips the names it does not have, so a list made before a change
# still places every function whose name survived it; run this again after a dependency or a
# profile changes (`nm` on the binary against the list shows how many match).
#
# Environment: BINS, SECONDS_EACH (5).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${BINS:-} ]]; then
  BINS=target/release/kobana-dunning
  [[ -x target/profiling/kobana-dunning ]] && BINS+=" target/profiling/kobana-dunning"
fi
work=$(mktemp -d /tmp/kd-hot.XXXXXX)
trap 'rm -rf "$work"' EXIT

lists=()
for bin in $BINS; do
  [[ -x $bin ]] || { echo "$bin is not built" >&2; exit 1; }
  dir=$work/$(echo "$bin" | tr / _)
  OUT=$dir DEMANGLE=no TOP=0 SECONDS_EACH=${SECONDS_EACH:-5} BIN=$bin bench/instructions.sh >"$dir.log" 2>&1 ||
    { cat "$dir.log" >&2; exit 1; }
  grep '^==' "$dir.log" | sed "s|(.*)|($bin)|"
  # Each function's own cost (exclusive), summed over the loads, hottest first.
  for dump in "$dir"/cg.out.*; do callgrind_annotate --threshold=100 --auto=no "$dump"; done |
    python3 -c '
import collections, re, sys
cost = collections.Counter()
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S+)", line)
    if m and "/usr/lib/" not in line and "PROGRAM TOTALS" not in line:
        # "file:symbol"; callgrind names a function without a symbol by its address.
        name = m.group(2).rsplit(":", 1)[-1]
        if re.fullmatch(r"[A-Za-z_][\w$.]*", name):
            cost[name] += int(m.group(1).replace(",", ""))
print("\n".join(name for name, c in cost.most_common() if c > 0))
' >"$dir/hot.txt"
  lists+=("$dir/hot.txt")
done

{
  echo "# The functions a request runs, hottest first (bench/hot-functions.sh; read by build.rs)."
  # One line a name, the first list's order first.
  awk '!seen[$0]++' "${lists[@]}"
} >link/hot-functions.txt
echo "link/hot-functions.txt: $(($(wc -l <link/hot-functions.txt) - 1)) functions from $BINS"
