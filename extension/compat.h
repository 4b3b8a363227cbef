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

#endif							/* PGBENCH_EXT_COMPAT_H */
