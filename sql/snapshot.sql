-- snapshot_bench, struct_layout, struct_placement, cache_info: properties that
-- hold on any machine (the x86-64 figures are checked in test/t/031_struct_layout.pl).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pgbench_ext;
RESET client_min_messages;

-- Every struct the issue names is reported, each with its (total) row.
SELECT struct_name, count(*) FILTER (WHERE field = '(total)') AS total_rows,
       count(*) > 10 AS has_fields
FROM pgbench_ext.struct_layout() GROUP BY 1 ORDER BY 1;

-- Fields lie inside the struct, in declaration order, without overlapping.
WITH l AS (SELECT * FROM pgbench_ext.struct_layout() WITH ORDINALITY AS r(sname, field, type, off, sz, l64, lpg, st, ord)),
     f AS (SELECT l.*, t.sz AS total,
                  lead(l.off) OVER (PARTITION BY l.sname ORDER BY l.ord) AS next_off
           FROM l JOIN l t ON t.sname = l.sname AND t.field = '(total)'
           WHERE l.field <> '(total)')
SELECT sname, field, off, sz FROM f
WHERE sz <= 0 OR off + sz > total OR (next_off IS NOT NULL AND off + sz > next_off);

-- Line numbers and straddles follow from offset and size.
SELECT count(*) AS inconsistent_rows
FROM pgbench_ext.struct_layout() l,
     (SELECT bytes FROM pgbench_ext.cache_info() WHERE name = 'PG_CACHE_LINE_SIZE') pg
WHERE line_64 <> byte_offset / 64
   OR line_pg <> byte_offset / pg.bytes
   OR straddles <> (byte_offset / 64 <> (byte_offset + size - 1) / 64);

-- The fields GetSnapshotData() writes are there.
SELECT struct_name, field, type FROM pgbench_ext.struct_layout()
WHERE field IN ('xmin', 'xcnt', 'snapXactCompletionCount', 'xactCompletionCount', 'statusFlags')
ORDER BY 1, 2;

SELECT count(*) AS snapshot_rows FROM pgbench_ext.struct_layout('SnapshotData');

-- Unknown struct: the error names the argument and the accepted values.
SELECT * FROM pgbench_ext.struct_layout('SnapshotDta');

-- cache_info: the compiled-in constants and at least one cache line size.
SELECT name, value, source FROM pgbench_ext.cache_info()
WHERE name IN ('PG_CACHE_LINE_SIZE', 'ALIGNOF_BUFFER') ORDER BY 1;
SELECT count(*) > 0 AS has_line_size FROM pgbench_ext.cache_info()
WHERE name LIKE 'L1%line' AND bytes > 0;

-- struct_placement: the live objects, residues inside a line.
SELECT object, struct_name, mod_64 BETWEEN 0 AND 63 AS mod_64_ok,
       mod_pg >= 0 AND mod_pg < (SELECT bytes FROM pgbench_ext.cache_info() WHERE name = 'PG_CACHE_LINE_SIZE') AS mod_pg_ok,
       mod_pg % 64 = mod_64 AS consistent, size > 0 AS has_size
FROM pgbench_ext.struct_placement();

-- snapshot_bench: positive finite figures in order, for both modes.
SELECT mode, calls, batches,
       ns_min > 0 AND ns_min <= ns_median AND ns_median <= ns_p90 AND ns_p90 <= ns_max
         AND ns_max < 'Infinity' AS ordered_positive_finite,
       timer_overhead_ns >= 0 AND timer_overhead_ns < 'Infinity' AS overhead_ok,
       xcnt >= 0 AS xcnt_ok, subxcnt >= 0 AS subxcnt_ok, procs >= 1 AS procs_ok,
       -- counters are all there, or NULL with a reason (virtual machines)
       CASE WHEN hw_reason IS NULL
            THEN cycles_per_call > 0 AND instructions_per_call > 0 AND l1d_misses_per_call >= 0
            ELSE hw_reason <> '' AND (cycles_per_call IS NULL OR instructions_per_call IS NULL
                                      OR l1d_misses_per_call IS NULL) END AS hw_ok
FROM (SELECT * FROM pgbench_ext.snapshot_bench(20000, 'full', 10)
      UNION ALL
      SELECT * FROM pgbench_ext.snapshot_bench(20000, 'reuse', 10)) b;

-- Defaults, and a remainder spread over batches.
SELECT mode, calls, batches FROM pgbench_ext.snapshot_bench();
SELECT calls, batches FROM pgbench_ext.snapshot_bench(1001, 'full', 7);

-- Inside a repeatable-read transaction it leaves the transaction's snapshot
-- alone (the function itself errors out if MyProc->xmin moved).
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT pg_current_snapshot()::text AS snap_before \gset
SELECT calls FROM pgbench_ext.snapshot_bench(1000, 'full', 2);
SELECT calls FROM pgbench_ext.snapshot_bench(1000, 'reuse', 2);
SELECT pg_current_snapshot()::text = :'snap_before' AS same_snapshot;
COMMIT;

-- Bad arguments name themselves and the accepted values.
SELECT * FROM pgbench_ext.snapshot_bench(0);
SELECT * FROM pgbench_ext.snapshot_bench(-5);
SELECT * FROM pgbench_ext.snapshot_bench(100000001);
SELECT * FROM pgbench_ext.snapshot_bench(1000, 'full', 0);
SELECT * FROM pgbench_ext.snapshot_bench(1000, 'full', 10001);
SELECT * FROM pgbench_ext.snapshot_bench(5, 'full', 10);
SELECT * FROM pgbench_ext.snapshot_bench(1000, 'fast');
SELECT * FROM pgbench_ext.snapshot_bench(1000, NULL);
SELECT * FROM pgbench_ext.snapshot_bench(NULL);
SELECT * FROM pgbench_ext.snapshot_bench(1000, 'full', NULL);

-- Only superusers by default: it loads ProcArrayLock, and addresses leak the memory map.
CREATE ROLE pgbench_ext_snap_reader;
GRANT USAGE ON SCHEMA pgbench_ext TO pgbench_ext_snap_reader;
SET ROLE pgbench_ext_snap_reader;
SELECT * FROM pgbench_ext.snapshot_bench(1000);
SELECT * FROM pgbench_ext.struct_placement();
SELECT count(*) > 0 AS layout_is_public FROM pgbench_ext.struct_layout('PGPROC');
RESET ROLE;
DROP OWNED BY pgbench_ext_snap_reader;
DROP ROLE pgbench_ext_snap_reader;

-- Declared properties the client and planner rely on.
SELECT proname, provolatile, proparallel FROM pg_proc
WHERE pronamespace = 'pgbench_ext'::regnamespace
  AND proname IN ('snapshot_bench', 'struct_layout', 'struct_placement', 'cache_info')
ORDER BY 1;
