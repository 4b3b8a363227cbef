-- Statement and transaction counters: exact counts of this session's own
-- statements after a reset (the only figures stable on any machine).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

-- The shape counters() promises to the client.
SELECT scope, array_agg(metric ORDER BY metric) AS metrics
FROM pgbench_ext.counters()
WHERE scope NOT IN ('hw', 'hw_xacts')
GROUP BY scope ORDER BY scope;

-- A reset takes effect at once, and each statement is counted when it
-- ends: inside the resetting transaction only the reset's own SELECT is.
BEGIN;
SELECT pgbench_ext.reset();
SELECT scope, metric, value FROM pgbench_ext.counters()
WHERE scope <> 'meta' AND metric IN ('calls', 'rows', 'commits') AND value <> 0;
SELECT value > extract(epoch FROM now()) - 60 AS reset_just_now
FROM pgbench_ext.counters() WHERE scope = 'meta' AND metric = 'reset_at_epoch';
COMMIT;

-- Known statements, one transaction each unless BEGIN says otherwise.
SELECT pgbench_ext.reset();
CREATE TEMP TABLE t (a int);
INSERT INTO t VALUES (1), (2), (3);
UPDATE t SET a = a + 1 WHERE a > 1;
DELETE FROM t WHERE a = 1;
-- statements run inside other statements are not counted on their own
DO $$ BEGIN INSERT INTO t VALUES (10); PERFORM 1; END $$;
-- EXECUTE counts the statement it runs; PREPARE is a utility statement
PREPARE upd AS UPDATE t SET a = a + 1;
EXECUTE upd;
-- a failed statement is not counted, its transaction is an abort; the
-- ROLLBACK that follows is a statement, not a transaction
BEGIN;
SELECT 1 / 0;
ROLLBACK;
-- with track off nothing is counted (the SET turning it off still is)
SET pgbench_ext.track = off;
SELECT 1;
SET pgbench_ext.track = on;
SELECT scope, metric, value FROM pgbench_ext.counters()
WHERE metric IN ('calls', 'rows', 'commits', 'aborts') AND scope NOT IN ('hw', 'hw_xacts')
ORDER BY scope, metric;

-- A transaction of several command types and many statements counts each.
SELECT pgbench_ext.reset();
BEGIN;
INSERT INTO t VALUES (20);
SELECT count(*) >= 0 AS selected FROM t;
UPDATE t SET a = a WHERE a = 20;
\set ECHO none
\o /dev/null
SELECT format('SELECT %s AS g', g) FROM generate_series(1, 70) g \gexec
\o
\set ECHO all
COMMIT;
SELECT scope, metric, value FROM pgbench_ext.counters()
WHERE metric IN ('calls', 'commits') AND scope IN ('insert', 'select', 'update', 'xact')
ORDER BY scope, metric;

