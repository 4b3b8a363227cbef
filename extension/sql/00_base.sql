-- Handshake and environment: objects that work without shared_preload_libraries.

CREATE FUNCTION version()
RETURNS text
AS 'MODULE_PATHNAME', 'pgbench_ext_version'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

-- STABLE, not IMMUTABLE: a new library can be loaded without a new SQL
-- script, and the answer must not be folded into plans or indexes.
-- Qualified: pg_catalog, searched first, has a version() of its own.
COMMENT ON FUNCTION @extschema@.version() IS
'version of the loaded pgbench_ext library; compare with pg_extension.extversion';

CREATE FUNCTION environment()
RETURNS TABLE (category text, name text, value text, note text)
AS 'MODULE_PATHNAME', 'pgbench_ext_environment'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED
-- it reads pg_settings through SPI: no caller's schema may shadow a name
SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION environment() IS
'server build, settings and host facts that can change a benchmark result';
