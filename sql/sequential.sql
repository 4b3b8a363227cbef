-- pgbench_ext.sequential_decide(): the decision of rounds = auto, look by
-- look, on fixed inputs: a plan of 5-round blocks, the first look after
-- block 1, at most 6 blocks, alpha spent by blocks (information "blocks").
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

-- 30 rounds, one run of each side a round; B 40% slower with a little noise.
CREATE TEMP TABLE r AS
SELECT g AS round, 1000 * (1 + 0.01 * ((g * 7) % 5 - 2)) AS a,
       600 * (1 + 0.01 * ((g * 3) % 5 - 2)) AS b
FROM generate_series(1, 30) g;

CREATE TEMP VIEW looks AS
SELECT d.blocks_done, s.look, s.max_looks, s.block, s.rounds, s.decision,
       round(s.estimate::numeric, 4) AS estimate, s.n_pairs, s.unit,
       s.look_alpha < 0.05 AS below_alpha, round(s.information_fraction::numeric, 4) AS info
FROM (VALUES (NULL::int), (0), (1), (2), (6)) d(blocks_done)
CROSS JOIN LATERAL pgbench_ext.sequential_decide(
    (SELECT array_agg(a ORDER BY round) FROM r), (SELECT array_agg(b ORDER BY round) FROM r),
    true, 0.05, 0.01,
    (SELECT array_agg(round ORDER BY round) FROM r), (SELECT array_agg(round ORDER BY round) FROM r),
    NULL, NULL, 'instance pair',
    budget_s => 600, block_rounds => 5, first_look_block => 1, max_blocks => 6, max_looks => 6,
    spending => 'obrien-fleming', information => 'blocks',
    block_spent_s => NULL, blocks_done => d.blocks_done) s;

-- blocks_done NULL (a fixed design): no row; 0 blocks: no look yet, NULL
-- figures; 5 runs a side cannot reach the first look's level (O'Brien-Fleming
-- spends almost nothing at a sixth of the plan); from 6 rounds a look is
-- judged round by round, and 10 pairs cannot reach the second's either (their
-- smallest p, 2/1024, is above its 0.0007); 15 can: slower at look 3,
-- however many blocks follow.
SELECT * FROM looks ORDER BY blocks_done;

-- By the budget's clock: a look's information is the share of the budget
-- spent by the end of its block, all of it (1) when the budget has no room
-- for another block: 420 s after 2 blocks, another would end past 600 s.
SELECT s.look, s.decision, round(s.information_fraction::numeric, 4) AS info
FROM pgbench_ext.sequential_decide(
    (SELECT array_agg(a ORDER BY round) FROM r), (SELECT array_agg(b ORDER BY round) FROM r),
    true, 0.05, 0.01,
    (SELECT array_agg(round ORDER BY round) FROM r), (SELECT array_agg(round ORDER BY round) FROM r),
    NULL, NULL, 'instance pair', 600, 5, 1, 6, 6, 'obrien-fleming', 'budget spent',
    '{150,420}', 2) s;

-- A damaged plan, too many blocks, blocks past the plan: errors that say so.
SELECT * FROM pgbench_ext.sequential_decide('{1}', '{1}', true, 0.05, 0.01, '{1}', '{1}', NULL, NULL,
    'instance pair', 600, 5, 1, 6, 5, 'obrien-fleming', 'blocks', NULL, 1);
SELECT * FROM pgbench_ext.sequential_decide('{1}', '{1}', true, 0.05, 0.01, '{1}', '{1}', NULL, NULL,
    'instance pair', 600, 5, 1, 2, 2, 'obrien-fleming', 'blocks', '{1,2,3}', 1);
SELECT * FROM pgbench_ext.sequential_decide('{1}', '{1}', true, 0.05, 0.01, '{1}', '{1}', NULL, NULL,
    'instance pair', 600, 5, 1, 2, 2, 'obrien-fleming', 'blocks', NULL, 3);
SELECT * FROM pgbench_ext.sequential_decide('{1}', '{1}', true, 0.05, 0.01, NULL, '{1}', NULL, NULL,
    'instance pair', 600, 5, 1, 2, 2, 'obrien-fleming', 'blocks', NULL, 1);

-- Against a reference ratio (an experiment's reference key, as bisect gives
-- a middle step the halfway point between its ends): which side of it B/A
-- lies.  B is about 40% slower: below a reference of -30% (slower), above
-- one of -50% (faster); the estimate is still B/A's.
CREATE TEMP VIEW against AS
SELECT v.ref, s.look, s.decision, round(s.estimate::numeric, 4) AS estimate, s.p_value
FROM (VALUES (0.7::float8), (0.5)) v(ref)
CROSS JOIN LATERAL pgbench_ext.sequential_decide(
    (SELECT array_agg(a ORDER BY round) FROM r), (SELECT array_agg(b ORDER BY round) FROM r),
    true, 0.05, 0.01,
    (SELECT array_agg(round ORDER BY round) FROM r), (SELECT array_agg(round ORDER BY round) FROM r),
    NULL, NULL, 'instance pair', 600, 5, 1, 6, 6, 'obrien-fleming', 'blocks', NULL, 6,
    reference => v.ref) s;
SELECT ref, look, decision, estimate FROM against ORDER BY ref;

-- It is the test of B / reference against no change: the same look,
-- decision and p.
SELECT a.ref, (a.look, a.decision, round(a.p_value::numeric, 10)) =
       (s.look, s.decision, round(s.p_value::numeric, 10)) AS same_as_shifted
FROM against a
CROSS JOIN LATERAL pgbench_ext.sequential_decide(
    (SELECT array_agg(a ORDER BY round) FROM r), (SELECT array_agg(b / a.ref ORDER BY round) FROM r),
    true, 0.05, 0.01,
    (SELECT array_agg(round ORDER BY round) FROM r), (SELECT array_agg(round ORDER BY round) FROM r),
    NULL, NULL, 'instance pair', 600, 5, 1, 6, 6, 'obrien-fleming', 'blocks', NULL, 6) s
ORDER BY a.ref;

-- A reference that is no ratio is refused.
SELECT * FROM pgbench_ext.sequential_decide('{1}', '{1}', true, 0.05, 0.01, '{1}', '{1}', NULL, NULL,
    'instance pair', 600, 5, 1, 2, 2, 'obrien-fleming', 'blocks', NULL, 1, reference => 0);

-- experiment_report() says which design its figures are of, which look, and
-- names all rounds as such (test/t/051 and 055 compare it with summary.json).
SELECT proname, pg_get_function_result(oid) LIKE '%design text, look integer, max_looks integer, look_rounds integer, look_alpha double precision, all_rounds_estimate%' AS has_look_columns
FROM pg_proc WHERE proname = 'experiment_report';
