-- Handshake and environment: objects that work without shared_preload_libraries.

CREATE FUNCTION version()
RETURNS text
AS 'MODULE_PATHNAME', 'pgbench_ext_version'
LANGUAGE C STRICT IMMUTABLE PARALLEL SAFE;

COMMENT ON FUNCTION version() IS
'version of the loaded pgbench_ext library; compare with pg_extension.extversion';

CREATE FUNCTION environment()
RETURNS TABLE (category text, name text, value text, note text)
AS 'MODULE_PATHNAME', 'pgbench_ext_environment'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION environment() IS
'server build, settings and host facts that can change a benchmark result';
