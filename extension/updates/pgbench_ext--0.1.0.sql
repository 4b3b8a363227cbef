/* pgbench_ext--0.1.0.sql — the install script of version 0.1.0, kept as released so that it can be updated from */
\echo Use "CREATE EXTENSION pgbench_ext" to load this file. \quit

-- from extension/sql/00_base.sql
-- Handshake and environment: objects that work without shared_preload_libraries.

CREATE FUNCTION version()
RETURNS text
AS 'MODULE_PATHNAME', 'pgbench_ext_version'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION version() IS
'version of the loaded pgbench_ext library; compare with pg_extension.extversion';

CREATE FUNCTION environment()
RETURNS TABLE (category text, name text, value text, note text)
AS 'MODULE_PATHNAME', 'pgbench_ext_environment'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION environment() IS
'server build, settings and host facts that can change a benchmark result';

-- from extension/sql/10_counters.sql
-- Counters, wait profile and hardware counters (extension/counters.c,
-- hooks.c, wait_sampler.c, report.c).  All but hw_status() need the library
-- in shared_preload_libraries and say so otherwise.

CREATE FUNCTION counters()
RETURNS TABLE (scope text, metric text, value float8)
AS 'MODULE_PATHNAME', 'pgbench_ext_counters'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION counters() IS
'statement, transaction, CPU and hardware counters since the last reset, as (scope, metric, value)';

CREATE FUNCTION wait_profile()
RETURNS TABLE (backend_type text, wait_event_type text, wait_event text,
			   samples bigint, pct float8)
AS 'MODULE_PATHNAME', 'pgbench_ext_wait_profile'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION wait_profile() IS
'wait-event samples per backend type since the last reset; pct of that backend type''s samples';

CREATE FUNCTION report()
RETURNS TABLE (section text, line text)
AS 'MODULE_PATHNAME', 'pgbench_ext_report'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION report() IS
'the counters for reading in psql: per statement type, per transaction, top waits, hardware counters';

CREATE FUNCTION hw_status()
RETURNS TABLE (counter text, kind text, available boolean, reason text)
AS 'MODULE_PATHNAME', 'pgbench_ext_hw_status'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION hw_status() IS
'which perf_event counters this backend can read, and why not where it cannot';

CREATE FUNCTION reset()
RETURNS void
AS 'MODULE_PATHNAME', 'pgbench_ext_reset'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION reset() IS
'zero all counters and the wait profile; GRANT EXECUTE to let other roles do it';

-- Resetting destroys everyone's figures: superusers only unless granted.
REVOKE ALL ON FUNCTION reset() FROM PUBLIC;

-- from extension/sql/20_snapshot.sql
-- Snapshot and cache-line instrumentation (snapshot_bench.c, struct_layout.c,
-- struct_placement.c, cache_info.c).  None of it needs shared_preload_libraries.

CREATE FUNCTION snapshot_bench(calls int DEFAULT 100000,
                               mode text DEFAULT 'full',
                               batches int DEFAULT 20)
RETURNS TABLE (mode text, calls int, batches int,
               ns_min float8, ns_median float8, ns_p90 float8, ns_max float8,
               timer_overhead_ns float8,
               xcnt int, subxcnt int, suboverflowed bool, procs int,
               cycles_per_call float8, instructions_per_call float8,
               l1d_misses_per_call float8, hw_reason text)
AS 'MODULE_PATHNAME', 'pgbench_ext_snapshot_bench'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION snapshot_bench(int, text, int) IS
'ns per GetSnapshotData() call over batches; mode full (proc-array scan) or reuse (cached path)';

-- It holds ProcArrayLock in a tight loop: not for every role on a live server.
REVOKE ALL ON FUNCTION snapshot_bench(int, text, int) FROM PUBLIC;

CREATE FUNCTION struct_layout(struct_name text DEFAULT NULL)
RETURNS TABLE (struct_name text, field text, type text, byte_offset int, size int,
               line_64 int, line_pg int, straddles bool)
AS 'MODULE_PATHNAME', 'pgbench_ext_struct_layout'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION struct_layout(text) IS
'offsets, sizes and cache lines of the fields of SnapshotData, PGPROC, PROC_HDR and VariableCacheData as compiled; field (total) is sizeof the struct';

CREATE FUNCTION struct_placement()
RETURNS TABLE (object text, struct_name text, address text, mod_64 int, mod_pg int,
               size bigint)
AS 'MODULE_PATHNAME', 'pgbench_ext_struct_placement'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION struct_placement() IS
'addresses of the live ProcGlobal, PGPROC, ShmemVariableCache and dense xid arrays modulo 64 and PG_CACHE_LINE_SIZE';

-- Addresses reveal the server's memory map.
REVOKE ALL ON FUNCTION struct_placement() FROM PUBLIC;

CREATE FUNCTION cache_info()
RETURNS TABLE (name text, value text, bytes bigint, source text)
AS 'MODULE_PATHNAME', 'pgbench_ext_cache_info'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

COMMENT ON FUNCTION cache_info() IS
'CPU cache line and cache sizes (sysfs or sysconf), PG_CACHE_LINE_SIZE, ALIGNOF_BUFFER, CPU model';

