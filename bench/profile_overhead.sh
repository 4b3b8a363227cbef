#!/bin/bash
# bench/profile_overhead.sh — what sampling with perf costs a pgbench -S run:
# the evidence behind profile = sampled's default rate.
#
# One cluster (pgbench_ext preloaded, scale $SCALE), and in every round one
# pgbench -S -c 2 -j 2 run of DURATION seconds per variant, in random order:
#   off     perf not running
#   rNNN    perf record attached as profile = sampled attaches it
#           (client/profile/profile_sampled.c): the postmaster with inheritance,
#           -e EVENT:u, a fixed period of 1/NNN s of CPU (cpu-clock) or -F
#           NNN (cycles), call chains by frame pointers (-g), -N
# The statistics are the project's own: pgbench_ext.compare() of each rate
# against off, round by round (Hodges-Lehmann ratio, its CI, signed-rank p).
#
#   PG_CONFIG=... bench/profile_overhead.sh   (ROUNDS=30 DURATION=5 SCALE=5 RATES="499 1999")
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
ROUNDS=${ROUNDS:-30}
DURATION=${DURATION:-5}
SCALE=${SCALE:-5}
RATES=${RATES:-499 1999}
CSV=${CSV:-docs/figures/profile-overhead-$(date -u +%Y%m%dT%H%MZ).csv}

bench_begin profile_overhead
trap 'cluster_stop; rm -rf "$work"' EXIT
bench_cluster "$work/c"
bin=$CLUSTER_BINDIR
perf=$(command -v perf)
# the event profile = sampled picks: cycles where the CPU lends its counters
if as_server_user "$perf" stat -x, -e cycles:u -- true 2>&1 | grep -q '<not supported>\|<not counted>'; then
	event=cpu-clock
else
	event=cycles
fi
chown "${PGBENCH_EXT_OS_USER:-postgres}" "$work" 2>/dev/null || true

run() {
	local name=$1 pm perf_pid=
	pm=$(head -1 "$CLUSTER_DIR/data/postmaster.pid")
	if [ "$name" != off ]; then
		local rate=${name#r} period
		if [ "$event" = cpu-clock ]; then period="-c $((1000000000 / rate))"; else period="-F $rate"; fi
		# the same options as the client's, for the length of the run
		as_server_user "$perf" record -q -e "$event:u" $period -g -N -o "$work/perf.data" \
			-p "$pm" -- sleep $((DURATION + 2)) >/dev/null 2>&1 &
		perf_pid=$!
		sleep 1
	fi
	"$bin/pgbench" -n -S -c 2 -j 2 -T "$DURATION" postgres 2>&1 | sed -n 's/^tps = \([0-9.]*\) .*/\1/p'
	[ -n "$perf_pid" ] && wait "$perf_pid"
	rm -f "$work/perf.data"
	return 0
}

variants="off"
for r in $RATES; do variants="$variants r$r"; done
echo "host: $(nproc) CPUs, $(uname -r); perf $("$perf" version | cut -d' ' -f3), event $event"
echo "$ROUNDS rounds of pgbench -n -S -c 2 -j 2 -T $DURATION, scale $SCALE: $variants in random order; CSV: $CSV"
for name in $variants; do run "$name" >/dev/null; done	# warm up
echo "round,variant,tps" >"$CSV"
for round in $(seq 1 "$ROUNDS"); do
	for name in $(printf '%s\n' $variants | shuf); do
		echo "$round,$name,$(run "$name")" >>"$CSV"
	done
done

# compare() of each rate against off, round by round
arrays() {
	awk -F, -v v="$1" 'NR > 1 && $2 == v && $3 > 0 { t = t s $3; r = r s $1; s = "," }
		END { printf "ARRAY[%s]::float8[], ARRAY[%s]::int[]\n", t, r }' "$CSV"
}
bench_sql "$work/c" "CREATE EXTENSION IF NOT EXISTS pgbench_ext" >/dev/null
read -r off_tps off_rounds < <(arrays off | sed 's/, ARRAY/ ARRAY/')
printf '\n%-8s %14s %10s %22s %8s %8s  %s\n' rate "samples/CPU-s" "tps B/A" "95% CI" p n verdict
for r in $RATES; do
	read -r on_tps on_rounds < <(arrays "r$r" | sed 's/, ARRAY/ ARRAY/')
	bench_sql "$work/c" "SELECT estimate, ci_low, ci_high, p_value, n_pairs, verdict
		FROM pgbench_ext.compare($off_tps, $on_tps, true, 0.05, 0.01, $off_rounds, $on_rounds)" |
		awk -F'|' -v r="$r" '{ printf "%-8s %14d %+9.2f%% [%+.2f%%, %+.2f%%] %8.4f %8d  %s\n", "r" r, r,
			100 * ($1 - 1), 100 * ($2 - 1), 100 * ($3 - 1), $4, $5, $6 }'
done
