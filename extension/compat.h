/*-------------------------------------------------------------------------
 *
 * compat.h
 *		The one place for PostgreSQL version differences (PG 13 .. 17).
 *
 * Every #if PG_VERSION_NUM in the extension belongs here, so the rest of
 * the code reads as if written for a single server version.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_COMPAT_H
#define PGBENCH_EXT_COMPAT_H

#include "postgres.h"
#include "funcapi.h"

/*
 * InitMaterializedSRF() appeared in PG 15; before that every SRF built its
 * own tuplestore.  This fallback does the same for PG 13 and 14.
 */
#if PG_VERSION_NUM < 150000
#include "miscadmin.h"
#include "utils/tuplestore.h"

static inline void
InitMaterializedSRF(FunctionCallInfo fcinfo, int flags)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext oldcontext;
	TupleDesc	tupdesc;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));

	oldcontext = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = tuplestore_begin_heap(true, false, work_mem);
	rsinfo->setDesc = CreateTupleDescCopy(tupdesc);
	MemoryContextSwitchTo(oldcontext);
}
#endif

/* MarkGUCPrefixReserved() replaced EmitWarningsOnPlaceholders() in PG 15. */
#if PG_VERSION_NUM < 150000
#define MarkGUCPrefixReserved(prefix) EmitWarningsOnPlaceholders(prefix)
#endif

/*
 * Field tables (struct_layout.c): a field that exists only in some releases
 * is wrapped in one of these, so each table keeps one line per field and
 * the version tests stay here.  Each expands to "entry," or to nothing.
 */
#if PG_VERSION_NUM >= 140000
#define SINCE_PG14(entry) entry,
#define BEFORE_PG14(entry)
#else
#define SINCE_PG14(entry)
#define BEFORE_PG14(entry) entry,
#endif

#if PG_VERSION_NUM >= 150000
#define SINCE_PG15(entry) entry,
#define BEFORE_PG15(entry)
#else
#define SINCE_PG15(entry)
#define BEFORE_PG15(entry) entry,
#endif

#if PG_VERSION_NUM >= 160000
#define SINCE_PG16(entry) entry,
#define BEFORE_PG16(entry)
#else
#define SINCE_PG16(entry)
#define BEFORE_PG16(entry) entry,
#endif

#if PG_VERSION_NUM >= 170000
#define SINCE_PG17(entry) entry,
#define BEFORE_PG17(entry)
#else
#define SINCE_PG17(entry)
#define BEFORE_PG17(entry) entry,
#endif

/*
 * PG 17 renamed VariableCacheData / ShmemVariableCache to
 * TransamVariablesData / TransamVariables; the layout report keeps the name
 * the running release uses.
 */
#include "access/transam.h"
#if PG_VERSION_NUM >= 170000
#define TRANSAM_VARIABLES_STRUCT	TransamVariablesData
#define TRANSAM_VARIABLES_NAME		"TransamVariablesData"
#define TRANSAM_VARIABLES_PTR		TransamVariables
#define TRANSAM_VARIABLES_PTR_NAME	"TransamVariables"
#else
#define TRANSAM_VARIABLES_STRUCT	VariableCacheData
#define TRANSAM_VARIABLES_NAME		"VariableCacheData"
#define TRANSAM_VARIABLES_PTR		ShmemVariableCache
#define TRANSAM_VARIABLES_PTR_NAME	"ShmemVariableCache"
#endif

/*
 * GetSnapshotData() reuses its previous result while no transaction has
 * completed since (PG 14+, snapXactCompletionCount).  Clearing the count
 * forces the full proc-array scan; before PG 14 every call is a full scan.
 * The dense ProcGlobal arrays (xids, statusFlags) also appeared in PG 14.
 */
#if PG_VERSION_NUM >= 140000
#define HAVE_SNAPSHOT_REUSE 1
#define snapshot_forget_reuse(snap) ((snap)->snapXactCompletionCount = 0)
#define HAVE_PROCGLOBAL_DENSE_ARRAYS 1
#else
#define snapshot_forget_reuse(snap) ((void) 0)
#endif


/*
 * Number of PGPROCs that can run statements: regular backends, autovacuum,
 * background workers, WAL senders and auxiliary processes.  PG 15 computes
 * MaxBackends before shmem_request_hook runs; earlier versions only after
 * _PG_init, so it is derived from the settings there.
 */
#include "miscadmin.h"
#include "storage/proc.h"
#include "postmaster/autovacuum.h"
#include "postmaster/postmaster.h"
#include "replication/walsender.h"

static inline int
compat_max_procs(void)
{
#if PG_VERSION_NUM >= 150000
	return MaxBackends + NUM_AUXILIARY_PROCS;
#else
	return MaxConnections + autovacuum_max_workers + 1 + max_worker_processes +
		max_wal_senders + NUM_AUXILIARY_PROCS;
#endif
}

/*
 * shmem_request_hook appeared in PG 15; before, shared memory and LWLocks
 * were requested straight from _PG_init.  compat_request_shmem() runs the
 * request function the right way for the server at hand.
 */
#include "storage/ipc.h"

#if PG_VERSION_NUM >= 150000
static shmem_request_hook_type compat_prev_shmem_request_hook pg_attribute_unused();
static void (*compat_shmem_request_fn) (void) pg_attribute_unused();

static inline void
compat_shmem_request(void)
{
	if (compat_prev_shmem_request_hook)
		compat_prev_shmem_request_hook();
	compat_shmem_request_fn();
}

static inline void
compat_request_shmem(void (*fn) (void))
{
	compat_shmem_request_fn = fn;
	compat_prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = compat_shmem_request;
}
#else
static inline void
compat_request_shmem(void (*fn) (void))
{
	fn();
}
#endif

/* ProcessUtility_hook gained readOnlyTree in PG 14. */
#include "tcop/utility.h"

#if PG_VERSION_NUM >= 140000
#define COMPAT_UTILITY_PARAMS PlannedStmt *pstmt, const char *queryString, \
	bool readOnlyTree, ProcessUtilityContext context, ParamListInfo params, \
	QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc
#define COMPAT_UTILITY_ARGS pstmt, queryString, readOnlyTree, context, params, \
	queryEnv, dest, qc
#else
#define COMPAT_UTILITY_PARAMS PlannedStmt *pstmt, const char *queryString, \
	ProcessUtilityContext context, ParamListInfo params, \
	QueryEnvironment *queryEnv, DestReceiver *dest, QueryCompletion *qc
#define COMPAT_UTILITY_ARGS pstmt, queryString, context, params, queryEnv, dest, qc
#endif

#endif							/* PGBENCH_EXT_COMPAT_H */
