/* pgbench_ext--0.1.0--0.2.0.sql — ALTER EXTENSION pgbench_ext UPDATE from 0.1.0 */
\echo Use "ALTER EXTENSION pgbench_ext UPDATE TO '0.2.0'" to load this file. \quit

-- version() is STABLE: a new library can be loaded under the same SQL objects.
-- (Qualified: pg_catalog comes first in the search path, and it has a
-- version() of its own.)
ALTER FUNCTION @extschema@.version() STABLE;

-- 0.1.0's COMMENT ON FUNCTION version() found pg_catalog.version(): the
-- comment goes to ours, and the server's gets its own back.
COMMENT ON FUNCTION @extschema@.version() IS
'version of the loaded pgbench_ext library; compare with pg_extension.extversion';
DO $$
BEGIN
    IF pg_catalog.obj_description('pg_catalog.version()'::pg_catalog.regprocedure, 'pg_proc')
       = 'version of the loaded pgbench_ext library; compare with pg_extension.extversion' THEN
        COMMENT ON FUNCTION pg_catalog.version() IS 'PostgreSQL version string';
    END IF;
END
$$;

-- Functions that resolve names at run time no longer see the caller's
-- schemas, and temporary objects come last.
ALTER FUNCTION @extschema@.environment() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION @extschema@.report() SET search_path = @extschema@, pg_catalog, pg_temp;

-- The experiments' verdict table had the name of the counters' report():
-- report(int, ...) is now experiment_report(int, ...), report_geomean()
-- experiment_geomean().
DROP FUNCTION @extschema@.report_geomean(int, text, float8, float8);
DROP FUNCTION @extschema@.report(int, text, float8, float8);

