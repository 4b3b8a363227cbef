-- The version handshake's server half: the library and the SQL objects agree.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

SELECT pgbench_ext.version() = extversion AS library_matches_sql
FROM pg_extension WHERE extname = 'pgbench_ext';

SELECT pgbench_ext.version() ~ '^\d+\.\d+\.\d+$' AS version_is_semver;

-- STABLE: a new library may be loaded under the same SQL objects.
SELECT provolatile FROM pg_proc WHERE oid = 'pgbench_ext.version'::regproc;

-- Objects live in their own schema.
SELECT extnamespace::regnamespace AS schema FROM pg_extension WHERE extname = 'pgbench_ext';
