-- pgbench_ext.inject_delay_ns: the known slowdown calibration measures against.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

SHOW pgbench_ext.inject_delay_ns;

-- Bounded, and for superusers only.
SET pgbench_ext.inject_delay_ns = -1;
SET pgbench_ext.inject_delay_ns = 100000001;
CREATE ROLE pgbench_ext_nobody;
SET ROLE pgbench_ext_nobody;
SET pgbench_ext.inject_delay_ns = 1000;
RESET ROLE;
DROP ROLE pgbench_ext_nobody;

-- The commit of a transaction takes at least the delay: a lower bound,
-- which no load on the machine can make false.
SET pgbench_ext.inject_delay_ns = 50000000;
CREATE TEMP TABLE delay_start AS SELECT clock_timestamp() AS t0;
SELECT clock_timestamp() - t0 >= interval '50 ms' AS commit_was_delayed FROM delay_start;
RESET pgbench_ext.inject_delay_ns;

-- pgbench_ext.inject_slowdown_pct: a wait in proportion to the backend's
-- transaction cycle.  Bounded, and for superusers only.
SHOW pgbench_ext.inject_slowdown_pct;
SET pgbench_ext.inject_slowdown_pct = -1;
SET pgbench_ext.inject_slowdown_pct = 50.5;
CREATE ROLE pgbench_ext_nobody;
SET ROLE pgbench_ext_nobody;
SET pgbench_ext.inject_slowdown_pct = 3;
RESET ROLE;
DROP ROLE pgbench_ext_nobody;

-- At 50%, each commit waits as long as its cycle took: the cycle that holds
-- a 50 ms sleep ends with a wait of at least 50 ms more, so at least 100 ms
-- pass from t0 to the next statement.  Lower bounds again.
SET pgbench_ext.inject_slowdown_pct = 50;
SELECT clock_timestamp() AS t0 \gset
SELECT pg_sleep(0.05);
SELECT clock_timestamp() - :'t0'::timestamptz >= interval '100 ms' AS cycle_was_stretched;
RESET pgbench_ext.inject_slowdown_pct;
