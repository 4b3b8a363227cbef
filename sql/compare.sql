-- pgbench_ext.compare(): B against A from psql, on fixed inputs whose
-- figures are known exactly (exact rank distributions) or rounded.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

-- IMMUTABLE, PARALLEL SAFE, defaults as documented
SELECT provolatile, proparallel, pronargdefaults
FROM pg_proc WHERE oid = 'pgbench_ext.compare(float8[], float8[], boolean, float8, float8, int[], int[], int[], int[], text)'::regprocedure;

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

-- Significant, its CI [+1.98%, +8.08%] across a 5% noise threshold: faster,
-- whether beyond 5% not settled; with noise 0: faster.
SELECT noise, verdict
FROM unnest(ARRAY[0.05, 0.0]) AS noise,
     LATERAL pgbench_ext.compare('{100,102,98,101,99}', '{105,107,103,106,104}',
                                 noise => noise);

-- Ties between the sides: the exact distribution of U given the ties
-- (0.0431; the normal approximation with tie correction said 0.0420).
-- The CI of the ratio starts at a tie (ratio 1), so it is no change.
SELECT round(p_value::numeric, 10) AS p_value, ci_low, verdict, reason
FROM pgbench_ext.compare('{1,2,3,3,4,5}', '{3,3,5,6,7,8,8}');

-- 30 runs a side: past the exact range (C(60,30) > 2^53), normal
-- approximations for p and for the CI's rank.  B is 20 tps higher on values
-- spread over 100: 1.5% is below what these runs can detect (MDE 4.0%).
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

-- Four equal runs a side: exact given the ties, p = 2/70 = 0.0286, the
-- smallest four and four runs allow (the normal approximation said 0.0131).
SELECT p_value = 2.0 / 70 AS p_is_2_over_70, round(p_value::numeric, 6) AS p_value, verdict
FROM pgbench_ext.compare('{100,100,100,100}', '{105,105,105,105}');

-- Six rounds, one without any difference: only five count, and five can
-- never reach p < 0.05 (2/32): insufficient, not no change.
SELECT n_pairs, verdict, reason
FROM pgbench_ext.compare('{100,100,100,100,100,100}', '{110,111,112,113,114,100}',
                         round_a => '{1,2,3,4,5,6}', round_b => '{1,2,3,4,5,6}');

