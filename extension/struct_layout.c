/*-------------------------------------------------------------------------
 *
 * struct_layout.c
 *		pgbench_ext.struct_layout(): field offsets and cache lines of the
 *		shared structures that GetSnapshotData() and its writers touch.
 *
 * A patch that only reorders struct fields (to keep the fields written
 * together on one cache line) changes nothing a test can see except
 * speed.  This report makes the change visible: every number comes from
 * offsetof() and sizeof() on the headers this library was compiled
 * against, so a library built against a patched tree reports the patched
 * layout, and the client's "layout" command can diff two builds.
 *
 * Offsets are relative to the start of the struct, as if it began on a
 * cache line; struct_placement() reports where the live objects really
 * start.  The type column is the declared type as written in the table
 * below (the compiler checks names, offsets and sizes, not that text).
 *
 * Fields that exist only in some releases are selected through compat.h;
 * each table follows the headers of PG 13 to 18 (docs/versions.md says
 * which were compiled and tested).
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include <stddef.h>

#include "access/transam.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "storage/proc.h"
#include "utils/builtins.h"
#include "utils/snapshot.h"

PG_FUNCTION_INFO_V1(pgbench_ext_struct_layout);

/* The hardware line of x86-64 and most arm64 parts; "straddles" uses it. */
#define LAYOUT_LINE_BYTES 64

typedef struct LayoutField
{
	const char *name;			/* as offsetof() accepts it */
	const char *type;
	size_t		offset;
	size_t		size;
} LayoutField;

typedef struct LayoutStruct
{
	const char *name;
	size_t		size;
	const LayoutField *fields;
	int			nfields;
} LayoutStruct;

#define FIELD(S, f, T) {#f, T, offsetof(S, f), sizeof(((S *) 0)->f)}

static const LayoutField snapshot_fields[] = {
	FIELD(SnapshotData, snapshot_type, "SnapshotType"),
	FIELD(SnapshotData, xmin, "TransactionId"),
	FIELD(SnapshotData, xmax, "TransactionId"),
	FIELD(SnapshotData, xip, "TransactionId *"),
	FIELD(SnapshotData, xcnt, "uint32"),
	FIELD(SnapshotData, subxip, "TransactionId *"),
	FIELD(SnapshotData, subxcnt, "int32"),
	FIELD(SnapshotData, suboverflowed, "bool"),
	FIELD(SnapshotData, takenDuringRecovery, "bool"),
	FIELD(SnapshotData, copied, "bool"),
	FIELD(SnapshotData, curcid, "CommandId"),
	FIELD(SnapshotData, speculativeToken, "uint32"),
	SINCE_PG14(FIELD(SnapshotData, vistest, "struct GlobalVisState *"))
	FIELD(SnapshotData, active_count, "uint32"),
	FIELD(SnapshotData, regd_count, "uint32"),
	FIELD(SnapshotData, ph_node, "pairingheap_node"),
	BEFORE_PG18(FIELD(SnapshotData, whenTaken, "TimestampTz"))
	BEFORE_PG18(FIELD(SnapshotData, lsn, "XLogRecPtr"))
	SINCE_PG14(FIELD(SnapshotData, snapXactCompletionCount, "uint64"))
};

