-- environment(): stable columns only (names and types), never machine values.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

SELECT pg_get_function_result('pgbench_ext.environment'::regproc);

SELECT DISTINCT category FROM pgbench_ext.environment() ORDER BY 1;

-- The rows a comparison of variants depends on are always there.
SELECT category, name, value IS NOT NULL AS has_value
FROM pgbench_ext.environment()
WHERE (category, name) IN (('server', 'server_version_num'), ('build', 'CONFIGURE'),
                           ('build', 'CFLAGS'), ('build', 'debug_assertions'),
                           ('setting', 'fsync'), ('setting', 'shared_buffers'),
                           ('setting', 'data_checksums'), ('machine', 'cpu_count'))
ORDER BY 1, 2;

-- server_version_num is the running server's.
SELECT value = current_setting('server_version_num')
FROM pgbench_ext.environment() WHERE name = 'server_version_num';

-- A changed setting shows up with its source.
SELECT value, note FROM pgbench_ext.environment()
WHERE category = 'changed' AND name = 'shared_preload_libraries';

-- A role without privileges gets notes, not errors.
CREATE ROLE pgbench_ext_reader;
GRANT USAGE ON SCHEMA pgbench_ext TO pgbench_ext_reader;
SET ROLE pgbench_ext_reader;
SELECT category, name, value IS NULL AS hidden, note
FROM pgbench_ext.environment()
WHERE category = 'build' AND name IN ('CONFIGURE', 'CC', 'CFLAGS')
ORDER BY name;
SELECT count(*) > 0 AS has_settings FROM pgbench_ext.environment() WHERE category = 'setting';
SELECT name, value IS NULL AS hidden, note FROM pgbench_ext.environment()
WHERE name IN ('shared_preload_libraries', '(superuser-only settings)') ORDER BY category;
RESET ROLE;
DROP OWNED BY pgbench_ext_reader;
DROP ROLE pgbench_ext_reader;