-- compare(): its changes for 0.2.0 go here, before experiment_report(),
-- which calls it.  (extension/sql/30_compare.sql is the fresh install's.)
-- BEGIN compare() 0.2.0
-- gains unit_a, unit_b and unit_kind and returns n_units and unit; a
-- function's arguments and result columns cannot change in place.
DROP FUNCTION compare(float8[], float8[], boolean, float8, float8, int[], int[]);

CREATE FUNCTION compare(
    a float8[],
    b float8[],
    higher_is_better boolean DEFAULT true,
    alpha float8 DEFAULT 0.05,
    noise float8 DEFAULT 0.01,
    round_a int[] DEFAULT NULL,
    round_b int[] DEFAULT NULL,
    unit_a int[] DEFAULT NULL,
    unit_b int[] DEFAULT NULL,
    unit_kind text DEFAULT 'instance pair')
RETURNS TABLE (
    estimate float8,
    ci_low float8,
    ci_high float8,
    change_pct float8,
    p_value float8,
    n_a int,
    n_b int,
    mde_pct float8,
    verdict text,
    reason text,
    n_pairs int,
    n_units int,
    unit text)
AS 'MODULE_PATHNAME', 'pgbench_ext_compare'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION compare(float8[], float8[], boolean, float8, float8, int[], int[], int[], int[], text) IS
'B against A from per-run measurements: ratio b/a with its CI, p, the smallest change the verdict would see (mde_pct) and the verdict (faster, slower, no change, insufficient). Unpaired: Hodges-Lehmann and Mann-Whitney. Given each run''s round, rounds with one run of each side are compared pair by pair (signed-rank test) once there are enough of them. Given each run''s unit (unit_a, unit_b: an instance pair or layout seed pair, named by unit_kind), one summary per unit and a t test across units. n_pairs counts the paired rounds, n_units the units of the test, unit says what they were';
-- END compare() 0.2.0

CREATE FUNCTION experiment_report(
    experiment int,
    baseline text DEFAULT NULL,
    alpha float8 DEFAULT 0.05,
    noise float8 DEFAULT 0.01)
RETURNS TABLE (
    script text,
    clients int,
    baseline_variant text,
    variant text,
    a_n int,
    a_median float8,
    a_ci_low float8,
    a_ci_high float8,
    b_n int,
    b_median float8,
    b_ci_low float8,
    b_ci_high float8,
    estimate float8,
    ci_low float8,
    ci_high float8,
    change_pct float8,
    p_value float8,
    n_pairs int,
    mde_pct float8,
    verdict text,
    reason text)
LANGUAGE plpgsql STABLE
-- the body names the extension's tables and functions unqualified; pg_temp
-- last, so that no temporary object can stand in for one of them
SET search_path = @extschema@, pg_catalog, pg_temp
AS $$
#variable_conflict use_column
BEGIN
IF NOT EXISTS (SELECT 1 FROM experiments e WHERE e.experiment_id = experiment_report.experiment) THEN
    RAISE EXCEPTION 'no imported experiment %', experiment_report.experiment
        USING ERRCODE = 'no_data_found',
              HINT = 'Import a results directory with "pgbench_ext import DIR"; the experiments table lists those imported.';
END IF;
IF experiment_report.baseline IS NOT NULL AND NOT EXISTS
    (SELECT 1 FROM variants v WHERE v.experiment_id = experiment_report.experiment AND v.variant = experiment_report.baseline) THEN
    RAISE EXCEPTION 'experiment % has no variant "%"', experiment_report.experiment, experiment_report.baseline
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = format('Its variants are %s.',
                              (SELECT string_agg(quote_ident(v.variant), ', ' ORDER BY v.position)
                               FROM variants v WHERE v.experiment_id = experiment_report.experiment));
END IF;
RETURN QUERY
WITH base AS (
    SELECT coalesce(experiment_report.baseline,
                    (SELECT v.variant FROM variants v
                     WHERE v.experiment_id = experiment_report.experiment
                     ORDER BY v.position LIMIT 1)) AS name
), cells AS (
    -- counted runs in run order, with their rounds: compare() pairs the
    -- rounds holding one run of each side, as the client does
    SELECT r.script, r.clients, r.variant,
           coalesce(array_agg(r.tps ORDER BY r.run_id)
                    FILTER (WHERE r.status = 'ok' AND NOT r.warmup AND r.tps > 0),
                    '{}') AS tps,
           coalesce(array_agg(r.round ORDER BY r.run_id)
                    FILTER (WHERE r.status = 'ok' AND NOT r.warmup AND r.tps > 0),
                    '{}') AS rounds
    FROM runs r
    WHERE r.experiment_id = experiment_report.experiment
    GROUP BY r.script, r.clients, r.variant
), script_order AS (
    SELECT s.value AS script, s.ord
    FROM experiments e,
         jsonb_array_elements_text(e.spec -> 'experiment' -> 'script') WITH ORDINALITY AS s(value, ord)
    WHERE e.experiment_id = experiment_report.experiment
)
SELECT a.script, a.clients, a.variant, b.variant,
       sa.n, sa.median, sa.ci_low, sa.ci_high,
       sb.n, sb.median, sb.ci_low, sb.ci_high,
       c.estimate, c.ci_low, c.ci_high, c.change_pct, c.p_value,
       c.n_pairs, c.mde_pct, c.verdict, c.reason
FROM base
JOIN cells a ON a.variant = base.name
JOIN cells b ON b.script = a.script AND b.clients = a.clients AND b.variant <> a.variant
JOIN variants vb ON vb.experiment_id = experiment_report.experiment AND vb.variant = b.variant
LEFT JOIN script_order so ON so.script = a.script
CROSS JOIN LATERAL summarize(a.tps, 1 - experiment_report.alpha) sa
CROSS JOIN LATERAL summarize(b.tps, 1 - experiment_report.alpha) sb
CROSS JOIN LATERAL compare(a.tps, b.tps, true, experiment_report.alpha, experiment_report.noise,
                           a.rounds, b.rounds) c
ORDER BY so.ord, a.clients, vb.position;
END
$$;

COMMENT ON FUNCTION experiment_report(int, text, float8, float8) IS
'the verdict table of an imported experiment: per (script, clients), each variant against the baseline (the first variant, or the one named), from the same C code as the client';

CREATE FUNCTION experiment_geomean(
    experiment int,
    baseline text DEFAULT NULL,
    alpha float8 DEFAULT 0.05,
    noise float8 DEFAULT 0.01)
RETURNS TABLE (
    variant text,
    median_tps float8,
    ratio float8)
LANGUAGE sql STABLE
SET search_path = @extschema@, pg_catalog, pg_temp
AS $$
    -- the geomean rows of the terminal table: over the cells in table order,
    -- the geomean of each variant's medians and of its ratios to the baseline
    WITH rows AS (
        SELECT r.*
        FROM experiment_report(experiment_geomean.experiment, experiment_geomean.baseline,
                    experiment_geomean.alpha, experiment_geomean.noise) WITH ORDINALITY AS r
    ), base AS (
        SELECT baseline_variant AS variant,
               geomean(array_agg(a_median ORDER BY ordinality) FILTER (WHERE a_median IS NOT NULL)) AS median_tps,
               1.0::float8 AS ratio
        FROM rows
        WHERE variant = (SELECT variant FROM rows ORDER BY ordinality LIMIT 1)
        GROUP BY baseline_variant
    ), others AS (
        SELECT r.variant,
               geomean(array_agg(r.b_median ORDER BY r.ordinality) FILTER (WHERE r.b_median IS NOT NULL)) AS median_tps,
               geomean(array_agg(r.estimate ORDER BY r.ordinality) FILTER (WHERE r.estimate IS NOT NULL)) AS ratio
        FROM rows r
        GROUP BY r.variant
    )
    SELECT g.variant, g.median_tps, g.ratio
    FROM (SELECT * FROM base UNION ALL SELECT * FROM others) g
    JOIN variants v ON v.experiment_id = experiment_geomean.experiment AND v.variant = g.variant
    ORDER BY v.position
$$;

COMMENT ON FUNCTION experiment_geomean(int, text, float8, float8) IS
'the geomean rows of experiment_report(), in specification order: per variant, the geomean of its cell medians and of its ratios to the baseline (1 for the baseline)';
