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
