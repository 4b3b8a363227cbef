-- Experiments imported by "pgbench_ext import DIR": the results directory in
-- tables, to analyse from psql.  experiment_report() returns the rows of the
-- client's verdict table from the same C code (summarize() and compare()), so
-- psql and the terminal give the same digits for the same runs.

CREATE FUNCTION summarize(x float8[], level float8 DEFAULT 0.95)
RETURNS TABLE (
    n int,
    median float8,
    ci_low float8,
    ci_high float8,
    ci_confidence float8,
    mean float8,
    stddev float8,
    cv float8,
    mad float8,
    min float8,
    max float8)
AS 'MODULE_PATHNAME', 'pgbench_ext_summarize'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION summarize(float8[], float8) IS
'median of per-run measurements with its distribution-free CI at the level asked (NULL when too few runs), mean, sd, CV, MAD, min and max';

CREATE FUNCTION geomean(x float8[])
RETURNS float8
AS 'MODULE_PATHNAME', 'pgbench_ext_geomean'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION geomean(float8[]) IS
'exp(mean(log x)) of positive measurements, as the verdict table''s geomean row; NULL for none';

CREATE TABLE experiments (
    experiment_id serial PRIMARY KEY,
    source_dir text NOT NULL,
    imported_at timestamptz NOT NULL DEFAULT now(),
    pgbench_ext_version text,
    written_at text,
    spec jsonb NOT NULL,
    machine jsonb
);

COMMENT ON TABLE experiments IS
'one row per imported results directory (experiment.json)';

-- position: the variant's place in the specification; the first is the
-- baseline unless experiment_report() is told otherwise.
CREATE TABLE variants (
    experiment_id int NOT NULL REFERENCES experiments ON DELETE CASCADE,
    variant text NOT NULL,
    position int NOT NULL,
    spec jsonb NOT NULL,
    environment jsonb,
    pg_config jsonb,
    PRIMARY KEY (experiment_id, variant)
);

-- The columns of runs.csv, plus detail: runs/NNNN.json (counters, waits).
CREATE TABLE runs (
    experiment_id int NOT NULL REFERENCES experiments ON DELETE CASCADE,
    run_id int NOT NULL,
    round int,
    variant text NOT NULL,
    script text NOT NULL,
    clients int NOT NULL,
    jobs int,
    warmup boolean NOT NULL DEFAULT false,
    started_at timestamptz,
    duration_s float8,
    reset_s float8,
    tps float8,
    latency_avg_ms float8,
    latency_stddev_ms float8,
    transactions bigint,
    failed_tx bigint,
    status text NOT NULL,
    checkpoints_during int,
    autovacuum_during int,
    cpu_user_us_per_tx float8,
    cpu_sys_us_per_tx float8,
    voluntary_switches_per_tx float8,
    involuntary_switches_per_tx float8,
    blks_hit float8,
    blks_read float8,
    wal_bytes float8,
    reason text,
    detail jsonb,
    PRIMARY KEY (experiment_id, run_id)
);

COMMENT ON TABLE runs IS
'one row per run of an imported experiment (runs.csv and runs/NNNN.json)';

-- pg_dump keeps imported experiments.
SELECT pg_catalog.pg_extension_config_dump('experiments', '');
SELECT pg_catalog.pg_extension_config_dump('experiments_experiment_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('variants', '');
SELECT pg_catalog.pg_extension_config_dump('runs', '');

-- The verdict table of one experiment: each variant against the baseline
-- in each (script, clients) cell, counting runs with status ok outside
-- warmup rounds, as the client does.
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
