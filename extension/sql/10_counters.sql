-- Counters, wait profile and hardware counters (extension/counters.c,
-- hooks.c, wait_sampler.c, report.c).  All but hw_status() need the library
-- in shared_preload_libraries and say so otherwise.
--
-- Who sees what: a role with USAGE on this schema (superusers only until
-- granted) reads counters(), report() and wait_profile() for the whole
-- instance, as pg_stat_database and pg_stat_io show every role the whole
-- instance: sums over all backends, with no query text, no role and no
-- figure of any one backend.  reset() is superuser-only until granted.

CREATE FUNCTION counters()
RETURNS TABLE (scope text, metric text, value float8)
AS 'MODULE_PATHNAME', 'pgbench_ext_counters'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION counters() IS
'statement, transaction, CPU and hardware counters since the last reset, as (scope, metric, value)';

CREATE FUNCTION wait_profile()
RETURNS TABLE (backend_type text, wait_event_type text, wait_event text,
			   samples bigint, pct float8)
AS 'MODULE_PATHNAME', 'pgbench_ext_wait_profile'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION wait_profile() IS
'wait-event samples per backend type since the last reset; pct of that backend type''s samples';

CREATE FUNCTION report()
RETURNS TABLE (section text, line text)
AS 'MODULE_PATHNAME', 'pgbench_ext_report'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED
SET search_path = @extschema@, pg_catalog, pg_temp;

COMMENT ON FUNCTION report() IS
'the counters for reading in psql: per statement type, per transaction, top waits, hardware counters';

CREATE FUNCTION hw_status()
RETURNS TABLE (counter text, kind text, available boolean, reason text)
AS 'MODULE_PATHNAME', 'pgbench_ext_hw_status'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION hw_status() IS
'which perf_event counters this backend can read, and why not where it cannot';

CREATE FUNCTION reset()
RETURNS void
AS 'MODULE_PATHNAME', 'pgbench_ext_reset'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION reset() IS
'zero all counters and the wait profile; GRANT EXECUTE to let other roles do it';

-- Resetting destroys everyone's figures: superusers only unless granted.
REVOKE ALL ON FUNCTION reset() FROM PUBLIC;
