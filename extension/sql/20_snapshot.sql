-- Snapshot and cache-line instrumentation (snapshot_bench.c, struct_layout.c,
-- struct_placement.c, cache_info.c).  None of it needs shared_preload_libraries.

CREATE FUNCTION snapshot_bench(calls int DEFAULT 100000,
                               mode text DEFAULT 'full',
                               batches int DEFAULT 20)
RETURNS TABLE (mode text, calls int, batches int,
               ns_min float8, ns_median float8, ns_p90 float8, ns_max float8,
               timer_overhead_ns float8,
               xcnt int, subxcnt int, suboverflowed bool, procs int,
               cycles_per_call float8, instructions_per_call float8,
               l1d_misses_per_call float8, hw_reason text)
AS 'MODULE_PATHNAME', 'pgbench_ext_snapshot_bench'
LANGUAGE C VOLATILE PARALLEL UNSAFE;

COMMENT ON FUNCTION snapshot_bench(int, text, int) IS
'ns per GetSnapshotData() call over batches; mode full (proc-array scan) or reuse (cached path)';

-- It holds ProcArrayLock in a tight loop: not for every role on a live server.
REVOKE ALL ON FUNCTION snapshot_bench(int, text, int) FROM PUBLIC;

CREATE FUNCTION struct_layout(struct_name text DEFAULT NULL)
RETURNS TABLE (struct_name text, field text, type text, byte_offset int, size int,
               line_64 int, line_pg int, straddles bool)
AS 'MODULE_PATHNAME', 'pgbench_ext_struct_layout'
LANGUAGE C STABLE PARALLEL SAFE;

COMMENT ON FUNCTION struct_layout(text) IS
'offsets, sizes and cache lines of the fields of SnapshotData, PGPROC, PROC_HDR and VariableCacheData as compiled; field (total) is sizeof the struct';

CREATE FUNCTION struct_placement()
RETURNS TABLE (object text, struct_name text, address text, mod_64 int, mod_pg int,
               size bigint)
AS 'MODULE_PATHNAME', 'pgbench_ext_struct_placement'
LANGUAGE C STRICT VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION struct_placement() IS
'addresses of the live ProcGlobal, PGPROC, ShmemVariableCache and dense xid arrays modulo 64 and PG_CACHE_LINE_SIZE';

-- Addresses reveal the server's memory map.
REVOKE ALL ON FUNCTION struct_placement() FROM PUBLIC;

CREATE FUNCTION cache_info()
RETURNS TABLE (name text, value text, bytes bigint, source text)
AS 'MODULE_PATHNAME', 'pgbench_ext_cache_info'
LANGUAGE C STRICT STABLE PARALLEL SAFE;

COMMENT ON FUNCTION cache_info() IS
'CPU cache line and cache sizes (sysfs or sysconf), PG_CACHE_LINE_SIZE, ALIGNOF_BUFFER, CPU model';
