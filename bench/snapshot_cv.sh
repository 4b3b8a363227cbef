#!/bin/bash
# bench/snapshot_cv.sh — how repeatable is pgbench_ext.snapshot_bench()?
#
# Starts a throwaway idle cluster of the installation PG_CONFIG names (with
# pgbench_ext installed there: make PG_CONFIG=... install), runs
# snapshot_bench(100000, 'full') RUNS times in a row (default 10) in one
# session, prints each run's median ns per call and the coefficient of
# variation of those medians (sample standard deviation / mean).  The goal
# is a CV of at most 2%; on a shared, noisy machine it may not be met, and
# the figure is what it is.
#
# Usage: PG_CONFIG=/path/to/pg_config bench/snapshot_cv.sh [RUNS]
set -eu
cd "$(dirname "$0")/.."
: "${PG_CONFIG:=pg_config}"
export PG_CONFIG
runs=${1:-10}

. bench/lib.sh
work=$(mktemp -d /tmp/pgbench_ext_cv.XXXXXX)
chmod 755 "$work"
trap 'cluster_stop; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
cluster_start "$work/cluster" >/dev/null

psql=("$CLUSTER_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -d postgres)
"${psql[@]}" -c 'CREATE EXTENSION pgbench_ext'

echo "snapshot_bench(100000, 'full', 20) x $runs on an idle server ($(nproc) CPUs)"
"${psql[@]}" -P footer=off <<SQL
CREATE TEMP TABLE cv_runs (run int, ns_median float8, ns_min float8, ns_p90 float8,
                           timer_overhead_ns float8, procs int);
SELECT pgbench_ext.snapshot_bench(10000, 'full') \\g /dev/null
DO \$\$
BEGIN
  FOR i IN 1..$runs LOOP
    INSERT INTO cv_runs
      SELECT i, ns_median, ns_min, ns_p90, timer_overhead_ns, procs
      FROM pgbench_ext.snapshot_bench(100000, 'full', 20);
  END LOOP;
END
\$\$;
SELECT run, round(ns_median::numeric, 2) AS median_ns, round(ns_min::numeric, 2) AS min_ns,
       round(ns_p90::numeric, 2) AS p90_ns, timer_overhead_ns, procs
FROM cv_runs ORDER BY run;
SELECT count(*) AS runs,
       round(avg(ns_median)::numeric, 2) AS mean_median_ns,
       round(stddev_samp(ns_median)::numeric, 3) AS sd_ns,
       round((100 * stddev_samp(ns_median) / avg(ns_median))::numeric, 2) AS cv_percent
FROM cv_runs;
SQL