static const LayoutField pgproc_fields[] = {
	BEFORE_PG16(FIELD(PGPROC, links, "SHM_QUEUE"))
	SINCE_PG16(FIELD(PGPROC, links, "dlist_node"))
	BEFORE_PG16(FIELD(PGPROC, procgloballist, "PGPROC **"))
	SINCE_PG16(FIELD(PGPROC, procgloballist, "dlist_head *"))
	FIELD(PGPROC, sem, "PGSemaphore"),
	SINCE_PG14(FIELD(PGPROC, waitStatus, "ProcWaitStatus"))
	BEFORE_PG14(FIELD(PGPROC, waitStatus, "int"))
	FIELD(PGPROC, procLatch, "Latch"),
	SINCE_PG14(FIELD(PGPROC, xid, "TransactionId"))
	SINCE_PG14(FIELD(PGPROC, xmin, "TransactionId"))
	BEFORE_PG17(FIELD(PGPROC, lxid, "LocalTransactionId"))
	FIELD(PGPROC, pid, "int"),
	SINCE_PG14(FIELD(PGPROC, pgxactoff, "int"))
	BEFORE_PG17(FIELD(PGPROC, pgprocno, "int"))
	BEFORE_PG17(FIELD(PGPROC, backendId, "BackendId"))
	SINCE_PG17(FIELD(PGPROC, vxid.procNumber, "ProcNumber"))
	SINCE_PG17(FIELD(PGPROC, vxid.lxid, "LocalTransactionId"))
	FIELD(PGPROC, databaseId, "Oid"),
	FIELD(PGPROC, roleId, "Oid"),
	FIELD(PGPROC, tempNamespaceId, "Oid"),
	BEFORE_PG18(FIELD(PGPROC, isBackgroundWorker, "bool"))
	SINCE_PG18(FIELD(PGPROC, isRegularBackend, "bool"))
	FIELD(PGPROC, recoveryConflictPending, "bool"),
	SINCE_PG15(FIELD(PGPROC, lwWaiting, "uint8"))
	BEFORE_PG15(FIELD(PGPROC, lwWaiting, "bool"))
	FIELD(PGPROC, lwWaitMode, "uint8"),
	FIELD(PGPROC, lwWaitLink, "proclist_node"),
	FIELD(PGPROC, cvWaitLink, "proclist_node"),
	FIELD(PGPROC, waitLock, "LOCK *"),
	FIELD(PGPROC, waitProcLock, "PROCLOCK *"),
	FIELD(PGPROC, waitLockMode, "LOCKMODE"),
	FIELD(PGPROC, heldLocks, "LOCKMASK"),
	SINCE_PG14(FIELD(PGPROC, waitStart, "pg_atomic_uint64"))
	SINCE_PG15(FIELD(PGPROC, delayChkptFlags, "int"))
	BEFORE_PG15(FIELD(PGPROC, delayChkpt, "bool"))
	SINCE_PG14(FIELD(PGPROC, statusFlags, "uint8"))
	FIELD(PGPROC, waitLSN, "XLogRecPtr"),
	FIELD(PGPROC, syncRepState, "int"),
	BEFORE_PG16(FIELD(PGPROC, syncRepLinks, "SHM_QUEUE"))
	SINCE_PG16(FIELD(PGPROC, syncRepLinks, "dlist_node"))
	BEFORE_PG16(FIELD(PGPROC, myProcLocks, "SHM_QUEUE[NUM_LOCK_PARTITIONS]"))
	SINCE_PG16(FIELD(PGPROC, myProcLocks, "dlist_head[NUM_LOCK_PARTITIONS]"))
	SINCE_PG14(FIELD(PGPROC, subxidStatus, "XidCacheStatus"))
	FIELD(PGPROC, subxids, "struct XidCache"),
	FIELD(PGPROC, procArrayGroupMember, "bool"),
	FIELD(PGPROC, procArrayGroupNext, "pg_atomic_uint32"),
	FIELD(PGPROC, procArrayGroupMemberXid, "TransactionId"),
	FIELD(PGPROC, wait_event_info, "uint32"),
	FIELD(PGPROC, clogGroupMember, "bool"),
	FIELD(PGPROC, clogGroupNext, "pg_atomic_uint32"),
	FIELD(PGPROC, clogGroupMemberXid, "TransactionId"),
	FIELD(PGPROC, clogGroupMemberXidStatus, "XidStatus"),
	BEFORE_PG17(FIELD(PGPROC, clogGroupMemberPage, "int"))
	SINCE_PG17(FIELD(PGPROC, clogGroupMemberPage, "int64"))
	FIELD(PGPROC, clogGroupMemberLsn, "XLogRecPtr"),
	FIELD(PGPROC, fpInfoLock, "LWLock"),
	BEFORE_PG18(FIELD(PGPROC, fpLockBits, "uint64"))
	SINCE_PG18(FIELD(PGPROC, fpLockBits, "uint64 *"))
	BEFORE_PG18(FIELD(PGPROC, fpRelId, "Oid[FP_LOCK_SLOTS_PER_BACKEND]"))
	SINCE_PG18(FIELD(PGPROC, fpRelId, "Oid *"))
	FIELD(PGPROC, fpVXIDLock, "bool"),
	FIELD(PGPROC, fpLocalTransactionId, "LocalTransactionId"),
	FIELD(PGPROC, lockGroupLeader, "PGPROC *"),
	FIELD(PGPROC, lockGroupMembers, "dlist_head"),
	FIELD(PGPROC, lockGroupLink, "dlist_node"),
};

