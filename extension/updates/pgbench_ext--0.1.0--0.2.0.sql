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
'B against A from per-run measurements: ratio b/a with its CI, p, the smallest change the verdict would see (mde_pct) and the verdict (faster, slower, no change, insufficient). Unpaired: Hodges-Lehmann and Mann-Whitney. Given each run''s round, rounds with one run of each side are compared pair by pair (signed-rank test) once there are enough of them. Given each run''s unit (unit_a, unit_b: an instance pair or build seed pair, named by unit_kind), one summary per unit and a t test across units. n_pairs counts the paired rounds, n_units the units of the test, unit says what they were';
-- END compare() 0.2.0

-- The levels of each run (build, build seed, server start) and its wall
-- time; the experiment's rounds per start of the servers.
ALTER TABLE runs ADD COLUMN build text, ADD COLUMN build_seed int,
    ADD COLUMN instance int, ADD COLUMN wall_s float8;
ALTER TABLE experiments ADD COLUMN restart_rounds int NOT NULL DEFAULT 0;

-- rounds = auto: the plan of looks and the planned runs (experiment.json),
-- and budget.csv, from which experiment_report() replays the looks.
ALTER TABLE experiments ADD COLUMN sequential jsonb, ADD COLUMN plan jsonb;

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

-- Profiles of imported experiments (profile = counted or sampled): what
-- "pgbench_ext import DIR" loads from runs/NNNN.profile.json, and the
-- per-function comparison of two variants, from the same C code as the
-- client's report (compare(), summarize(), fdr()), so that psql and the
-- terminal give the same digits.

CREATE FUNCTION fdr(
    p float8[],
    ci_low float8[],
    ci_high float8[],
    alpha float8 DEFAULT 0.05,
    noise float8 DEFAULT 0.01)
RETURNS TABLE (
    item int,
    q_value float8,
    discovery boolean)
AS 'MODULE_PATHNAME', 'pgbench_ext_fdr'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION fdr(float8[], float8[], float8[], float8, float8) IS
'Benjamini-Hochberg q-values of many comparisons (element i of each array is comparison i''s p-value and CI of the ratio), and whether each is a discovery: q < alpha and the whole CI beyond the noise threshold';

-- One row per event of each profiled run; position 1 is the event
-- functions are compared on (Ir, or the sampled event).  Per transaction;
-- floor_per_tx is what a function the run did not see counts as.
CREATE TABLE profile_runs (
    experiment_id int NOT NULL,
    run_id int NOT NULL,
    event text NOT NULL,
    position int NOT NULL,
    mode text NOT NULL,
    transactions bigint,
    total_per_tx float8 NOT NULL,
    floor_per_tx float8 NOT NULL,
    samples bigint,
    unresolved bigint,
    PRIMARY KEY (experiment_id, run_id, event),
    FOREIGN KEY (experiment_id, run_id) REFERENCES runs ON DELETE CASCADE
);

COMMENT ON TABLE profile_runs IS
'the totals per transaction of each profiled run of an imported experiment, one row per event';

CREATE TABLE profile_functions (
    experiment_id int NOT NULL,
    run_id int NOT NULL,
    event text NOT NULL,
    function_name text NOT NULL,
    object text,
    self_per_tx float8 NOT NULL,
    inclusive_per_tx float8,
    PRIMARY KEY (experiment_id, run_id, event, function_name),
    FOREIGN KEY (experiment_id, run_id, event) REFERENCES profile_runs ON DELETE CASCADE
);

COMMENT ON TABLE profile_functions IS
'per profiled run and event, each function''s own (self) and inclusive cost per transaction; those without a symbol are one row per object, "[unknown in OBJECT]"';

CREATE TABLE profile_stacks (
    experiment_id int NOT NULL,
    run_id int NOT NULL,
    stack text NOT NULL,
    value float8 NOT NULL,
    PRIMARY KEY (experiment_id, run_id, stack),
    FOREIGN KEY (experiment_id, run_id) REFERENCES runs ON DELETE CASCADE
);

COMMENT ON TABLE profile_stacks IS
'per profiled run, folded stacks ("caller;callee") with their cost per transaction of the first event';

SELECT pg_catalog.pg_extension_config_dump('profile_runs', '');
SELECT pg_catalog.pg_extension_config_dump('profile_functions', '');
SELECT pg_catalog.pg_extension_config_dump('profile_stacks', '');