-- from extension/sql/30_compare.sql
-- Statistics from psql: the same code as the client's tables (common/stats*.c).
-- Needs no shared memory: works without shared_preload_libraries.

CREATE FUNCTION compare(
    a float8[],
    b float8[],
    higher_is_better boolean DEFAULT true,
    alpha float8 DEFAULT 0.05,
    noise float8 DEFAULT 0.01,
    round_a int[] DEFAULT NULL,
    round_b int[] DEFAULT NULL)
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
    n_pairs int)
AS 'MODULE_PATHNAME', 'pgbench_ext_compare'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION compare(float8[], float8[], boolean, float8, float8, int[], int[]) IS
'B against A from per-run measurements: Hodges-Lehmann ratio b/a with its distribution-free CI, Mann-Whitney p, minimum detectable effect and verdict (faster, slower, no change, insufficient); given each run''s round, rounds with one run of each side are compared pair by pair (signed-rank test) once there are enough of them, and n_pairs says how many';

-- from extension/sql/40_experiments.sql
-- Experiments imported by "pgbench_ext import DIR": the results directory in
-- tables, to analyse from psql.  report() returns the rows of the client's
-- verdict table from the same C code (summarize() and compare()), so psql and
-- the terminal give the same digits for the same runs.

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
-- baseline unless report() is told otherwise.
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
CREATE FUNCTION report(
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
-- the body names the extension's tables and functions unqualified
SET search_path = @extschema@, pg_catalog
AS $$
#variable_conflict use_column
BEGIN
IF NOT EXISTS (SELECT 1 FROM experiments e WHERE e.experiment_id = report.experiment) THEN
    RAISE EXCEPTION 'no imported experiment %', report.experiment
        USING ERRCODE = 'no_data_found',
              HINT = 'Import a results directory with "pgbench_ext import DIR"; the experiments table lists those imported.';
END IF;
IF report.baseline IS NOT NULL AND NOT EXISTS
    (SELECT 1 FROM variants v WHERE v.experiment_id = report.experiment AND v.variant = report.baseline) THEN
    RAISE EXCEPTION 'experiment % has no variant "%"', report.experiment, report.baseline
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = format('Its variants are %s.',
                              (SELECT string_agg(quote_ident(v.variant), ', ' ORDER BY v.position)
                               FROM variants v WHERE v.experiment_id = report.experiment));
END IF;
RETURN QUERY
WITH base AS (
    SELECT coalesce(report.baseline,
                    (SELECT v.variant FROM variants v
                     WHERE v.experiment_id = report.experiment
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
    WHERE r.experiment_id = report.experiment
    GROUP BY r.script, r.clients, r.variant
), script_order AS (
    SELECT s.value AS script, s.ord
    FROM experiments e,
         jsonb_array_elements_text(e.spec -> 'experiment' -> 'script') WITH ORDINALITY AS s(value, ord)
    WHERE e.experiment_id = report.experiment
)
SELECT a.script, a.clients, a.variant, b.variant,
       sa.n, sa.median, sa.ci_low, sa.ci_high,
       sb.n, sb.median, sb.ci_low, sb.ci_high,
       c.estimate, c.ci_low, c.ci_high, c.change_pct, c.p_value,
       c.n_pairs, c.mde_pct, c.verdict, c.reason
FROM base
JOIN cells a ON a.variant = base.name
JOIN cells b ON b.script = a.script AND b.clients = a.clients AND b.variant <> a.variant
JOIN variants vb ON vb.experiment_id = report.experiment AND vb.variant = b.variant
LEFT JOIN script_order so ON so.script = a.script
CROSS JOIN LATERAL summarize(a.tps, 1 - report.alpha) sa
CROSS JOIN LATERAL summarize(b.tps, 1 - report.alpha) sb
CROSS JOIN LATERAL compare(a.tps, b.tps, true, report.alpha, report.noise,
                           a.rounds, b.rounds) c
ORDER BY so.ord, a.clients, vb.position;
END
$$;

COMMENT ON FUNCTION report(int, text, float8, float8) IS
'the verdict table of an imported experiment: per (script, clients), each variant against the baseline (the first variant, or the one named), from the same C code as the client';

CREATE FUNCTION report_geomean(
    experiment int,
    baseline text DEFAULT NULL,
    alpha float8 DEFAULT 0.05,
    noise float8 DEFAULT 0.01)
RETURNS TABLE (
    variant text,
    median_tps float8,
    ratio float8)
LANGUAGE sql STABLE
SET search_path = @extschema@, pg_catalog
AS $$
    -- the geomean rows of the terminal table: over the cells in table order,
    -- the geomean of each variant's medians and of its ratios to the baseline
    WITH rows AS (
        SELECT r.*
        FROM report(report_geomean.experiment, report_geomean.baseline,
                    report_geomean.alpha, report_geomean.noise) WITH ORDINALITY AS r
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
    JOIN variants v ON v.experiment_id = report_geomean.experiment AND v.variant = g.variant
    ORDER BY v.position
$$;

COMMENT ON FUNCTION report_geomean(int, text, float8, float8) IS
'the geomean rows of report(), in specification order: per variant, the geomean of its cell medians and of its ratios to the baseline (1 for the baseline)';
