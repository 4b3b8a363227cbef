-- Statistics from psql: the same code as the client's tables (common/stats*.c).
-- Needs no shared memory: works without shared_preload_libraries.

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
'B against A from per-run measurements: ratio b/a with its CI, p, the smallest change the verdict would see (mde_pct) and the verdict (faster or slower: p < alpha and the whole CI beyond the noise threshold; otherwise, when the CI excludes 0, its direction: faster or slower, by less than the threshold, when the CI lies wholly inside it, or faster or slower; beyond the threshold not settled, when it crosses the threshold''s edge; no change when the CI includes 0; insufficient). Unpaired: Hodges-Lehmann and Mann-Whitney. Given each run''s round, rounds with one run of each side are compared pair by pair (signed-rank test) once there are enough of them. Given each run''s unit (unit_a, unit_b: an instance pair or build seed pair, named by unit_kind), one summary per unit and a t test across units. n_pairs counts the paired rounds, n_units the units of the test, unit says what they were';
