#!/usr/bin/env bash
# Writes link/hot-functions.txt: the functions the server runs to answer GET /v1/charges/{id} and
# tools/call, hottest first. build.rs hands the list to the linker, which places them side by
# side at the start of the code (docs/PERFORMANCE.md, "Fast paths").
#
# The profile is bench/instructions.sh's (callgrind, symbols left mangled). A symbol's name
# carries a hash of its crate's build settings, so each optimised build contributes its own
# names: BINS lists the binaries to profile (default: the release build, and the profiling build
# when it is there). A build skips the names it does not have, and the linker says nothing about
# them, so a list can go stale unnoticed after a toolchain or dependency update: CHECK=1 only
# counts how many of the list's names each binary in BINS has, and fails under half of the
# names that binary contributed when the list was made.
#
# Environment: BINS, SECONDS_EACH (5), CHECK.
set -euo pipefail
cd "$(dirname "$0")/.."
LIST=link/hot-functions.txt
if [[ -z ${BINS:-} ]]; then
  BINS=target/release/kobana-dunning
  [[ -x target/profiling/kobana-dunning ]] && BINS+=" target/profiling/kobana-dunning"
fi
work=$(mktemp -d /tmp/kd-hot.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The functions a binary defines, one a line.
symbols() { nm --defined-only "$1" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u; }

if [[ -n ${CHECK:-} ]]; then
  status=0
  for bin in $BINS; do
    symbols "$bin" >"$work/symbols"
    found=$(grep -v '^#' "$LIST" | grep -cxF -f "$work/symbols" || true)
    # The header records each build's share: "# <binary>: <n> names".
    made=$(awk -v b="# $bin:" 'index($0, b) == 1 { print $(NF - 1) }' "$LIST")
    echo "$bin: $found of the list's names (${made:-?} when it was made)"
    [[ -n $made && $found -lt $((made / 2)) ]] && status=1
  done
  exit $status
fi

lists=() header=()
for bin in $BINS; do
  [[ -x $bin ]] || { echo "$bin is not built" >&2; exit 1; }
  dir=$work/$(echo "$bin" | tr / _)
  OUT=$dir DEMANGLE=no TOP=0 SECONDS_EACH=${SECONDS_EACH:-5} BIN=$bin bench/instructions.sh >"$dir.log" 2>&1 ||
    { cat "$dir.log" >&2; exit 1; }
  grep '^==' "$dir.log" | sed "s|(.*)|($bin)|"
  symbols "$bin" >"$dir.symbols"
  # Each function's own cost (exclusive), summed over the loads, hottest first; only the
  # binary's own functions (not the C library's).
  for dump in "$dir"/cg.out.[0-9]*; do callgrind_annotate --threshold=100 --auto=no --show=Ir "$dump"; done |
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
' "$dir.symbols" >"$dir/hot.txt"
  count=$(wc -l <"$dir/hot.txt")
  # A request runs several hundred functions: fewer means the profile was not read.
  ((count >= 100)) || { echo "only $count functions found in the profile of $bin" >&2; exit 1; }
  lists+=("$dir/hot.txt") header+=("# $bin: $count names")
done

{
  echo "# The functions a request runs, hottest first (bench/hot-functions.sh; read by build.rs)."
  printf '%s\n' "${header[@]}"
  # The first list's order first; a name both builds share once.
  awk '!seen[$0]++' "${lists[@]}"
} >"$LIST"
echo "$LIST: $(grep -vc '^#' "$LIST") functions from $BINS"
