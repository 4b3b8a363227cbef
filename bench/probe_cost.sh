#!/bin/bash
# bench/probe_cost.sh — what the snapshot probe costs a run's tps.
#
# First the CPU one probe takes (its backend's user and system time, on an
# idle server) and the share of one CPU that makes with each pause.  Then, for each pause between probes (milliseconds, default
# "100 10": the default duty cycle and ten times it), one experiment of the
# client itself: variant
# "plain" is a managed cluster of PG_CONFIG's installation, variant "probed"
# runs on that same server (cluster = plain) with snapshot_probe = on, so
# that the two differ by the probe alone; the runs are interleaved in
# randomized rounds and the verdict table of "probed" against "plain" is the
# cost, with its CI (B/A below 1: the probe costs tps).  Printed: each
# experiment's table and warnings; the results stay in the directories named.
#
#   PG_CONFIG=... bench/probe_cost.sh [INTERVAL_MS ...]
#       SCRIPTS (select-only,tpcb-like) CLIENTS (2) ROUNDS (20) DURATION (5) SCALE (10)
#       LOAD=off: the idle figures only
#
# docs/experiments.md ("The snapshot probe") has the figures it gave.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
SCRIPTS=${SCRIPTS:-select-only,tpcb-like}
CLIENTS=${CLIENTS:-2}
ROUNDS=${ROUNDS:-20}
DURATION=${DURATION:-5}
SCALE=${SCALE:-10}
[ $# -gt 0 ] || set -- 100 10

bench_begin probe_cost
trap 'cluster_stop; rm -rf "$work"' EXIT
out=${PROBE_COST_DIR:-/tmp/pgbench_ext_probe_cost.$(date +%Y%m%dT%H%M%S)}
mkdir -p "$out"
chmod 755 "$out"

# 1. The CPU one probe takes from the load: 2000 probes as the runner sends
# them, in one backend of an idle server, timed by the backend's own utime and
# stime (/proc/PID/stat), which a busy machine does not inflate as it does
# wall time; from it, the share of one CPU that each pause makes.
cluster_start "$work/idle" >/dev/null
psql=("$CLUSTER_BINDIR/psql" -X -q -At -d postgres)
"${psql[@]}" -c 'CREATE EXTENSION pgbench_ext'
for mode in full reuse; do
	cat >"$work/$mode.sql" <<EOF
\o $work/pid
SELECT pg_backend_pid();
\o
\! awk '{ print \$14 + \$15 }' /proc/\$(cat $work/pid)/stat >$work/ticks
DO \$\$BEGIN FOR i IN 1..2000 LOOP PERFORM pgbench_ext.snapshot_bench(1000, '$mode', 1); END LOOP; END\$\$;
\! awk '{ print \$14 + \$15 }' /proc/\$(cat $work/pid)/stat >>$work/ticks
EOF
	"${psql[@]}" -f "$work/$mode.sql"
	ms=$(awk -v hz="$(getconf CLK_TCK)" 'NR == 1 { t = $1 } NR == 2 { printf "%.3f", ($1 - t) * 1000 / hz / 2000 }' "$work/ticks")
	echo "one probe ($mode): $ms ms of CPU (user + system), on an idle server"
	for interval in "$@"; do
		awk -v ms="$ms" -v i="$interval" \
			'BEGIN { printf "  with %d ms of pause: %.2f%% of one CPU\n", i, 100 * ms / (ms + i) }'
	done
done
cluster_stop
[ "${LOAD:-on}" = on ] || exit 0

# 2. The probe on against off under load, interleaved, judged like any A/B.
for interval in "$@"; do
	cat >"$work/probe_cost_$interval.ini" <<EOF
[experiment]
scale = $SCALE
clients = $CLIENTS
jobs = clients
duration = $DURATION
rounds = $ROUNDS
script = $SCRIPTS
snapshot_probe_interval = $interval

[variant plain]
bindir = $("$PG_CONFIG" --bindir)

[variant probed]
cluster = plain
snapshot_probe = on
EOF
	echo "== snapshot_probe_interval = $interval ms: probed against plain, $ROUNDS rounds of ${DURATION} s"
	client/pgbench_ext run "$work/probe_cost_$interval.ini" -o "$out/interval_$interval" |
		sed -n '/^ script/,$p'
done