-- Each variant (or the one named) against the baseline, function by
-- function, in every (script, clients) cell: the functions whose median
-- self cost is at least min_share of a side's median total, compared with
-- compare() on the same counted runs and rounds as report(), costs
-- (higher_is_better false); q-values over a cell's functions by fdr().
CREATE FUNCTION profile_compare(
    experiment int,
    variant_name text DEFAULT NULL,
    baseline text DEFAULT NULL,
    min_share float8 DEFAULT 0.01,
    alpha float8 DEFAULT 0.05,
    noise float8 DEFAULT 0.01)
RETURNS TABLE (
    script text,
    clients int,
    baseline_variant text,
    variant text,
    function_name text,
    object text,
    a_median float8,
    b_median float8,
    change float8,
    estimate float8,
    ci_low float8,
    ci_high float8,
    p_value float8,
    q_value float8,
    n_pairs int,
    changed boolean)
LANGUAGE plpgsql STABLE
-- the body names the extension's tables and functions unqualified
SET search_path = @extschema@, pg_catalog, pg_temp
-- a plan over one experiment's runs: compiling it with JIT (its cost is above
-- jit_above_cost) took 2 s of a 20 ms report
SET jit = off
AS $$
#variable_conflict use_column
DECLARE
    base text;
BEGIN
IF NOT EXISTS (SELECT 1 FROM experiments e WHERE e.experiment_id = profile_compare.experiment) THEN
    RAISE EXCEPTION 'no imported experiment %', profile_compare.experiment
        USING ERRCODE = 'no_data_found',
              HINT = 'Import a results directory with "pgbench_ext import DIR"; the experiments table lists those imported.';
END IF;
FOREACH base IN ARRAY ARRAY[profile_compare.baseline, profile_compare.variant_name] LOOP
    IF base IS NOT NULL AND NOT EXISTS
        (SELECT 1 FROM variants v WHERE v.experiment_id = profile_compare.experiment AND v.variant = base) THEN
        RAISE EXCEPTION 'experiment % has no variant "%"', profile_compare.experiment, base
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Its variants are %s.',
                                  (SELECT string_agg(quote_ident(v.variant), ', ' ORDER BY v.position)
                                   FROM variants v WHERE v.experiment_id = profile_compare.experiment));
    END IF;
END LOOP;
IF NOT EXISTS (SELECT 1 FROM profile_runs p WHERE p.experiment_id = profile_compare.experiment) THEN
    RAISE EXCEPTION 'experiment % has no profiles', profile_compare.experiment
        USING ERRCODE = 'no_data_found',
              HINT = 'Profiles are made by experiments with profile = counted or profile = sampled.';
END IF;
base := coalesce(profile_compare.baseline,
                 (SELECT v.variant FROM variants v
                  WHERE v.experiment_id = profile_compare.experiment ORDER BY v.position LIMIT 1));
