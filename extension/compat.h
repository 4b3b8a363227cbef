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

#endif							/* PGBENCH_EXT_COMPAT_H */
