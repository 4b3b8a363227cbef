#!/bin/bash
# bench/overhead.sh — what pgbench_ext's counters cost, beside the anchors.
#
# One throwaway cluster (bench/lib.sh), restarted before every run with
# the variant's shared_preload_libraries, then a short warm-up and a timed
# pgbench -S.  Variants run in interleaved rounds, in a new random order each
# round, so drift of this shared, noisy machine spreads over all of them.
#
#   phase A: pgbench -S -c 2 -j 2   none, pgbench_ext (track on, sampler at
#            10 ms), pgbench_ext with the sampler off, pgbench_ext + track_hw,
#            pg_stat_statements, pg_stat_statements + pg_stat_kcache,
#            pg_wait_sampling
#   phase B: pgbench -S -c 1        none, pgbench_ext, pgbench_ext + track_hw;
#            with one client, 1/tps is the time of one statement and its
#            transaction, so the difference of medians is the hook cost in ns;
#            on a noisy machine bench/hook_instructions.sh measures it far better, so
#            phase B runs only when asked (PHASES="A B")
#
# Raw per-run tps go to a CSV; printed: median per variant and the ratio of
# medians against no library.
#
#   PG_CONFIG=... bench/overhead.sh            (RUNS=10 DURATION=6 SCALE=5)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
RUNS=${RUNS:-10}
DURATION=${DURATION:-6}
WARMUP=${WARMUP:-1}
SCALE=${SCALE:-5}
PHASES=${PHASES:-A}
CSV=${CSV:-docs/figures/overhead-$(date -u +%Y%m%dT%H%M%SZ).csv}

variants_A=$BENCH_VARIANTS
variants_B=$(echo "$BENCH_VARIANTS" | grep -E '^(none|pgbench_ext|pgbench_ext_hw)\|')

bench_begin bench
trap 'cluster_stop; rm -rf "$work"' EXIT
bench_cluster "$work/c"
bin=$CLUSTER_BINDIR

echo "phase,round,variant,clients,seconds,tps" >"$CSV"
echo "host: $(nproc) CPUs, $(uname -r); PostgreSQL $("$bin/postgres" --version | awk '{print $3}')"
echo "runs: $RUNS per variant, $DURATION s each after a $WARMUP s warm-up, scale $SCALE; CSV: $CSV"

for phase in $PHASES; do
	if [ "$phase" = A ]; then variants=$variants_A clients=2; else variants=$variants_B clients=1; fi
	for round in $(seq 1 "$RUNS"); do
		echo "$variants" | shuf | while IFS='|' read -r name libs opts settings; do
			bench_restart_with "$CLUSTER_DIR" "$libs" "$settings"
			PGOPTIONS=$opts "$bin/pgbench" -n -S -c "$clients" -j "$clients" -T "$WARMUP" postgres >/dev/null 2>&1
			tps=$(PGOPTIONS=$opts "$bin/pgbench" -n -S -c "$clients" -j "$clients" -T "$DURATION" postgres 2>&1 |
				sed -n 's/^tps = \([0-9.]*\) .*/\1/p')
			echo "$phase,$round,$name,$clients,$DURATION,$tps" >>"$CSV"
			printf '%s round %2d  %-22s %10.1f tps\n' "$phase" "$round" "$name" "$tps"
		done
	done
done

# Medians per (phase, variant), the ratio to "none", and for phase B the
# difference of 1/tps in ns: the cost of the hooks per statement.
echo
printf '%-6s %-22s %5s %12s %10s %14s\n' phase variant runs "median tps" "vs none" "ns/statement"
tail -n +2 "$CSV" | sort -t, -k1,1 -k3,3 -k6,6g | awk -F, '
	{ key = $1 "," $3; v[key, ++n[key]] = $6; clients[$1] = $4 }
	END {
		for (k in n) {
			m = n[k]
			med[k] = (m % 2) ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2
		}
		for (k in n) {
			split(k, p, ",")
			base = med[p[1] ",none"]
			ns = (p[1] == "B" && base > 0) ? sprintf("%14.0f", 1e9 / med[k] - 1e9 / base) : sprintf("%14s", "")
			printf "%-6s %-22s %5d %12.1f %+9.2f%% %s\n", p[1], p[2], n[k], med[k], (med[k] / base - 1) * 100, ns
		}
	}' | sort
