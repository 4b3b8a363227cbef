#!/bin/bash
# bench/paired.sh — pgbench_ext against no library, in short adjacent runs.
#
# bench/overhead.sh restarts one cluster per run, so a run of each variant
# is ~70 s from the next one of the same round, and this machine's load
# (shared by several people) swings tps between ~20k and ~65k within that.
# Here two clusters stay up side by side (one without any library, one with
# pgbench_ext preloaded: track on, sampler at 10 ms), and each round runs
# pgbench -S -c 2 -j 2 for DURATION seconds against none, pgbench_ext,
# pgbench_ext with its sampler off (by reload, around that run) and
# pgbench_ext with track_hw, in random order, a few seconds apart.  The
# per-round ratio to "none" cancels most of the drift; printed: median tps
# per variant and the median of the per-round ratios.
#
# pgbench_ext_trackoff runs on the pgbench_ext cluster with track off for
# its sessions: against pgbench_ext it is the hooks' work alone, on one
# cluster instance (the library loaded, its shared memory and sampler there
# for both); against none it is what being loaded costs without timing.
#
# The pgbench_ext cluster's sampler keeps waking while "none" runs: that
# costs "none" what it costs pgbench_ext's own runs (bench/hook_cost.sh
# measures it at ~0.15% of one CPU).
#
#   PG_CONFIG=... bench/paired.sh               (ROUNDS=30 DURATION=3 SCALE=5
#                                                VARIANTS="none pgbench_ext pgbench_ext_nosampler pgbench_ext_hw")
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${ROUNDS:-30}
DURATION=${DURATION:-3}
SCALE=${SCALE:-5}
CSV=${CSV:-docs/figures/paired-$(date -u +%Y%m%dT%H%MZ).csv}

bench_begin paired
stop_both() {
	for d in "$work/none" "$work/ext"; do
		CLUSTER_DIR=$d
		[ -d "$d" ] && cluster_stop
	done
	rm -rf "$work"
}
trap stop_both EXIT
bench_cluster "$work/none" "shared_preload_libraries = ''"
none_port=$PGPORT none_host=$PGHOST
bench_cluster "$work/ext"
ext_port=$PGPORT ext_host=$PGHOST
bin=$CLUSTER_BINDIR

run() {
	local name=$1 host port opts=
	case $name in
		none) host=$none_host port=$none_port ;;
		pgbench_ext) host=$ext_host port=$ext_port ;;
		pgbench_ext_nosampler) host=$ext_host port=$ext_port ;;
		pgbench_ext_hw) host=$ext_host port=$ext_port opts="-c pgbench_ext.track_hw=on" ;;
		pgbench_ext_trackoff) host=$ext_host port=$ext_port opts="-c pgbench_ext.track=off" ;;
		*)
			echo "paired.sh: unknown variant \"$name\"; known: none pgbench_ext pgbench_ext_nosampler pgbench_ext_hw pgbench_ext_trackoff" >&2
			exit 2
			;;
	esac
	# the sampler interval is not a session setting: by reload around the run
	[ "$name" = pgbench_ext_nosampler ] && bench_reload_with "$work/ext" "pgbench_ext.sample_interval_ms = 0"
	PGOPTIONS=$opts "$bin/pgbench" -h "$host" -p "$port" -n -S -c 2 -j 2 -T "$DURATION" postgres 2>&1 |
		sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
	[ "$name" = pgbench_ext_nosampler ] && bench_reload_with "$work/ext" ""
	return 0
}

echo "host: $(nproc) CPUs; $ROUNDS rounds of pgbench -S -c 2 -j 2 -T $DURATION; CSV: $CSV"
variants=${VARIANTS:-none pgbench_ext pgbench_ext_nosampler pgbench_ext_hw}
for name in $variants; do run $name >/dev/null; done   # warm both
echo "round,variant,tps" >"$CSV"
for round in $(seq 1 "$ROUNDS"); do
	for name in $(printf '%s\n' $variants | shuf); do
		echo "$round,$name,$(run $name)" >>"$CSV"
	done
done

printf '%-16s %12s %22s\n' variant "median tps" "median ratio to none"
awk -F, 'NR > 1 { tps[$1, $2] = $3; rounds[$1] = 1; names[$2] = 1 }
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		for (v in names) {
			n = 0; m = 0
			delete t; delete r
			for (k in rounds) {
				t[++n] = tps[k, v]
				if (tps[k, "none"] > 0) r[++m] = tps[k, v] / tps[k, "none"]
			}
			printf "%-16s %12.1f %+21.2f%%\n", v, median(t, n), (median(r, m) - 1) * 100
		}
	}' "$CSV" | sort