-- Errors in nested statements do not leave the level at which statements
-- count as top-level raised.  Three ways out of the failed executor: a
-- PL/pgSQL EXCEPTION block (a subtransaction's abort), the DO around it
-- (a utility statement), and a SELECT's transaction abort.  After each,
-- SELECT 1 still counts.
SELECT pgbench_ext.reset();
CREATE TEMP TABLE nest (a int);
INSERT INTO nest VALUES (0);
CREATE FUNCTION pg_temp.caught() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
	BEGIN
		PERFORM 1 / a FROM nest;
	EXCEPTION WHEN division_by_zero THEN
		RETURN -1;
	END;
	RETURN 1;
END $$;
CREATE FUNCTION pg_temp.uncaught() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
	PERFORM 1 / a FROM nest;
	RETURN 1;
END $$;
\set VERBOSITY terse
BEGIN;
SELECT pg_temp.caught();
SELECT 1;
COMMIT;
DO $$ BEGIN PERFORM 1 / a FROM nest; END $$;
SELECT 1;
SELECT pg_temp.uncaught();
SELECT 1;
-- the same inside savepoints rolled back to, more of them than statements
-- can be open at once: the failed statements are dropped with their
-- subtransactions, and the transaction goes on counting
BEGIN;
SELECT stmt FROM generate_series(1, 9) g,
	unnest(ARRAY['SAVEPOINT s', 'SELECT pg_temp.uncaught()', 'ROLLBACK TO SAVEPOINT s'])
		WITH ORDINALITY AS u(stmt, n)
ORDER BY g, n
\gexec
SELECT 1;
COMMIT;
\set VERBOSITY default
-- a procedure that ends transactions runs its statements at its own level
-- to the end: none of its INSERTs counts, the SELECT after it does, and
-- each transaction it ends is counted
CREATE PROCEDURE pg_temp.ends_transactions() LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO nest VALUES (1);
	ROLLBACK;
	INSERT INTO nest VALUES (2);
	COMMIT;
	INSERT INTO nest VALUES (3);
END $$;
CALL pg_temp.ends_transactions();
SELECT 1;
-- and called from a DO block, by a nested utility statement: the DO's
-- transactions are counted all the same
DO $$ BEGIN CALL pg_temp.ends_transactions(); END $$;
SELECT scope, metric, value FROM pgbench_ext.counters()
WHERE metric IN ('calls', 'commits', 'aborts') AND scope IN ('select', 'xact', 'insert')
ORDER BY scope, metric;

-- Twelve cursors open, and meanwhile a tight loop of counters() reads, each
-- a statement of its own: none is lost.  A DECLAREd cursor's query runs
-- inside its DECLARE, a utility statement, so it is no select of its own:
-- the selects are the reset, the 3 queries generating the statements and
-- the 30 reads (34), their rows 1 + 12 + 30 + 12 generated and 30 read (85).
-- (Portals of the extended protocol are top-level statements: t/021.)
SELECT pgbench_ext.reset();
BEGIN;
\set ECHO none
\o /dev/null
SELECT format('DECLARE c%s CURSOR FOR SELECT g FROM generate_series(1, %s) g', i, i)
FROM generate_series(1, 12) i \gexec
SELECT 'SELECT count(*) FROM pgbench_ext.counters()' FROM generate_series(1, 30) \gexec
SELECT format('FETCH ALL FROM c%s', i) FROM generate_series(1, 12) i \gexec
\o
\set ECHO all
CLOSE ALL;
COMMIT;
SELECT scope, metric, value FROM pgbench_ext.counters()
WHERE metric IN ('calls', 'rows', 'commits') AND scope IN ('select', 'xact')
ORDER BY scope, metric;

-- Times are consistent with each other.
SELECT scope,
       (SELECT value FROM pgbench_ext.counters() c WHERE c.scope = s.scope AND metric = 'p50_ms')
       <= (SELECT value FROM pgbench_ext.counters() c WHERE c.scope = s.scope AND metric = 'p99_ms') AS p50_le_p99,
       (SELECT value FROM pgbench_ext.counters() c WHERE c.scope = s.scope AND metric = 'p99_ms')
       <= (SELECT value FROM pgbench_ext.counters() c WHERE c.scope = s.scope AND metric = 'max_ms') AS p99_le_max
FROM (VALUES ('update'), ('xact')) s(scope);

-- report() has every section; wait_profile() and hw_status() their columns.
SELECT DISTINCT section FROM pgbench_ext.report() ORDER BY 1;
SELECT count(*) >= 0 AS ok FROM pgbench_ext.wait_profile();
SELECT counter, kind FROM pgbench_ext.hw_status();

-- Who sees what (docs/extension.md).  Without USAGE on the schema, a role
-- reads nothing; with it, the sums over the whole instance, a superuser's
-- statements included, exactly as a superuser reads them.  reset() is not
-- for everyone.
CREATE ROLE counters_nobody;
SET ROLE counters_nobody;
SELECT count(*) FROM pgbench_ext.counters();
RESET ROLE;
GRANT USAGE ON SCHEMA pgbench_ext TO counters_nobody;
SELECT pgbench_ext.reset();
SELECT 1;
SELECT 2;
SET ROLE counters_nobody;
SELECT pgbench_ext.reset();
SELECT metric, value FROM pgbench_ext.counters()
WHERE scope = 'select' AND metric IN ('calls', 'rows') ORDER BY metric;
SELECT DISTINCT section FROM pgbench_ext.report() ORDER BY 1;
SELECT count(*) >= 0 AS reads_waits FROM pgbench_ext.wait_profile();
RESET ROLE;
GRANT EXECUTE ON FUNCTION pgbench_ext.reset() TO counters_nobody;
SET ROLE counters_nobody;
SELECT pgbench_ext.reset();
RESET ROLE;
REVOKE ALL ON SCHEMA pgbench_ext FROM counters_nobody;
REVOKE ALL ON FUNCTION pgbench_ext.reset() FROM counters_nobody;
DROP ROLE counters_nobody;

-- Settings are reserved: a misspelt one is refused.
SET pgbench_ext.trak = on;
SHOW pgbench_ext.track;
SHOW pgbench_ext.track_hw;
SHOW pgbench_ext.sample_interval_ms;
