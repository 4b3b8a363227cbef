#!/bin/bash
# bench/rotate.sh — the overhead of pgbench_ext and the anchors, with every
# variant moved from cluster to cluster so that none keeps one cluster's luck.
#
# A running cluster is one sample of memory layout: ASLR places the server's
# code, data and shared memory anew at each start.  bench/paired.sh saw two
# clusters of identical software serve pgbench -S 1–2% apart for as long as
# they ran, which no amount of rounds on those two clusters cancels, and
# bench/overhead.sh, which restarts one cluster before every run, pays for it
# with runs a minute apart and CIs 15 points wide.  Here one cluster per set
# of preloaded libraries stays up (none, pgbench_ext, pg_stat_statements,
# pg_stat_statements + pg_stat_kcache, pg_wait_sampling).  Each block:
#
#   1. every cluster restarts with a new random assignment of the library
#      sets to clusters (a new layout, and another data directory);
#   2. one warm-up second of the load on each;
#   3. ROUNDS rounds of DURATION s of pgbench -S -c 2 -j 2 against every
#      variant in a new random order.  Variants that share a library set run
#      on the cluster that has it: pgbench_ext's sampler off (by reload around
#      the run) and track_hw (a session setting).
#
# bench/overhead_ci.sh then compares block by block (each block's geometric
# mean tps per variant), so the CI takes in the spread between cluster
# instances as well as the drift: with BLOCKS blocks it has BLOCKS pairs.
#
# Every cluster is up throughout, so each sampler (pgbench_ext's, pg_wait_
# sampling's) costs all variants alike; bench/hook_cost.sh measures what
# pgbench_ext's costs (a fraction of a percent of one CPU).
#
#   PG_CONFIG=... bench/rotate.sh      (BLOCKS=16 ROUNDS=4 DURATION=3 SCALE=5)
#
# CSV=an earlier rotate CSV adds BLOCKS more blocks to it, numbered after its
# last: the blocks are independent, so a run can be extended later and the
# CI computed over all of them.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
BLOCKS=${BLOCKS:-16}
ROUNDS=${ROUNDS:-4}
DURATION=${DURATION:-3}
SCALE=${SCALE:-5}
CSV=${CSV:-docs/figures/rotate-$(date -u +%Y%m%dT%H%MZ).csv}

header="block,round,variant,cluster,tps"
first_block=1
if [ -s "$CSV" ]; then
	if [ "$(head -1 "$CSV")" != "$header" ]; then
		echo "rotate.sh: error: $CSV exists and is not a rotate.sh CSV; name another with CSV=" >&2
		exit 2
	fi
	first_block=$(($(tail -n +2 "$CSV" | cut -d, -f1 | sort -n | tail -1) + 1))
fi

bench_begin rotate
mapfile -t library_sets < <(echo "$BENCH_VARIANTS" | cut -d'|' -f2 | awk '!seen[$0]++')
nclusters=${#library_sets[@]}
stop_all() {
	for i in $(seq 0 $((nclusters - 1))); do
		CLUSTER_DIR=$work/c$i
		[ -d "$CLUSTER_DIR" ] && cluster_stop
	done
	rm -rf "$work"
}
trap stop_all EXIT
for i in $(seq 0 $((nclusters - 1))); do bench_cluster "$work/c$i"; done
bin=$CLUSTER_BINDIR

load() {
	local dir=$1 seconds=$2 opts=$3
	PGOPTIONS=$opts "$bin/pgbench" -h "$dir/sock" -p "$(bench_port "$dir")" -n -S -c 2 -j 2 \
		-T "$seconds" postgres 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
}

# cluster number per library set ("x" + set: an empty key is not allowed)
declare -A cluster_of

echo "host: $(nproc) CPUs, $(uname -r); PostgreSQL $("$bin/postgres" --version | awk '{print $3}')"
echo "$BLOCKS blocks of $ROUNDS rounds, pgbench -S -c 2 -j 2 -T $DURATION, scale $SCALE, $nclusters clusters; CSV: $CSV"
if [ "$first_block" -gt 1 ]; then
	echo "adding blocks $first_block to $((first_block + BLOCKS - 1)) to $CSV"
else
	echo "$header" >"$CSV"
fi
for block in $(seq "$first_block" $((first_block + BLOCKS - 1))); do
	mapfile -t order < <(seq 0 $((nclusters - 1)) | shuf)
	for k in "${!library_sets[@]}"; do
		cluster_of["x${library_sets[$k]}"]=${order[$k]}
		bench_restart_with "$work/c${order[$k]}" "${library_sets[$k]}" ""
	done
	for i in $(seq 0 $((nclusters - 1))); do load "$work/c$i" 1 "" >/dev/null; done
	for round in $(seq 1 "$ROUNDS"); do
		echo "$BENCH_VARIANTS" | shuf | while IFS='|' read -r name libs opts settings; do
			cluster=${cluster_of["x$libs"]}
			[ -z "$settings" ] || bench_reload_with "$work/c$cluster" "$settings"
			tps=$(load "$work/c$cluster" "$DURATION" "$opts")
			[ -z "$settings" ] || bench_reload_with "$work/c$cluster" ""
			echo "$block,$round,$name,$cluster,$tps" >>"$CSV"
		done
	done
	echo "block $block of $((first_block + BLOCKS - 1)) done ($(date -u +%H:%M:%S))"
done

echo
bench/overhead_ci.sh "$CSV"
