-- Experiments imported by "pgbench_ext import DIR": the results directory in
-- tables, to analyse from psql.  experiment_report() returns the rows of the
-- client's verdict table from the same C code (summarize() and compare(), and
-- under rounds = auto sequential_decide(), which replays the looks), so psql
-- and the terminal give the same digits for the same runs.

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
    machine jsonb,
    -- rounds per start of the servers (experiment.json's restart); 0: never
    restart_rounds int NOT NULL DEFAULT 0,
    -- rounds = auto: the plan of blocks and looks (experiment.json's
    -- "sequential"); NULL for a fixed number of rounds
    sequential jsonb,
    -- rounds = auto: the planned runs (experiment.json's "plan": run_id,
    -- round, ...), by which the blocks done are known
    plan jsonb
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
    -- the levels above the round: the build, its build seed, the server start
    build text,
    build_seed int,
    instance int,
    wall_s float8,
    PRIMARY KEY (experiment_id, run_id)
);

COMMENT ON TABLE runs IS
'one row per run of an imported experiment (runs.csv and runs/NNNN.json)';

-- rounds = auto: budget.csv, the seconds spent by the end of each block of
-- rounds, from which each look's information fraction comes.
CREATE TABLE budget_blocks (
    experiment_id int NOT NULL REFERENCES experiments ON DELETE CASCADE,
    block int NOT NULL,
    rounds int NOT NULL,
    spent_s float8 NOT NULL,
    PRIMARY KEY (experiment_id, block)
);

COMMENT ON TABLE budget_blocks IS
'one row per block of rounds of an imported rounds = auto experiment (budget.csv): the seconds spent by its end';