RETURN QUERY
WITH prun AS (
    -- counted runs, as report() counts them, that have a profile
    SELECT r.variant, r.script, r.clients, r.run_id, r.round, p.event, p.total_per_tx, p.floor_per_tx
    FROM runs r
    JOIN profile_runs p ON p.experiment_id = r.experiment_id AND p.run_id = r.run_id AND p.position = 1
    WHERE r.experiment_id = profile_compare.experiment
      AND r.status = 'ok' AND NOT r.warmup AND r.tps > 0
), cell AS (
    SELECT DISTINCT b.script, b.clients, b.variant
    FROM prun b
    WHERE b.variant <> base
      AND (profile_compare.variant_name IS NULL OR b.variant = profile_compare.variant_name)
      AND EXISTS (SELECT 1 FROM prun a WHERE a.variant = base AND a.script = b.script AND a.clients = b.clients)
), side AS (
    -- each cell's two sides: the baseline's runs ('a') and the variant's ('b')
    SELECT c.script, c.clients, c.variant AS cell_variant, s.side,
           pr.run_id, pr.round, pr.event, pr.total_per_tx, pr.floor_per_tx
    FROM cell c
    CROSS JOIN (VALUES ('a'), ('b')) s(side)
    JOIN prun pr ON pr.script = c.script AND pr.clients = c.clients
                AND pr.variant = CASE s.side WHEN 'a' THEN base ELSE c.variant END
), total AS (
    SELECT sd.script, sd.clients, sd.cell_variant, sd.side,
           (summarize(array_agg(sd.total_per_tx ORDER BY sd.run_id), 1 - profile_compare.alpha)).median AS median
    FROM side sd
    GROUP BY 1, 2, 3, 4
), fn AS (
    -- every function either side's runs saw
    SELECT DISTINCT sd.script, sd.clients, sd.cell_variant, f.function_name
    FROM side sd
    JOIN profile_functions f ON f.experiment_id = profile_compare.experiment
                            AND f.run_id = sd.run_id AND f.event = sd.event
), val AS (
    -- its cost in each run of each side; a run that did not see it, its floor
    SELECT fn.script, fn.clients, fn.cell_variant, fn.function_name, sd.side,
           array_agg(greatest(coalesce(f.self_per_tx, sd.floor_per_tx), sd.floor_per_tx) ORDER BY sd.run_id) AS v,
           array_agg(sd.round ORDER BY sd.run_id) AS rounds,
           min(f.object) AS object
    FROM fn
    JOIN side sd ON sd.script = fn.script AND sd.clients = fn.clients AND sd.cell_variant = fn.cell_variant
    LEFT JOIN profile_functions f ON f.experiment_id = profile_compare.experiment AND f.run_id = sd.run_id
                                 AND f.event = sd.event AND f.function_name = fn.function_name
    GROUP BY 1, 2, 3, 4, 5
), tested AS (
    SELECT a.script, a.clients, a.cell_variant, a.function_name, coalesce(a.object, b.object) AS object,
           a.v AS av, a.rounds AS ar, b.v AS bv, b.rounds AS br,
           (summarize(a.v, 1 - profile_compare.alpha)).median AS ma,
           (summarize(b.v, 1 - profile_compare.alpha)).median AS mb
    FROM val a
    JOIN val b ON b.script = a.script AND b.clients = a.clients AND b.cell_variant = a.cell_variant
              AND b.function_name = a.function_name AND b.side = 'b'
    WHERE a.side = 'a'
), compared AS (
    SELECT t.*, c.estimate, c.ci_low, c.ci_high, c.p_value, c.n_pairs,
           row_number() OVER (PARTITION BY t.script, t.clients, t.cell_variant ORDER BY t.function_name) AS k
    FROM tested t
    JOIN total ta ON ta.script = t.script AND ta.clients = t.clients AND ta.cell_variant = t.cell_variant AND ta.side = 'a'
    JOIN total tb ON tb.script = t.script AND tb.clients = t.clients AND tb.cell_variant = t.cell_variant AND tb.side = 'b'
    CROSS JOIN LATERAL compare(t.av, t.bv, false, profile_compare.alpha, profile_compare.noise, t.ar, t.br) c
    WHERE t.ma >= profile_compare.min_share * ta.median OR t.mb >= profile_compare.min_share * tb.median
), q AS (
    SELECT g.script, g.clients, g.cell_variant, d.item, d.q_value, d.discovery
    FROM (SELECT script, clients, cell_variant,
                 array_agg(coalesce(p_value, 1) ORDER BY k) AS p,
                 array_agg(ci_low ORDER BY k) AS lo,
                 array_agg(ci_high ORDER BY k) AS hi
          FROM compared GROUP BY 1, 2, 3) g
    CROSS JOIN LATERAL fdr(g.p, g.lo, g.hi, profile_compare.alpha, profile_compare.noise) d
), script_order AS (
    SELECT s.value AS script, s.ord
    FROM experiments e,
         jsonb_array_elements_text(e.spec -> 'experiment' -> 'script') WITH ORDINALITY AS s(value, ord)
    WHERE e.experiment_id = profile_compare.experiment
)
SELECT c.script, c.clients, base, c.cell_variant, c.function_name, c.object,
       c.ma, c.mb, c.mb - c.ma, c.estimate, c.ci_low, c.ci_high, c.p_value,
       q.q_value, c.n_pairs, q.discovery
FROM compared c
JOIN q ON q.script = c.script AND q.clients = c.clients AND q.cell_variant = c.cell_variant AND q.item = c.k
JOIN variants v ON v.experiment_id = profile_compare.experiment AND v.variant = c.cell_variant
LEFT JOIN script_order so ON so.script = c.script
ORDER BY so.ord, c.clients, v.position, q.discovery DESC, abs(c.mb - c.ma) DESC, c.function_name COLLATE "C";
END
$$;

COMMENT ON FUNCTION profile_compare(int, text, text, float8, float8, float8) IS
'the per-function comparison of an imported experiment''s profiles: each variant (or the one named) against the baseline, every function above min_share of a side''s total, with its change per transaction, B/A, CI, p, Benjamini-Hochberg q and whether it changed; from the same C code as the client';

