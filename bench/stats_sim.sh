#!/bin/sh
# bench/stats_sim.sh NAME SIMS [REV] — build bench/NAME.c, a simulation of
# the statistics, against common/ of the working tree or of git revision
# REV (e.g. main: the figures before a change), and run it with SIMS
# simulations (the environment's SIMS wins).  bench/mde_promise.sh and
# bench/design_promise.sh say what each simulation measures.
set -e
cd "$(dirname "$0")/.."
name=$1
sims=${SIMS:-$2}
rev=$3
dir=$(mktemp -d "/tmp/$name.XXXXXX")
trap 'rm -rf "$dir"' EXIT
if [ -n "$rev" ]; then
	git archive "$rev" common | tar -x -C "$dir"
	src="$dir/common"
else
	src=common
fi
${CC:-cc} -O2 -I"$src" -Itest/unit -o "$dir/$name" "bench/$name.c" "$src"/*.c -lm
"$dir/$name" "$sims"
