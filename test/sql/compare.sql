-- pgbench_ext.compare(): B against A from psql, on fixed inputs whose
-- figures are known exactly (exact rank distributions) or rounded.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

-- IMMUTABLE, PARALLEL SAFE, defaults as documented
SELECT provolatile, proparallel, pronargdefaults
FROM pg_proc WHERE oid = 'pgbench_ext.compare(float8[], float8[], boolean, float8, float8, int[], int[])'::regprocedure;

-- Five runs each, B above A in every pair: U = 25, p = 2/252, the smallest
-- p five and five runs can give; HL ratio is the median of 25 ratios.
SELECT round(estimate::numeric, 6) AS estimate,
       round(ci_low::numeric, 6) AS ci_low, round(ci_high::numeric, 6) AS ci_high,
       round(change_pct::numeric, 4) AS change_pct,
       p_value = 2.0 / 252 AS p_is_2_over_252, n_a, n_b,
       round(mde_pct::numeric, 4) AS mde_pct, verdict, reason
FROM pgbench_ext.compare('{100,102,98,101,99}', '{105,107,103,106,104}');

-- The same numbers as latencies: higher B is slower.
SELECT verdict, reason
FROM pgbench_ext.compare('{100,102,98,101,99}', '{105,107,103,106,104}',
                         higher_is_better => false);

-- Reversed: B/A < 1 with tps is slower.
SELECT round(estimate::numeric, 6) AS estimate, verdict
FROM pgbench_ext.compare('{105,107,103,106,104}', '{100,102,98,101,99}');

-- Identical samples: ratio 1, p = 1, no change with the MDE.
SELECT estimate, ci_low <= 1 AND ci_high >= 1 AS ci_covers_1, p_value,
       round(mde_pct::numeric, 4) AS mde_pct, verdict, reason
FROM pgbench_ext.compare('{100,102,98,101,99,103}', '{100,102,98,101,99,103}');

-- Significant but within a 5% noise threshold: no change; with noise 0: faster.
SELECT noise, verdict
FROM unnest(ARRAY[0.05, 0.0]) AS noise,
     LATERAL pgbench_ext.compare('{100,102,98,101,99}', '{105,107,103,106,104}',
                                 noise => noise);

-- Ties between the sides: normal approximation with tie correction.
-- The CI of the ratio starts at a tie (ratio 1), so it is no change.
SELECT round(p_value::numeric, 10) AS p_value, ci_low, verdict, reason
FROM pgbench_ext.compare('{1,2,3,3,4,5}', '{3,3,5,6,7,8,8}');

-- 30 runs a side: past the exact range (C(60,30) > 2^53), normal
-- approximations for p and for the CI's rank.  B is 20 tps higher on values
-- spread over 100: 1.5% is below what these runs can detect (MDE 2.6%).
SELECT round(estimate::numeric, 6) AS estimate, round(ci_low::numeric, 6) AS ci_low,
       round(ci_high::numeric, 6) AS ci_high, round(p_value::numeric, 10) AS p_value,
       round(mde_pct::numeric, 4) AS mde_pct, verdict
FROM (SELECT array_agg(1000 + (i * 37) % 101) AS a,
             array_agg(1020 + (i * 53) % 101) AS b
      FROM generate_series(1, 30) AS i) AS s,
     LATERAL pgbench_ext.compare(a, b);

-- Too few runs: insufficient with the reason, NULL figures, never NaN.
SELECT n_a, n_b, estimate IS NULL AS no_estimate, ci_low IS NULL AS no_ci,
       p_value, mde_pct, verdict, reason
FROM (VALUES ('{}'::float8[], '{}'::float8[]),
             ('{}', '{1,2,3,4,5}'),
             ('{1}', '{2}'),
             ('{1,2}', '{3,4}'),
             ('{1,2,3}', '{4,5,6}')) AS t(a, b),
     LATERAL pgbench_ext.compare(a, b);

-- With alpha 0.2, three runs each can reject (2/20 = 0.1 < 0.2).
SELECT p_value, verdict FROM pgbench_ext.compare('{1,2,3}', '{4,5,6}', alpha => 0.2, noise => 0);

-- Round by round: eight rounds while the machine speeds up by 35%, B 3%
-- above A in each.  Unpaired, the drift swamps the 3%; given the rounds, the
-- eight per-round ratios all say +3%: W+ = 36, p = 2/256, faster.
SELECT how, n_pairs, round(change_pct::numeric, 2) AS change_pct,
       p_value = 2.0 / 256 AS p_is_2_over_256, verdict
FROM (SELECT array_agg(1000 + 50 * i ORDER BY i) AS a,
             array_agg((1000 + 50 * i) * (1.03 + 0.001 * i) ORDER BY i) AS b,
             array_agg(i + 1 ORDER BY i) AS r
      FROM generate_series(0, 7) AS i) AS s,
     LATERAL (SELECT 'unpaired' AS how, * FROM pgbench_ext.compare(a, b)
              UNION ALL
              SELECT 'rounds', * FROM pgbench_ext.compare(a, b, round_a => r, round_b => r)) AS c;

-- Five complete rounds cannot reach p < 0.05 paired (2/32): all runs unpaired.
SELECT n_pairs, n_a, n_b, verdict
FROM pgbench_ext.compare('{100,102,98,101,99}', '{105,107,103,106,104}',
                         round_a => '{1,2,3,4,5}', round_b => '{1,2,3,4,5}');

-- Bad arguments: errors name the argument.
SELECT * FROM pgbench_ext.compare(NULL, '{1}');
SELECT * FROM pgbench_ext.compare('{1}', NULL);
SELECT * FROM pgbench_ext.compare('{1,NULL,3}', '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,-2}');
SELECT * FROM pgbench_ext.compare('{1,0}', '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,Infinity}', '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{NaN,2}');
SELECT * FROM pgbench_ext.compare('{{1,2},{3,4}}', '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', alpha => 0);
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', alpha => 1);
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', noise => -0.01);
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', higher_is_better => NULL);
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', round_a => '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', round_a => '{1}', round_b => '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', round_a => '{1,0}', round_b => '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', round_a => '{1,NULL}', round_b => '{1,2}');
