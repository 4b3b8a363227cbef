SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

-- summarize(): the median and its distribution-free CI (common/stats.c)
SELECT n, median, ci_low, ci_high, ci_confidence, mean, round(stddev::numeric, 6) AS sd, mad, min, max
FROM pgbench_ext.summarize('{100,102,98,101,99}');
-- 6 runs are the fewest with a 95% CI: [x(1), x(6)]
SELECT n, median, ci_low, ci_high, round(ci_confidence::numeric, 6) AS confidence
FROM pgbench_ext.summarize('{100,102,98,101,99,103}');
SELECT n, median, ci_low, ci_high FROM pgbench_ext.summarize('{}');
SELECT ci_low, ci_high FROM pgbench_ext.summarize('{100,102,98,101,99}', 0.9);
-- bad input names the argument
SELECT * FROM pgbench_ext.summarize('{100,0}');
SELECT * FROM pgbench_ext.summarize('{100,101}', 1.5);
SELECT * FROM pgbench_ext.summarize(NULL);

-- compare() given the rounds, as experiment_report() calls it: 6 rounds all in favour
-- of B give the exact two-sided signed-rank p 2/64; the ratio is the
-- median of the 21 Walsh averages of the per-round log ratios
SELECT n_pairs, round(estimate::numeric, 6) AS ratio, p_value = 2.0 / 64 AS exact, verdict
FROM pgbench_ext.compare('{100,102,98,101,99,103}', '{105,108,102,107,104,109}',
                         round_a => '{1,2,3,4,5,6}', round_b => '{1,2,3,4,5,6}');
SELECT n_pairs, verdict FROM pgbench_ext.compare('{}', '{}', round_a => '{}', round_b => '{}');

-- experiment_report() over an experiment that was never imported
SELECT * FROM pgbench_ext.experiment_report(-1);
-- the tables exist, empty until "pgbench_ext import"
SELECT count(*) FROM pgbench_ext.experiments WHERE experiment_id < 0;
-- the report functions plan without JIT, whose compiling took seconds of a
-- report of milliseconds
SELECT p.proname, 'jit=off' = ANY (p.proconfig) AS jit_off
FROM pg_proc p
WHERE p.pronamespace = 'pgbench_ext'::regnamespace
  AND p.proname IN ('experiment_report', 'experiment_geomean', 'profile_compare')
ORDER BY p.proname;
