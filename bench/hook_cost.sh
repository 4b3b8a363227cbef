#!/bin/bash
# bench/hook_cost.sh — CPU time pgbench_ext's hooks add per statement, in ns.
#
# A tps difference cannot resolve a few hundred ns on this shared, noisy
# machine (runs of the same variant spread by ±10%), so this measures the
# cost directly: pgbench -S -c 1 runs against a preloaded throwaway cluster
# while perf samples every CPU (cpu-clock, 10 kHz, call graphs).  A sample
# is charged to pgbench_ext when the first frame outside the kernel, the
# vDSO and libc is in this installation's pgbench_ext.so, i.e. the hooks' own code and the
# clock_gettime(), getrusage() and perf read() calls they make.  Only the
# pgbench session's backend is counted.  Samples x 100 us / statements
# executed (from counters()) = ns per statement; printed beside the
# backend's whole CPU time per statement and the hooks' share of it, which
# is the steadier figure when the machine's load changes.
# The wait sampler's whole process is reported apart, as a share of one CPU.
# Variants alternate for REPEAT rounds; each run is printed.
#
#   PG_CONFIG=... bench/hook_cost.sh   (DURATION=10 REPEAT=3; needs perf and
#                                               kernel.perf_event_paranoid <= 0 or root)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
FREQ=10000

# Other clusters on the machine may load their own pgbench_ext.so: count only ours.
lib=$("$PG_CONFIG" --pkglibdir)/pgbench_ext.so

bench_begin hook
trap 'cluster_stop; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
bench_cluster "$work/c"
bin=$CLUSTER_BINDIR
"$bin/psql" -X -q -c "CREATE EXTENSION pgbench_ext" postgres

calls() {
	PGOPTIONS="-c pgbench_ext.track=off" "$bin/psql" -X -A -t -c \
		"SELECT sum(value) FROM pgbench_ext.counters() WHERE scope = 'select' AND metric = 'calls'" postgres
}

printf '%-16s %11s %16s %14s %12s %15s\n' variant statements "backend ns/stmt" "hooks ns/stmt" "hooks share" "sampler CPU"
for round in $(seq 1 "$REPEAT"); do
for variant in "track:-c pgbench_ext.track=on" "track+track_hw:-c pgbench_ext.track_hw=on"; do
	name=${variant%%:*}
	opts=${variant#*:}
	PGOPTIONS=$opts "$bin/pgbench" -n -S -c 1 -T $((DURATION + 2)) postgres >/dev/null 2>&1 &
	load=$!
	sleep 1
	backend=$("$bin/psql" -X -A -t -c \
		"SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench' LIMIT 1" postgres)
	before=$(calls)
	perf record -q -e cpu-clock -F $FREQ -g -a -o "$work/perf.data" -- sleep "$DURATION" 2>/dev/null
	after=$(calls)
	wait $load
	# the backend's samples, those charged to the hooks, and the sampler's
	read -r total samples sampler < <(perf script -i "$work/perf.data" -F comm,pid,ip,sym,dso 2>/dev/null |
		awk -v so="($lib)" -v backend="$backend" '
		function done() {
			if (comm == "postgres" && in_sampler) s++
			else if (pid == backend) {
				t++
				if (index(owner, so)) h++
			}
			owner = ""; in_sampler = 0
		}
		/^[^ \t]/ { done(); comm = $1; pid = $2; next }
		/^$/ { next }
		{
			if ($0 ~ /pgbench_ext_sampler_main/ && index($0, so)) in_sampler = 1
			if (owner == "" && $0 !~ /\[kernel\.kallsyms\]|\[vdso\]|libc\.so/) owner = $0
		}
		END { done(); print t + 0, h + 0, s + 0 }')
	stmts=$((${after%.*} - ${before%.*}))
	awk -v n="$name" -v t="$total" -v s="$samples" -v w="$sampler" -v c="$stmts" -v f=$FREQ -v d="$DURATION" \
		'BEGIN { printf "%-16s %11d %16.0f %14.0f %11.2f%% %14.3f%%\n", n, c, c ? t * 1e9 / f / c : 0,
			c ? s * 1e9 / f / c : 0, t ? 100 * s / t : 0, 100 * w / f / d }'
done
done