static const LayoutField proc_hdr_fields[] = {
	FIELD(PROC_HDR, allProcs, "PGPROC *"),
	BEFORE_PG14(FIELD(PROC_HDR, allPgXact, "PGXACT *"))
	SINCE_PG14(FIELD(PROC_HDR, xids, "TransactionId *"))
	SINCE_PG14(FIELD(PROC_HDR, subxidStates, "XidCacheStatus *"))
	SINCE_PG14(FIELD(PROC_HDR, statusFlags, "uint8 *"))
	FIELD(PROC_HDR, allProcCount, "uint32"),
	BEFORE_PG16(FIELD(PROC_HDR, freeProcs, "PGPROC *"))
	SINCE_PG16(FIELD(PROC_HDR, freeProcs, "dlist_head"))
	BEFORE_PG16(FIELD(PROC_HDR, autovacFreeProcs, "PGPROC *"))
	SINCE_PG16(FIELD(PROC_HDR, autovacFreeProcs, "dlist_head"))
	BEFORE_PG16(FIELD(PROC_HDR, bgworkerFreeProcs, "PGPROC *"))
	SINCE_PG16(FIELD(PROC_HDR, bgworkerFreeProcs, "dlist_head"))
	BEFORE_PG16(FIELD(PROC_HDR, walsenderFreeProcs, "PGPROC *"))
	SINCE_PG16(FIELD(PROC_HDR, walsenderFreeProcs, "dlist_head"))
	FIELD(PROC_HDR, procArrayGroupFirst, "pg_atomic_uint32"),
	FIELD(PROC_HDR, clogGroupFirst, "pg_atomic_uint32"),
	BEFORE_PG18(FIELD(PROC_HDR, walwriterLatch, "Latch *"))
	BEFORE_PG18(FIELD(PROC_HDR, checkpointerLatch, "Latch *"))
	SINCE_PG18(FIELD(PROC_HDR, walwriterProc, "ProcNumber"))
	SINCE_PG18(FIELD(PROC_HDR, checkpointerProc, "ProcNumber"))
	FIELD(PROC_HDR, spins_per_delay, "int"),
	BEFORE_PG15(FIELD(PROC_HDR, startupProc, "PGPROC *"))
	BEFORE_PG15(FIELD(PROC_HDR, startupProcPid, "int"))
	FIELD(PROC_HDR, startupBufferPinWaitBufId, "int"),
};

