/*-------------------------------------------------------------------------
 *
 * struct_placement.c
 *		pgbench_ext.struct_placement(): where the live shared objects that
 *		GetSnapshotData() reads really start, relative to cache lines.
 *
 * struct_layout() gives offsets inside a struct, which map to cache lines
 * only if the struct starts on a line.  Shared memory allocations are
 * aligned to PG_CACHE_LINE_SIZE (ShmemAllocRaw), but the PGPROC array and
 * the dense arrays are carved out of larger allocations, and one PGPROC
 * need not be a multiple of a line long.  This report reads the real
 * addresses so that a reader can tell which line a field lands on.
 *
 * Addresses reveal the server's memory map, so the SQL script grants this
 * function to superusers only.
 *
 *-------------------------------------------------------------------------
 */
#include "pgbench_ext.h"

#include "access/transam.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/builtins.h"

PG_FUNCTION_INFO_V1(pgbench_ext_struct_placement);

static void
add_object(ReturnSetInfo *rsinfo, const char *object, const char *struct_name,
		   const void *address, size_t size)
{
	uintptr_t	addr = (uintptr_t) address;
	Datum		values[6];
	bool		nulls[6] = {0};

	values[0] = CStringGetTextDatum(object);
	values[1] = CStringGetTextDatum(struct_name);
	values[2] = CStringGetTextDatum(psprintf("%p", address));
	values[3] = Int32GetDatum((int32) (addr % 64));
	values[4] = Int32GetDatum((int32) (addr % PG_CACHE_LINE_SIZE));
	values[5] = Int64GetDatum((int64) size);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * pgbench_ext.struct_placement()
 *	 RETURNS TABLE (object, struct_name, address, mod_64, mod_pg, size)
 *
 * size is the bytes of the object (for the dense arrays, the whole array
 * over allProcCount entries), so that mod and size together show how many
 * lines it spans.
 */
Datum
pgbench_ext_struct_placement(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	uint32		nprocs pg_attribute_unused() = ProcGlobal->allProcCount;

	InitMaterializedSRF(fcinfo, 0);

	add_object(rsinfo, "ProcGlobal", "PROC_HDR", ProcGlobal, sizeof(PROC_HDR));
	add_object(rsinfo, "ProcGlobal->allProcs[0]", "PGPROC",
			   &ProcGlobal->allProcs[0], sizeof(PGPROC));
	add_object(rsinfo, "MyProc", "PGPROC", MyProc, sizeof(PGPROC));
	add_object(rsinfo, TRANSAM_VARIABLES_PTR_NAME, TRANSAM_VARIABLES_NAME,
			   TRANSAM_VARIABLES_PTR, sizeof(TRANSAM_VARIABLES_STRUCT));
#ifdef HAVE_PROCGLOBAL_DENSE_ARRAYS
	add_object(rsinfo, "ProcGlobal->xids", "TransactionId[]",
			   ProcGlobal->xids, sizeof(TransactionId) * nprocs);
	add_object(rsinfo, "ProcGlobal->subxidStates", "XidCacheStatus[]",
			   ProcGlobal->subxidStates, sizeof(XidCacheStatus) * nprocs);
	add_object(rsinfo, "ProcGlobal->statusFlags", "uint8[]",
			   ProcGlobal->statusFlags, sizeof(uint8) * nprocs);
#endif
	return (Datum) 0;
}