-- pg_dump keeps imported experiments.
SELECT pg_catalog.pg_extension_config_dump('experiments', '');
SELECT pg_catalog.pg_extension_config_dump('experiments_experiment_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('variants', '');
SELECT pg_catalog.pg_extension_config_dump('runs', '');
SELECT pg_catalog.pg_extension_config_dump('budget_blocks', '');

-- rounds = auto: the decision of a cell replayed look by look from compare()'s
-- arguments (the runs of all rounds), the plan experiment.json records, the
-- seconds budget.csv records per block (NaN for a block it lacks) and the
-- blocks done, by the C code the client's runner and report use.
CREATE FUNCTION sequential_decide(
    a float8[],
    b float8[],
    higher_is_better boolean,
    alpha float8,
    noise float8,
    round_a int[],
    round_b int[],
    unit_a int[],
    unit_b int[],
    unit_kind text,
    budget_s int,
    block_rounds int,
    first_look_block int,
    max_blocks int,
    max_looks int,
    spending text,
    information text,
    block_spent_s float8[],
    blocks_done int,
    reference float8 DEFAULT NULL)
RETURNS TABLE (
    look int,
    max_looks int,
    block int,
    rounds int,
    decision text,
    estimate float8,
    ci_low float8,
    ci_high float8,
    change_pct float8,
    p_value float8,
    n_pairs int,
    mde_pct float8,
    verdict text,
    reason text,
    n_units int,
    unit text,
    look_alpha float8,
    alpha_spent float8,
    information_fraction float8)
AS 'MODULE_PATHNAME', 'pgbench_ext_sequential_decide'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION sequential_decide(float8[], float8[], boolean, float8, float8, int[], int[], int[], int[], text, int, int, int, int, int, text, text, float8[], int, float8) IS
'rounds = auto: the first look that decides (faster, slower, same), else the last (undecided), after each block of the plan up to blocks_done, each on the rounds seen by then at its group-sequential level (look_alpha, its CI at 1 - look_alpha); one row, with NULL figures when no look could be made; no row when blocks_done is NULL. With a reference ratio (an experiment''s reference key) each look tests which side of it B/A lies: faster above it, slower below, no same';

-- The verdict table of one experiment: each variant against the baseline
-- in each (script, clients) cell, counting runs with status ok outside
-- warmups, as the client does; then, with build seeds, every seed of
-- each variant against every seed of the first ("B@seed*" vs "A@seed*").
-- Each comparison is made across the unit the client uses: rounds on one
-- server, instance pairs across servers restarted during the experiment
-- (a run's unit: instance of A * 32768 + instance of B in its round),
-- build seed pairs over every seed.
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
    reason text,
    n_units int,
    unit text,
    design text,
    look int,
    max_looks int,
    look_rounds int,
    look_alpha float8,
    all_rounds_estimate float8,
    all_rounds_ci_low float8,
    all_rounds_ci_high float8,
    all_rounds_p_value float8,
    all_rounds_verdict text)
LANGUAGE plpgsql STABLE
-- the body names the extension's tables and functions unqualified; pg_temp
-- last, so that no temporary object can stand in for one of them
SET search_path = @extschema@, pg_catalog, pg_temp
-- a plan over one experiment's runs: compiling it with JIT (its cost is above
-- jit_above_cost) took 2 s of a 20 ms report
SET jit = off
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
), vars AS (
    -- each variant's server (its own, or that of cluster = OTHER) and, for
    -- "B@seed2", its base name and build seed
    SELECT v.variant, v.position, coalesce(v.spec ->> 'cluster', v.variant) AS server,
           CASE WHEN s.digits THEN left(v.variant, s.p - 1) END AS seed_base,
           CASE WHEN s.digits THEN substr(v.variant, s.p + 5)::int ELSE 0 END AS seed
    FROM variants v,
         LATERAL (SELECT position('@seed' IN v.variant) AS p) m,
         LATERAL (SELECT m.p AS p, m.p > 0 AND substr(v.variant, m.p + 5) ~ '^[0-9]{1,9}$'
                         AND substr(v.variant, m.p + 5)::int >= 1 AS digits) s
    WHERE v.experiment_id = experiment_report.experiment
), counted AS (
    -- the counted runs, with their levels (results without them: instance 1)
    SELECT r.run_id, r.script, r.clients, r.variant, r.tps, r.round, vs.position,
           vs.seed_base, vs.seed AS name_seed,
           coalesce(r.instance, 1) AS instance,
           coalesce(nullif(r.build_seed, 0), vs.seed) AS seed
    FROM runs r JOIN vars vs ON vs.variant = r.variant
    WHERE r.experiment_id = experiment_report.experiment
      AND r.status = 'ok' AND NOT r.warmup AND r.tps > 0
), present AS (
    SELECT DISTINCT r.script, r.clients, r.variant
    FROM runs r
    WHERE r.experiment_id = experiment_report.experiment
), pooled_base AS (
    -- every seed pooled: when the first variant has seeds and the second is its seed 2
    SELECT f.seed_base AS name
    FROM vars f JOIN vars s ON s.position = 2
    WHERE f.position = 1 AND f.seed_base IS NOT NULL AND s.variant = f.seed_base || '@seed2'
), pairs AS (
    -- B@seedK against the first variant's build of seed K (as the client's
    -- report_baseline_of()), every other variant against the baseline
    SELECT p.script, p.clients, an.a_name, p.variant AS b_name,
           NULL::text AS a_base, NULL::text AS b_base, vb.position AS ord, false AS every_seed,
           CASE WHEN va.server = vb.server OR e.restart_rounds = 0 THEN NULL
                ELSE 'instance pair' END AS kind,
           va.server <> vb.server AND e.restart_rounds = 0 AS started_once
    FROM base b
    JOIN present pa ON pa.variant = b.name
    JOIN present p ON p.script = pa.script AND p.clients = pa.clients AND p.variant <> b.name
    JOIN vars vb ON vb.variant = p.variant
    CROSS JOIN LATERAL (
        SELECT coalesce((SELECT sv.variant
                         FROM vars fv JOIN vars sv ON sv.seed_base = fv.seed_base AND sv.seed = vb.seed
                         WHERE fv.position = 1 AND fv.variant = b.name
                           AND vb.seed > 0 AND vb.seed_base <> fv.seed_base),
                        b.name) AS a_name) an
    JOIN vars va ON va.variant = an.a_name
    JOIN experiments e ON e.experiment_id = experiment_report.experiment
    UNION ALL
    SELECT c.script, c.clients, pb.name || '@seed*', po.seed_base || '@seed*',
           pb.name, po.seed_base, po.position, true, 'build seed pair', false
    FROM pooled_base pb
    JOIN vars po ON po.seed = 2 AND po.seed_base IS NOT NULL AND po.seed_base <> pb.name
    CROSS JOIN (SELECT DISTINCT present.script, present.clients FROM present) c
), script_order AS (
    SELECT s.value AS script, s.ord
    FROM experiments e,
         jsonb_array_elements_text(e.spec -> 'experiment' -> 'script') WITH ORDINALITY AS s(value, ord)
    WHERE e.experiment_id = experiment_report.experiment
), alone AS (
    -- the instance of a variant's one counted run in a round of a cell
    -- (NULL: none, or several)
    SELECT c.script, c.clients, c.variant, c.round,
           CASE WHEN count(*) = 1 THEN min(c.instance) END AS instance
    FROM counted c
    GROUP BY c.script, c.clients, c.variant, c.round
), side_runs AS (
    -- per pair and side (A: is_a), the runs in run order (variant by
    -- variant for every seed), their rounds and their units: an instance
    -- pair is A's instance * 32768 + B's in the run's round
    SELECT pr.script, pr.clients, pr.a_name, pr.b_name, s.is_a,
           coalesce(array_agg(c.tps ORDER BY c.position, c.run_id)
                    FILTER (WHERE c.run_id IS NOT NULL), '{}') AS tps,
           coalesce(array_agg(c.round ORDER BY c.position, c.run_id)
                    FILTER (WHERE c.run_id IS NOT NULL), '{}') AS rounds,
           coalesce(array_agg(CASE WHEN pr.every_seed THEN c.seed
                                   WHEN s.is_a THEN c.instance * 32768 + coalesce(o.instance, 0)
                                   ELSE coalesce(o.instance, 0) * 32768 + c.instance END
                              ORDER BY c.position, c.run_id)
                    FILTER (WHERE c.run_id IS NOT NULL), '{}') AS units
    FROM pairs pr
    CROSS JOIN (VALUES (true), (false)) s(is_a)
    LEFT JOIN counted c
      ON c.script = pr.script AND c.clients = pr.clients
     AND CASE WHEN pr.every_seed
              THEN c.name_seed > 0 AND c.seed_base = CASE WHEN s.is_a THEN pr.a_base ELSE pr.b_base END
              ELSE c.variant = CASE WHEN s.is_a THEN pr.a_name ELSE pr.b_name END END
    LEFT JOIN alone o
      ON NOT pr.every_seed AND o.script = c.script AND o.clients = c.clients AND o.round = c.round
     AND o.variant = CASE WHEN s.is_a THEN pr.b_name ELSE pr.a_name END
    GROUP BY pr.script, pr.clients, pr.a_name, pr.b_name, s.is_a
), sides AS (
    SELECT pr.*, a.tps AS a_tps, a.rounds AS a_rounds, a.units AS a_units,
           b.tps AS b_tps, b.rounds AS b_rounds, b.units AS b_units
    FROM pairs pr
    JOIN side_runs a ON a.is_a AND (a.script, a.clients, a.a_name, a.b_name) = (pr.script, pr.clients, pr.a_name, pr.b_name)
    JOIN side_runs b ON NOT b.is_a AND (b.script, b.clients, b.a_name, b.b_name) = (pr.script, pr.clients, pr.a_name, pr.b_name)
), done AS (
    -- rounds = auto: the blocks whose planned runs are all in runs.csv, none
    -- interrupted (as the client's report), and what budget.csv records
    SELECT e.sequential AS p,
           least((e.sequential ->> 'max_blocks')::int,
                 coalesce((SELECT min((pr.round - 1) / (e.sequential ->> 'block_rounds')::int)
                           FROM jsonb_to_recordset(e.plan) AS pr(run_id int, round int)
                           LEFT JOIN runs r ON r.experiment_id = e.experiment_id AND r.run_id = pr.run_id
                           WHERE pr.round > 0 AND (r.run_id IS NULL OR r.status = 'interrupted')),
                          (e.sequential ->> 'max_blocks')::int)) AS blocks,
           coalesce((SELECT max(bb.block) FROM budget_blocks bb
                     WHERE bb.experiment_id = e.experiment_id), 0) AS recorded,
           coalesce(e.sequential ->> 'information' = 'budget spent', false) AS by_time,
           (e.spec -> 'experiment' ->> 'reference')::float8 AS reference
    FROM experiments e
    WHERE e.experiment_id = experiment_report.experiment
      AND e.spec -> 'experiment' ->> 'rounds' = 'auto' AND e.sequential IS NOT NULL
), seq AS (
    -- the looks spend alpha by the budget's clock, which only budget.csv
    -- records: none past its last block, and none at all without it
    SELECT d.p, d.reference,
           CASE WHEN d.by_time THEN least(d.blocks, d.recorded) ELSE d.blocks END AS blocks_done,
           (SELECT array_agg(coalesce(bb.spent_s, 'NaN') ORDER BY g)
            FROM generate_series(1, least(d.recorded, (d.p ->> 'max_blocks')::int)) g
            LEFT JOIN budget_blocks bb ON bb.experiment_id = experiment_report.experiment AND bb.block = g) AS block_spent_s
    FROM done d
    WHERE NOT (d.by_time AND d.recorded = 0 AND d.blocks > 0)
)
-- under rounds = auto each comparison's estimate, CI, p and verdict are its
-- deciding (or last) look's, as the client's; all rounds compared as if
-- their number had been fixed are the all_rounds_* columns, not the verdict
SELECT sd.script, sd.clients, sd.a_name, sd.b_name,
       sa.n, sa.median, sa.ci_low, sa.ci_high,
       sb.n, sb.median, sb.ci_low, sb.ci_high,
       CASE WHEN q.p IS NULL THEN c.estimate ELSE l.estimate END,
       CASE WHEN q.p IS NULL THEN c.ci_low ELSE l.ci_low END,
       CASE WHEN q.p IS NULL THEN c.ci_high ELSE l.ci_high END,
       CASE WHEN q.p IS NULL THEN c.change_pct ELSE l.change_pct END,
       CASE WHEN q.p IS NULL THEN c.p_value ELSE l.p_value END,
       CASE WHEN q.p IS NULL THEN c.n_pairs ELSE coalesce(l.n_pairs, 0) END,
       CASE WHEN q.p IS NULL THEN c.mde_pct ELSE l.mde_pct END,
       -- different servers started once: no unit to judge across (as the client)
       CASE WHEN sd.started_once THEN 'insufficient' WHEN q.p IS NULL THEN c.verdict
            -- against the experiment's reference ratio: which side of it, as the client says
            WHEN q.reference IS NOT NULL AND l.decision IN ('faster', 'slower')
            THEN format('%s the reference %s%%', CASE l.decision WHEN 'faster' THEN 'above' ELSE 'below' END,
                        to_char(100 * (q.reference - 1), 'FMSG990.00'))
            ELSE l.decision END,
       CASE WHEN sd.started_once
            THEN 'different servers, each started once: one pair of starts, whose offset no CI of rounds holds; set restart = auto (or N rounds)'
            WHEN q.p IS NULL THEN c.reason ELSE l.reason END,
       CASE WHEN q.p IS NULL THEN c.n_units ELSE coalesce(l.n_units, 0) END,
       CASE WHEN q.p IS NULL THEN c.unit ELSE coalesce(l.unit, c.unit) END,
       CASE WHEN q.p IS NULL THEN 'fixed' ELSE 'rounds = auto' END,
       l.look, l.max_looks, l.rounds, l.look_alpha,
       CASE WHEN q.p IS NOT NULL THEN c.estimate END,
       CASE WHEN q.p IS NOT NULL THEN c.ci_low END,
       CASE WHEN q.p IS NOT NULL THEN c.ci_high END,
       CASE WHEN q.p IS NOT NULL THEN c.p_value END,
       CASE WHEN q.p IS NOT NULL THEN c.verdict END
FROM sides sd
LEFT JOIN script_order so ON so.script = sd.script
LEFT JOIN seq q ON true
CROSS JOIN LATERAL summarize(sd.a_tps, 1 - experiment_report.alpha) sa
CROSS JOIN LATERAL summarize(sd.b_tps, 1 - experiment_report.alpha) sb
CROSS JOIN LATERAL compare(sd.a_tps, sd.b_tps, true, experiment_report.alpha, experiment_report.noise,
                           sd.a_rounds, sd.b_rounds,
                           CASE WHEN sd.kind IS NOT NULL THEN sd.a_units END,
                           CASE WHEN sd.kind IS NOT NULL THEN sd.b_units END,
                           coalesce(sd.kind, 'instance pair')) c
-- no row (blocks_done NULL) for a fixed design or a cell no look can decide
LEFT JOIN LATERAL sequential_decide(sd.a_tps, sd.b_tps, true, experiment_report.alpha, experiment_report.noise,
                           sd.a_rounds, sd.b_rounds,
                           CASE WHEN sd.kind IS NOT NULL THEN sd.a_units END,
                           CASE WHEN sd.kind IS NOT NULL THEN sd.b_units END,
                           coalesce(sd.kind, 'instance pair'),
                           (q.p ->> 'budget_s')::int, (q.p ->> 'block_rounds')::int,
                           (q.p ->> 'first_look_block')::int, (q.p ->> 'max_blocks')::int,
                           (q.p ->> 'max_looks')::int, q.p ->> 'spending',
                           coalesce(q.p ->> 'information', 'blocks'), q.block_spent_s,
                           CASE WHEN NOT sd.started_once THEN q.blocks_done END, q.reference) l ON true
ORDER BY sd.every_seed, so.ord, sd.clients, sd.ord;
END
$$;

COMMENT ON FUNCTION experiment_report(int, text, float8, float8) IS
'the verdict table of an imported experiment: per (script, clients), each variant against the baseline (the first variant, or the one named), and with build seeds every seed against every seed of the first variant (B@seed*), across the unit the client uses (rounds on one server, instance pairs across restarted servers, build seed pairs), from the same C code as the client; under rounds = auto (design) the estimate, CI, p and verdict (faster, slower, same, undecided) are the deciding look''s (look of max_looks, after look_rounds rounds, at level look_alpha), and all rounds compared as if their number had been fixed are the all_rounds_* columns, not the verdict';

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
-- a plan over one experiment's runs: compiling it with JIT (its cost is above
-- jit_above_cost) took 2 s of a 20 ms report
SET jit = off
AS $$
    -- the geomean rows of the terminal table: over the cells in table order,
    -- the geomean of each variant's medians and of its ratios to the baseline
    WITH rows AS (
        SELECT r.*
        FROM experiment_report(experiment_geomean.experiment, experiment_geomean.baseline,
                    experiment_geomean.alpha, experiment_geomean.noise) WITH ORDINALITY AS r
        -- not the rows of every seed pooled ("B@seed*"): no variant is called so
        WHERE right(r.variant, 1) <> '*'
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