-- Eight identical rounds, as a counted metric repeats (instructions per
-- transaction): no round differs, so the signed-rank test has no p, but
-- the Walsh averages of all eight are 0: the CI is [0, 0], inside the
-- counted threshold of 0.05%, and the verdict is what it says (no change;
-- the client's decision: same), not insufficient.
SELECT n_pairs, ci_low, ci_high, verdict, reason
FROM pgbench_ext.compare('{41000,41037,41074,41111,41148,41185,41222,41259}',
                         '{41000,41037,41074,41111,41148,41185,41222,41259}',
                         noise => 0.0005,
                         round_a => '{1,2,3,4,5,6,7,8}', round_b => '{1,2,3,4,5,6,7,8}');

-- Across instance pairs: 3 pairs of servers of 2 rounds each, per-round log
-- ratios 0.02, 0.04 | 0.01, 0.03 | 0.05, 0.03.  Unit summaries 0.03, 0.02,
-- 0.04: t = 0.03 / (0.01 / sqrt 3) = 5.196 on 2 df, p = 0.0351; CI
-- exp(0.03 +- 4.3027 * 0.01 / sqrt 3) = [+0.52%, +5.64%], above 0 and into
-- the 1% threshold: faster, beyond 1% not settled.  The same six rounds
-- taken one by one (as if the servers had never restarted) give p = 2/64.
CREATE TEMP TABLE three_pairs AS
SELECT array_agg(1000.0::float8 ORDER BY i) AS a,
       array_agg(1000.0 * exp(r) ORDER BY i) AS b,
       array_agg(i::int ORDER BY i) AS rounds,
       array_agg(((i + 1) / 2)::int ORDER BY i) AS units,
       array_agg(((i - 1) % 2 + 1)::int ORDER BY i) AS seed_rounds
FROM unnest('{0.02,0.04,0.01,0.03,0.05,0.03}'::float8[]) WITH ORDINALITY AS t(r, i);
SELECT unit, n_units, n_pairs, round(estimate::numeric, 6) AS estimate,
       round(ci_low::numeric, 6) AS ci_low, round(ci_high::numeric, 6) AS ci_high,
       round(p_value::numeric, 6) AS p_value, round(mde_pct::numeric, 4) AS mde_pct,
       verdict, reason
FROM three_pairs,
     LATERAL (SELECT * FROM pgbench_ext.compare(a, b, round_a => rounds, round_b => rounds,
                                                unit_a => units, unit_b => units)
              UNION ALL
              SELECT * FROM pgbench_ext.compare(a, b, round_a => rounds, round_b => rounds)) AS c;

-- Build seeds: the rounds are numbered within each seed; the same summaries.
-- Without rounds, each unit's mean log b minus mean log a: the same here.
SELECT unit, n_units, n_pairs, round(p_value::numeric, 6) AS p_value, verdict
FROM three_pairs,
     LATERAL (SELECT * FROM pgbench_ext.compare(a, b, round_a => seed_rounds, round_b => seed_rounds,
                                                unit_a => units, unit_b => units,
                                                unit_kind => 'build seed pair')
              UNION ALL
              SELECT * FROM pgbench_ext.compare(a, b, unit_a => units, unit_b => units)) AS c;

-- Six instance pairs, B 5% to 7% ahead in every one: faster, unit instance pair.
SELECT unit, n_units, round(change_pct::numeric, 4) AS change_pct,
       round(ci_low::numeric, 6) AS ci_low, round(ci_high::numeric, 6) AS ci_high,
       round(p_value::numeric, 8) AS p_value, verdict
FROM pgbench_ext.compare('{1000,1000,1000,1000,1000,1000}', '{1050,1070,1060,1055,1065,1062}',
                         unit_a => '{1,2,3,4,5,6}', unit_b => '{1,2,3,4,5,6}');

-- One instance pair, or units all alike: insufficient, with the reason.
SELECT n_units, estimate IS NULL AS no_estimate, ci_low IS NULL AS no_ci, p_value, verdict, reason
FROM (VALUES ('{1,1,1}'::int[]), ('{1,2,3}')) AS t(u),
     LATERAL pgbench_ext.compare('{100,100,100}', '{103,103,103}', unit_a => u, unit_b => u);

-- NULL units: today's comparison, round by round.
SELECT unit, n_units, n_pairs, p_value = 2.0 / 64 AS p_is_2_over_64
FROM three_pairs,
     LATERAL pgbench_ext.compare(a, b, round_a => rounds, round_b => rounds,
                                 unit_a => NULL, unit_b => NULL);

-- The words of a CI short of the threshold.  10 instance pairs whose
-- summaries are m + s and m - s in turn: mean m, sd s sqrt(10/9), so the CI
-- is exp(m +- 2.2622 s / 3) = exp(m +- 0.754 s).  A CI across 0 is no
-- change; one below 0 and inside 1% is slower by less than the threshold;
-- one below 0 and across -1% is slower, beyond the threshold not settled;
-- one below -1% is slower.  For latency the same CIs say faster.
SELECT m, s, higher_is_better, round((100 * (ci_low - 1))::numeric, 2) AS ci_low_pct,
       round((100 * (ci_high - 1))::numeric, 2) AS ci_high_pct, verdict
FROM (VALUES (-0.001, 0.004), (-0.005, 0.002), (-0.010, 0.004), (-0.030, 0.004)) AS t(m, s),
     (VALUES (true), (false)) AS h(higher_is_better),
     LATERAL (SELECT array_agg(1000.0::float8 ORDER BY i) AS a,
                     array_agg((1000.0 * exp(m + CASE WHEN (i - 1) / 2 % 2 = 0 THEN s ELSE -s END))::float8
                               ORDER BY i) AS b,
                     array_agg(i ORDER BY i) AS r, array_agg((i + 1) / 2 ORDER BY i) AS u
              FROM generate_series(1, 20) AS i) AS d,
     LATERAL pgbench_ext.compare(a, b, higher_is_better => higher_is_better,
                                 round_a => r, round_b => r, unit_a => u, unit_b => u)
ORDER BY m DESC, higher_is_better DESC;

-- Two builds across 30 instance pairs, B 1.17% slower with a CI of
-- [-1.55%, -0.78%]: it excludes 0, so B is slower, and it reaches inside
-- -1%, so whether by more than the threshold is not settled.  Never "no
-- change".
SELECT round(change_pct::numeric, 2) AS change_pct, n_units, verdict, reason
FROM (SELECT array_agg(1000.0::float8 ORDER BY i) AS a,
             array_agg((1000.0 * exp(-0.01177 + CASE WHEN (i - 1) / 2 % 2 = 0 THEN 0.01027 ELSE -0.01027 END))::float8
                       ORDER BY i) AS b,
             array_agg(i ORDER BY i) AS r, array_agg((i + 1) / 2 ORDER BY i) AS u
      FROM generate_series(1, 60) AS i) AS d,
     LATERAL pgbench_ext.compare(a, b, round_a => r, round_b => r, unit_a => u, unit_b => u);

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
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', noise => 1);
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', unit_a => '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', unit_a => '{1,2}', unit_b => '{1}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', unit_a => '{1,NULL}', unit_b => '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', unit_a => '{{1},{2}}', unit_b => '{1,2}');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', unit_a => '{1,2}', unit_b => '{1,2}',
                                  unit_kind => 'instance');
SELECT * FROM pgbench_ext.compare('{1,2}', '{1,2}', unit_a => '{1,2}', unit_b => '{1,2}',
                                  unit_kind => NULL);
