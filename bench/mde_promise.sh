#!/bin/sh
# bench/mde_promise.sh [REV] — does the MDE printed beside "no change" keep
# its promise?  For each design, a pilot experiment prints its MDE from its
# own noise estimate and a replicate whose true effect is that MDE is
# compared: the share of replicates decided faster should be >= 80%.
# Built against the statistics of the working tree, or of git revision REV
# (e.g. main: the figures before a change).  Prints one line per design.
set -e
cd "$(dirname "$0")/.."
dir=$(mktemp -d /tmp/mde_promise.XXXXXX)
trap 'rm -rf "$dir"' EXIT
if [ -n "$1" ]; then
	git archive "$1" common | tar -x -C "$dir"
	src="$dir/common"
else
	src=common
fi
${CC:-cc} -O2 -I"$src" -Itest/unit -o "$dir/mde_promise" bench/mde_promise.c "$src"/*.c -lm
"$dir/mde_promise" "${SIMS:-4000}"
