-- ALTER EXTENSION pgbench_ext UPDATE from every earlier version gives the
-- objects of a fresh install: the same functions (definitions, volatility,
-- settings, privileges), tables (columns, defaults, constraints), comments
-- and dumped configuration tables.
SET client_min_messages = warning;

CREATE TEMP VIEW extension_objects AS
SELECT pg_describe_object(d.classid, d.objid, 0) AS object,
       coalesce(
           (SELECT pg_get_functiondef(p.oid) || coalesce(p.proacl::text, '')
            FROM pg_proc p
            WHERE d.classid = 'pg_proc'::regclass AND p.oid = d.objid),
           (SELECT (SELECT string_agg(format('%s %s %s %s', a.attname,
                                             format_type(a.atttypid, a.atttypmod),
                                             a.attnotnull, pg_get_expr(ad.adbin, ad.adrelid)),
                                      ', ' ORDER BY a.attnum)
                    FROM pg_attribute a
                    LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
                    WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped)
                   || coalesce((SELECT string_agg(pg_get_constraintdef(con.oid), ', ' ORDER BY con.conname)
                                FROM pg_constraint con WHERE con.conrelid = c.oid), '')
                   || coalesce(c.relacl::text, '')
            FROM pg_class c
            WHERE d.classid = 'pg_class'::regclass AND c.oid = d.objid),
           '') AS detail,
       coalesce(obj_description(d.objid, (SELECT relname FROM pg_class WHERE oid = d.classid)), '') AS comment
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pgbench_ext')
UNION ALL
SELECT 'configuration tables', array_to_string(extconfig::regclass[], ', '), ''
FROM pg_extension WHERE extname = 'pgbench_ext';

DROP EXTENSION IF EXISTS pgbench_ext CASCADE;
CREATE EXTENSION pgbench_ext;
CREATE TEMP TABLE fresh AS SELECT * FROM extension_objects;

DROP EXTENSION pgbench_ext;
CREATE EXTENSION pgbench_ext VERSION '0.1.0';
ALTER EXTENSION pgbench_ext UPDATE;
SELECT extversion = pgbench_ext.version() AS updated_to_library_version
FROM pg_extension WHERE extname = 'pgbench_ext';
CREATE TEMP TABLE updated AS SELECT * FROM extension_objects;

RESET client_min_messages;
SELECT count(*) > 20 AS many_objects FROM fresh;
-- neither touched the server's own version() (pg_catalog is searched first)
SELECT obj_description('pg_catalog.version()'::regprocedure, 'pg_proc') AS server_version_comment;
-- only in the fresh install, or different there
SELECT object FROM (TABLE fresh EXCEPT TABLE updated) f ORDER BY 1;
-- only after the update, or different there
SELECT object FROM (TABLE updated EXCEPT TABLE fresh) u ORDER BY 1;
