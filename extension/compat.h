/*-------------------------------------------------------------------------
 *
 * compat.h
 *		The one place for PostgreSQL version differences (PG 13 .. 18).
 *
 * Every #if PG_VERSION_NUM in the extension belongs here, so the rest of
 * the code reads as if written for a single server version.  Only macros,
 * types and inline functions: no variables (each file would get its own
 * copy).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_COMPAT_H
#define PGBENCH_EXT_COMPAT_H

#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"

/*
 * Only the module's entry points are exported: the Makefile compiles with
 * -fvisibility=hidden (PGXS does so itself from PG 16), and the entry points
 * carry PGDLLEXPORT.  Before PG 16 PGDLLEXPORT is empty on ELF platforms and
 * PG_FUNCTION_INFO_V1 does not mark the function itself, so both take their
 * PG 16 definitions here; macros expand where they are used, so files
 * including this header get them.  _PG_init is declared by fmgr.h only from
 * PG 16.
 */
#if PG_VERSION_NUM < 160000
#undef PGDLLEXPORT
#define PGDLLEXPORT __attribute__((visibility("default")))
#undef PG_FUNCTION_INFO_V1
#define PG_FUNCTION_INFO_V1(funcname) \
extern PGDLLEXPORT Datum funcname(PG_FUNCTION_ARGS); \
extern PGDLLEXPORT const Pg_finfo_record * CppConcat(pg_finfo_,funcname)(void); \
const Pg_finfo_record * \
CppConcat(pg_finfo_,funcname) (void) \
{ \
	static const Pg_finfo_record my_finfo = { 1 }; \
	return &my_finfo; \
} \
extern int no_such_variable
extern PGDLLEXPORT void _PG_init(void);
#endif

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

#if PG_VERSION_NUM >= 180000
#define SINCE_PG18(entry) entry,
#define BEFORE_PG18(entry)
#else
#define SINCE_PG18(entry)
#define BEFORE_PG18(entry) entry,
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
 * The PGPROCs InitProcGlobal gives to autovacuum: its workers, the
 * launcher and (PG 17+) the slot sync worker.  PG 18 sizes the workers'
 * part by autovacuum_worker_slots, no longer by autovacuum_max_workers.
 */
#if PG_VERSION_NUM >= 180000
#define COMPAT_AUTOVACUUM_PROCS (autovacuum_worker_slots + NUM_SPECIAL_WORKER_PROCS)
#elif PG_VERSION_NUM >= 170000
#define COMPAT_AUTOVACUUM_PROCS (autovacuum_max_workers + NUM_SPECIAL_WORKER_PROCS)
#else
#define COMPAT_AUTOVACUUM_PROCS (autovacuum_max_workers + 1)
#endif

/* The calling process's index in ProcGlobal->allProcs (PG 17: ProcNumber). */
#if PG_VERSION_NUM >= 170000
#define compat_my_proc_number() ((int) MyProcNumber)
#else
#define compat_my_proc_number() (MyProc->pgprocno)
#endif

/*
 * shmem_request_hook appeared in PG 15; before, shared memory and LWLocks
 * were requested straight from _PG_init.
 */
#include "storage/ipc.h"

#if PG_VERSION_NUM >= 150000
#define HAVE_SHMEM_REQUEST_HOOK 1
#endif

/*
 * ExecutorRun (and its hook) lost execute_once in PG 18; the hook's
 * parameters and the arguments it passes on differ accordingly.
 */
#if PG_VERSION_NUM >= 180000
#define COMPAT_EXECUTOR_RUN_PARAMS QueryDesc *queryDesc, ScanDirection direction, \
	uint64 count
#define COMPAT_EXECUTOR_RUN_ARGS queryDesc, direction, count
#else
#define COMPAT_EXECUTOR_RUN_PARAMS QueryDesc *queryDesc, ScanDirection direction, \
	uint64 count, bool execute_once
#define COMPAT_EXECUTOR_RUN_ARGS queryDesc, direction, count, execute_once
#endif

/*
 * The rows of a statement whose portal runs in several steps (cursor
 * FETCHes, Execute messages with a row limit): es_processed counts only
 * the last step's; PG 16 added es_total_processed for all of them.
 * Before, hooks.c adds the steps up itself.
 */
#if PG_VERSION_NUM >= 160000
#define HAVE_ES_TOTAL_PROCESSED 1
#endif

/* The xmin a backend advertises lived in its PGXACT before PG 14. */
#if PG_VERSION_NUM >= 140000
#define COMPAT_MY_XMIN (MyProc->xmin)
#else
#define COMPAT_MY_XMIN (MyPgXact->xmin)
#endif

/* The predefined roles' OID macros were DEFAULT_ROLE_* before PG 14. */
#if PG_VERSION_NUM < 140000
#define ROLE_PG_READ_ALL_SETTINGS DEFAULT_ROLE_READ_ALL_SETTINGS
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
