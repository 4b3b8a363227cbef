#!/bin/bash
# bench/overhead_ci.sh CSV [BASELINE] — the 95% CI of each variant's tps ratio
# against the baseline (default "none") in a CSV written by bench/overhead.sh or
# bench/paired.sh, computed by pgbench_ext.compare() (the same C code as the
# client's verdicts) on a throwaway cluster, round by round as the verdict
# table compares them (the CSV's rounds interleave the variants).  A CSV of
# bench/rotate.sh is compared block by block instead: each block's geometric
# mean tps per variant, since a block's rounds share its cluster instances
# (PAIR_BY=round pairs its rounds all the same, to show what the instances add).
set -eu
cd "$(dirname "$0")/.."
csv=$(realpath "$1")
base=${2:-none}
. bench/lib.sh
work=$(mktemp -d /tmp/pgbench_ext_ci.XXXXXX)
chmod 755 "$work"
trap 'cluster_stop; rm -rf "$work"' EXIT
cluster_start "$work/c" >/dev/null
# the CSV's own columns, all text but tps
columns=$(head -1 "$csv" | tr ',' '\n' | sed 's/^tps$/tps float8/; /float8/!s/$/ text/' | paste -sd, -)
# the unit of pairing: bench/overhead.sh numbers rounds within phases,
# bench/paired.sh has no phases, bench/rotate.sh pairs whole blocks
has_column() { head -1 "$csv" | tr ',' '\n' | grep -qx "$1"; }
unit=rounds
if has_column block && [ "${PAIR_BY:-block}" != round ]; then
	unit=blocks
	numbered="SELECT variant, exp(avg(ln(tps))) AS tps, block::int AS round_no
    FROM runs WHERE tps > 0 GROUP BY block, variant"
else
	outer=
	has_column phase && outer="phase,"
	has_column block && outer="block::int,"
	numbered="SELECT variant, tps, dense_rank() OVER (ORDER BY $outer round::int)::int AS round_no
    FROM runs"
fi
psql -X -q -d postgres -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION pgbench_ext;
CREATE TEMP TABLE runs ($columns);
\copy runs FROM '$csv' CSV HEADER
-- one number per unit of pairing: the verdict table's rounds
CREATE TEMP VIEW numbered AS
    $numbered;
SELECT r.variant,
       CASE WHEN c.n_pairs > 0 THEN c.n_pairs || ' $unit' ELSE c.n_a || '+' || c.n_b END AS n,
       round(((c.estimate - 1) * 100)::numeric, 2) AS change_pct,
       format('[%s%%, %s%%]', round(((c.ci_low - 1) * 100)::numeric, 2),
              round(((c.ci_high - 1) * 100)::numeric, 2)) AS ci_95,
       round(c.p_value::numeric, 4) AS p, c.verdict
FROM (SELECT DISTINCT variant FROM runs WHERE variant <> '$base') r,
     LATERAL pgbench_ext.compare(
        (SELECT array_agg(tps ORDER BY round_no) FROM numbered WHERE variant = '$base'),
        (SELECT array_agg(tps ORDER BY round_no) FROM numbered WHERE variant = r.variant),
        round_a => (SELECT array_agg(round_no ORDER BY round_no) FROM numbered WHERE variant = '$base'),
        round_b => (SELECT array_agg(round_no ORDER BY round_no) FROM numbered WHERE variant = r.variant)) c
ORDER BY 1;
SQL