static const LayoutField transam_fields[] = {
	FIELD(TRANSAM_VARIABLES_STRUCT, nextOid, "Oid"),
	FIELD(TRANSAM_VARIABLES_STRUCT, oidCount, "uint32"),
	SINCE_PG14(FIELD(TRANSAM_VARIABLES_STRUCT, nextXid, "FullTransactionId"))
	BEFORE_PG14(FIELD(TRANSAM_VARIABLES_STRUCT, nextFullXid, "FullTransactionId"))
	FIELD(TRANSAM_VARIABLES_STRUCT, oldestXid, "TransactionId"),
	FIELD(TRANSAM_VARIABLES_STRUCT, xidVacLimit, "TransactionId"),
	FIELD(TRANSAM_VARIABLES_STRUCT, xidWarnLimit, "TransactionId"),
	FIELD(TRANSAM_VARIABLES_STRUCT, xidStopLimit, "TransactionId"),
	FIELD(TRANSAM_VARIABLES_STRUCT, xidWrapLimit, "TransactionId"),
	FIELD(TRANSAM_VARIABLES_STRUCT, oldestXidDB, "Oid"),
	FIELD(TRANSAM_VARIABLES_STRUCT, oldestCommitTsXid, "TransactionId"),
	FIELD(TRANSAM_VARIABLES_STRUCT, newestCommitTsXid, "TransactionId"),
	SINCE_PG14(FIELD(TRANSAM_VARIABLES_STRUCT, latestCompletedXid, "FullTransactionId"))
	BEFORE_PG14(FIELD(TRANSAM_VARIABLES_STRUCT, latestCompletedXid, "TransactionId"))
	SINCE_PG14(FIELD(TRANSAM_VARIABLES_STRUCT, xactCompletionCount, "uint64"))
	FIELD(TRANSAM_VARIABLES_STRUCT, oldestClogXid, "TransactionId"),
};

#define STRUCT(S, name, fields) {name, sizeof(S), fields, lengthof(fields)}

static const LayoutStruct layout_structs[] = {
	STRUCT(SnapshotData, "SnapshotData", snapshot_fields),
	STRUCT(PGPROC, "PGPROC", pgproc_fields),
	STRUCT(PROC_HDR, "PROC_HDR", proc_hdr_fields),
	STRUCT(TRANSAM_VARIABLES_STRUCT, TRANSAM_VARIABLES_NAME, transam_fields),
};

/* "SnapshotData, PGPROC, ..." for error messages. */
static char *
known_struct_names(void)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < lengthof(layout_structs); i++)
		appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "", layout_structs[i].name);
	return buf.data;
}

static void
emit_row(ReturnSetInfo *rsinfo, const char *struct_name, const char *field,
		 const char *type, size_t offset, size_t size)
{
	Datum		values[8];
	bool		nulls[8] = {0};
	size_t		last = offset + (size > 0 ? size - 1 : 0);

	values[0] = CStringGetTextDatum(struct_name);
	values[1] = CStringGetTextDatum(field);
	values[2] = CStringGetTextDatum(type);
	values[3] = Int32GetDatum((int32) offset);
	values[4] = Int32GetDatum((int32) size);
	values[5] = Int32GetDatum((int32) (offset / LAYOUT_LINE_BYTES));
	values[6] = Int32GetDatum((int32) (offset / PG_CACHE_LINE_SIZE));
	values[7] = BoolGetDatum(offset / LAYOUT_LINE_BYTES != last / LAYOUT_LINE_BYTES);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * pgbench_ext.struct_layout(struct_name text DEFAULT NULL)
 *	 RETURNS TABLE (struct_name, field, type, byte_offset, size, line_64,
 *					line_pg, straddles)
 *
 * One row per field in declaration order, then one row with field
 * '(total)' holding sizeof the struct (offset 0).  NULL means every struct.
 */
Datum
pgbench_ext_struct_layout(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *wanted = PG_ARGISNULL(0) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(0));
	bool		found = false;

	for (int i = 0; i < lengthof(layout_structs); i++)
		if (wanted == NULL || strcmp(wanted, layout_structs[i].name) == 0)
			found = true;
	if (!found)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown struct_name \"%s\"", wanted),
				 errdetail("struct_name must be one of: %s; or NULL for all.",
						   known_struct_names())));

	InitMaterializedSRF(fcinfo, 0);

	for (int i = 0; i < lengthof(layout_structs); i++)
	{
		const LayoutStruct *s = &layout_structs[i];

		if (wanted != NULL && strcmp(wanted, s->name) != 0)
			continue;
		for (int f = 0; f < s->nfields; f++)
			emit_row(rsinfo, s->name, s->fields[f].name, s->fields[f].type,
					 s->fields[f].offset, s->fields[f].size);
		emit_row(rsinfo, s->name, "(total)", s->name, 0, s->size);
	}
	return (Datum) 0;
}
