-- The farm: results of many hosts in one database, and their history.
-- changepoints() finds where a series of results shifted, from the same C
-- code as the client's "history" command (common/stats_changepoint.c).

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

-- The results database: "pgbench_ext import DIR..." of results directories
-- from any number of hosts.  Each experiment's machine is kept by its
-- fingerprint (the SHA-256 of what experiment.json says of the machine,
-- computed by the client), and each experiment by its identity (the
-- machine, the specification, when it was written and its first run's
-- start), so that importing a directory again adds only runs that were not
-- there (after --resume) and never a second copy.

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
