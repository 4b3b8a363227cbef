-- The bounds on the inputs of the statistics functions
-- (docs/extension.md#limits): past each, an error that names the bound and
-- says what to do, raised before any work; at the bound, the work is done.
-- (That every long call can be cancelled is test/t/125_cancel.pl's.)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

-- Arrays of per-run values hold at most 1,000,000 elements.
SELECT * FROM pgbench_ext.summarize(array_fill(1.0::float8, ARRAY[1000001]));
SELECT pgbench_ext.geomean(array_fill(1.0::float8, ARRAY[1000001]));
SELECT verdict FROM pgbench_ext.compare('{1,2,3}', array_fill(1.0::float8, ARRAY[1000001]));
SELECT verdict FROM pgbench_ext.compare('{1,2,3}', '{1,2,3}',
    round_a => array_fill(1, ARRAY[1000001]), round_b => '{1,2,3}');
SELECT decision FROM pgbench_ext.sequential_decide(array_fill(1.0::float8, ARRAY[1000001]), '{1}',
    true, 0.05, 0.01, '{1}', '{1}', NULL, NULL, 'instance pair', 600, 5, 1, 6, 6,
    'obrien-fleming', 'blocks', NULL, 1);
SELECT count(*) FROM pgbench_ext.fdr(array_fill(0.5::float8, ARRAY[1000001]), '{}', '{}');
-- a million is allowed: summarize() sorts it (O(n log n)) in well under a second
SELECT n, median, ci_low, ci_high, ci_confidence > 0.999999 AS confident
FROM pgbench_ext.summarize(array_fill(2.0::float8, ARRAY[1000000]), 0.999999);
SELECT round(pgbench_ext.geomean(array_fill(2.0::float8, ARRAY[1000000]))::numeric, 6) AS geomean;

-- Unpaired runs: at most 10,000,000 pairs (runs of A times runs of B).
SELECT verdict FROM pgbench_ext.compare(array_fill(1.0::float8, ARRAY[1001]),
                                        array_fill(1.0::float8, ARRAY[10000]));

-- changepoints(): at most 1,000 points and 1,000,000 permutations.
SELECT * FROM pgbench_ext.changepoints(array_fill(1.0::float8, ARRAY[1001]));
SELECT * FROM pgbench_ext.changepoints('{1,2,3}', permutations => 1000001);
SELECT * FROM pgbench_ext.changepoints('{1,2,3}', min_segment => 1001);

-- sequential_decide(): a plan of at most 100,000 blocks of at most 100,000 rounds.
SELECT decision FROM pgbench_ext.sequential_decide('{1}', '{1}', true, 0.05, 0.01, '{1}', '{1}',
    NULL, NULL, 'instance pair', 600, 5, 1, 100001, 100001, 'obrien-fleming', 'blocks', NULL, 1);
SELECT decision FROM pgbench_ext.sequential_decide('{1}', '{1}', true, 0.05, 0.01, '{1}', '{1}',
    NULL, NULL, 'instance pair', 600, 100001, 1, 6, 6, 'obrien-fleming', 'blocks', NULL, 1);