-- The farm (extension/sql/50_farm.sql is the fresh install's): change points
-- of a history.
CREATE FUNCTION changepoints(
    x float8[],
    alpha float8 DEFAULT 0.05,
    permutations int DEFAULT 999,
    min_segment int DEFAULT 3,
    seed bigint DEFAULT 1)
RETURNS TABLE (
    point int,
    p_value float8,
    n_before int,
    n_after int,
    shift float8,
    shift_pct float8,
    ci_low float8,
    ci_high float8)
AS 'MODULE_PATHNAME', 'pgbench_ext_changepoints'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION changepoints(float8[], float8, int, int, bigint) IS
'change points of a history (one value > 0 per point, in order) by circular binary segmentation with a permutation test (a flat history alarms with probability at most alpha): per change point the position of the first point after it, the p of the test that found it, the points of the segments on either side, and the shift between them (ratio of geomeans) with Welch''s t interval at 1 - alpha';

-- The farm's results database (extension/sql/50_farm.sql): machines, where
-- each experiment comes from, history() and farm_compare().
CREATE TABLE machines (
    fingerprint text PRIMARY KEY,
    hostname text NOT NULL,
    -- experiment.json's machine object and the environment() rows of
    -- category machine: what the fingerprint is of
    facts jsonb NOT NULL
);

COMMENT ON TABLE machines IS
'one row per machine that ran an imported experiment, by fingerprint';

CREATE TABLE experiment_sources (
    experiment_id int PRIMARY KEY REFERENCES experiments ON DELETE CASCADE,
    identity text NOT NULL UNIQUE,
    fingerprint text NOT NULL REFERENCES machines,
    -- the load: experiment.json's experiment keys but rounds, budget,
    -- restart and seed; results of one signature measure the same thing
    signature text NOT NULL
);

COMMENT ON TABLE experiment_sources IS
'per imported experiment: its identity (what makes an import idempotent), its machine and its signature';

SELECT pg_catalog.pg_extension_config_dump('machines', '');
SELECT pg_catalog.pg_extension_config_dump('experiment_sources', '');

-- One point per experiment of a signature, in the order they were written:
-- the geometric mean tps of a variant's counted runs in one cell.  Machines
-- are not pooled: with more than one among the points, the caller names
-- one (fingerprint) or asks for all ('*').
CREATE FUNCTION history(
    signature text,
    variant text,
    script text,
    clients int,
    fingerprint text DEFAULT NULL)
RETURNS TABLE (
    point int,
    experiment_id int,
    written_at text,
    machine text,
    hostname text,
    runs int,
    tps float8)
LANGUAGE plpgsql STABLE
SET search_path = @extschema@, pg_catalog, pg_temp
AS $$
#variable_conflict use_column
DECLARE
    found_machines text[];
BEGIN
SELECT array_agg(DISTINCT s.fingerprint ORDER BY s.fingerprint) INTO found_machines
FROM experiment_sources s
WHERE s.signature = history.signature
  AND (history.fingerprint IS NULL OR history.fingerprint IN ('*', s.fingerprint));
IF found_machines IS NULL THEN
    RAISE EXCEPTION '%', format('no imported experiment has signature %s%s', history.signature,
                                CASE WHEN coalesce(history.fingerprint, '*') = '*' THEN ''
                                     ELSE format(' on machine %s', history.fingerprint) END)
        USING ERRCODE = 'no_data_found',
              HINT = 'The experiment_sources table lists the signatures imported (and their machines).';
END IF;
IF history.fingerprint IS NULL AND cardinality(found_machines) > 1 THEN
    RAISE EXCEPTION 'the experiments of signature % ran on % machines', history.signature, cardinality(found_machines)
        USING ERRCODE = 'invalid_parameter_value',
              DETAIL = format('Their fingerprints are %s.', array_to_string(found_machines, ', ')),
              HINT = 'A history is of one machine: name one with fingerprint => ''...'', or pool them with fingerprint => ''*''.';
END IF;
RETURN QUERY
SELECT (row_number() OVER (ORDER BY e.written_at, e.experiment_id))::int,
       e.experiment_id, e.written_at, s.fingerprint, m.hostname,
       count(*)::int, geomean(array_agg(r.tps ORDER BY r.run_id))
FROM experiment_sources s
JOIN experiments e ON e.experiment_id = s.experiment_id
JOIN machines m ON m.fingerprint = s.fingerprint
JOIN runs r ON r.experiment_id = e.experiment_id
WHERE s.signature = history.signature
  AND (history.fingerprint IS NULL OR history.fingerprint IN ('*', s.fingerprint))
  AND r.variant = history.variant AND r.script = history.script AND r.clients = history.clients
  AND r.status = 'ok' AND NOT r.warmup AND r.tps > 0
GROUP BY e.experiment_id, e.written_at, s.fingerprint, m.hostname
ORDER BY 1;
END
$$;

COMMENT ON FUNCTION history(text, text, text, int, text) IS
'the history of one signature: per imported experiment, in the order written, the geometric mean tps of a variant''s counted runs in one cell; of one machine (the only one, or the fingerprint named; ''*'' pools them all). Its change points: changepoints(array_agg(tps ORDER BY point))';

-- One experiment run on several machines, machines as the top level: per
-- machine one summary (the mean log ratio of its paired rounds, over every
-- experiment of the signature it ran), then Student's t across machines,
-- from compare() with unit_kind 'machine pair'.  Rounds are numbered per
-- machine: experiment k of the machine (by experiment_id) has rounds
-- k * 100000 + round, as the client's "report DIR1 DIR2 ..." numbers them.
CREATE FUNCTION farm_compare(
    signature text,
    baseline text,
    variant text,
    script text,
    clients int,
    alpha float8 DEFAULT 0.05,
    noise float8 DEFAULT 0.01)
RETURNS TABLE (
    machines text[],
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
LANGUAGE sql STABLE
SET search_path = @extschema@, pg_catalog, pg_temp
SET jit = off
AS $$
    WITH machine_order AS (
        SELECT s.fingerprint, s.experiment_id,
               (dense_rank() OVER (ORDER BY s.fingerprint))::int AS machine,
               (row_number() OVER (PARTITION BY s.fingerprint ORDER BY s.experiment_id))::int AS k
        FROM experiment_sources s
        WHERE s.signature = farm_compare.signature
    ), counted AS (
        SELECT r.variant, r.tps, mo.machine, mo.k * 100000 + r.round AS round,
               mo.fingerprint, r.experiment_id, r.run_id
        FROM runs r JOIN machine_order mo ON mo.experiment_id = r.experiment_id
        WHERE r.script = farm_compare.script AND r.clients = farm_compare.clients
          AND r.status = 'ok' AND NOT r.warmup AND r.tps > 0 AND r.round > 0
          AND r.variant IN (farm_compare.baseline, farm_compare.variant)
    ), sides AS (
        SELECT coalesce(array_agg(c.tps ORDER BY c.machine, c.experiment_id, c.run_id) FILTER (WHERE c.variant = farm_compare.baseline), '{}') AS a,
               coalesce(array_agg(c.round ORDER BY c.machine, c.experiment_id, c.run_id) FILTER (WHERE c.variant = farm_compare.baseline), '{}') AS round_a,
               coalesce(array_agg(c.machine ORDER BY c.machine, c.experiment_id, c.run_id) FILTER (WHERE c.variant = farm_compare.baseline), '{}') AS unit_a,
               coalesce(array_agg(c.tps ORDER BY c.machine, c.experiment_id, c.run_id) FILTER (WHERE c.variant = farm_compare.variant), '{}') AS b,
               coalesce(array_agg(c.round ORDER BY c.machine, c.experiment_id, c.run_id) FILTER (WHERE c.variant = farm_compare.variant), '{}') AS round_b,
               coalesce(array_agg(c.machine ORDER BY c.machine, c.experiment_id, c.run_id) FILTER (WHERE c.variant = farm_compare.variant), '{}') AS unit_b,
               array_agg(DISTINCT c.fingerprint ORDER BY c.fingerprint) AS machines
        FROM counted c
    )
    SELECT sd.machines, c.estimate, c.ci_low, c.ci_high, c.change_pct, c.p_value,
           c.n_a, c.n_b, c.mde_pct, c.verdict, c.reason, c.n_pairs, c.n_units, c.unit
    FROM sides sd
    CROSS JOIN LATERAL compare(sd.a, sd.b, true, farm_compare.alpha, farm_compare.noise,
                               sd.round_a, sd.round_b, sd.unit_a, sd.unit_b, 'machine pair') c
$$;

COMMENT ON FUNCTION farm_compare(text, text, text, text, int, float8, float8) IS
'one experiment (signature) run on several machines: variant against baseline in one cell with the machine as the top level of the nested verdict (one summary per machine, a t test across machines), from the same C code as the client''s "report DIR1 DIR2 ..."';
