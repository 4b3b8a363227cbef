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
