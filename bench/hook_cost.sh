#!/bin/bash
# bench/hook_cost.sh — CPU time pgbench_ext's hooks add per statement, in ns.
#
# A tps difference cannot resolve a few hundred ns on this shared, noisy
# machine (runs of the same variant spread by ±10%), so this measures the
# cost directly: pgbench -S -c 1 runs against a preloaded throwaway cluster
# while perf samples every CPU (cpu-clock, 10 kHz, call graphs).  A sample
# is charged to pgbench_ext when the first frame outside the kernel, the
# vDSO and libc is in pgbench_ext.so, i.e. the hooks' own code and the
# clock_gettime(), getrusage() and perf read() calls they make.  Samples x
# 100 us / statements executed (from counters()) = ns per statement.
# The wait sampler's whole process is reported apart, as a share of one CPU.
# Variants alternate for REPEAT rounds; each run is printed.
#
#   PG_CONFIG=... bench/hook_cost.sh   (DURATION=10 REPEAT=3; needs perf and
#                                               kernel.perf_event_paranoid <= 0 or root)
set -eu
cd "$(dirname "$0")/.."
: "${PG_CONFIG:=pg_config}"
export PG_CONFIG
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
FREQ=10000

command -v perf >/dev/null || { echo "hook_cost: perf not found (linux-perf)" >&2; exit 1; }

. tools/cluster.sh
work=$(mktemp -d /tmp/pgbench_ext_hook.XXXXXX)
chmod 755 "$work"
trap 'cluster_stop; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

make -s PG_CONFIG="$PG_CONFIG" >/dev/null && make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
cluster_start "$work/c" "max_connections = 20" >/dev/null
bin=$CLUSTER_BINDIR
"$bin/pgbench" -i -q -s 5 postgres >/dev/null 2>&1
"$bin/psql" -X -q -c "CREATE EXTENSION pgbench_ext" postgres

calls() {
	PGOPTIONS="-c pgbench_ext.track=off" "$bin/psql" -X -A -t -c \
		"SELECT sum(value) FROM pgbench_ext.counters() WHERE scope = 'select' AND metric = 'calls'" postgres
}

printf '%-16s %12s %14s %14s %18s\n' variant statements "hook samples" "ns/statement" "sampler CPU %"
for round in $(seq 1 "$REPEAT"); do
for variant in "track:-c pgbench_ext.track=on" "track+track_hw:-c pgbench_ext.track_hw=on"; do
	name=${variant%%:*}
	opts=${variant#*:}
	PGOPTIONS=$opts "$bin/pgbench" -n -S -c 1 -T $((DURATION + 2)) postgres >/dev/null 2>&1 &
	load=$!
	sleep 1
	before=$(calls)
	perf record -q -e cpu-clock -F $FREQ -g -a -o "$work/perf.data" -- sleep "$DURATION" 2>/dev/null
	after=$(calls)
	wait $load
	# hooks and sampler samples, charged as described at the top
	read -r samples sampler < <(perf script -i "$work/perf.data" -F comm,ip,sym,dso 2>/dev/null | awk '
		function done() {
			if (comm == "postgres" && in_sampler) s++
			else if (comm == "postgres" && owner ~ /pgbench_ext\.so/) h++
			owner = ""; in_sampler = 0
		}
		/^[^ \t]/ { done(); comm = $1; next }
		/^$/ { next }
		{
			if ($0 ~ /pgbench_ext_sampler_main/) in_sampler = 1
			if (owner == "" && $0 !~ /\[kernel\.kallsyms\]|\[vdso\]|libc\.so/) owner = $0
		}
		END { done(); print h + 0, s + 0 }')
	stmts=$((${after%.*} - ${before%.*}))
	awk -v n="$name" -v s="$samples" -v w="$sampler" -v c="$stmts" -v f=$FREQ -v d="$DURATION" \
		'BEGIN { printf "%-16s %12d %14d %14.0f %17.3f%%\n", n, c, s, c ? s * 1e9 / f / c : 0, 100 * w / f / d }'
done
done
