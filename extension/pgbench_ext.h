/*-------------------------------------------------------------------------
 *
 * pgbench_ext.h
 *		What every file of the extension needs: the version, the one clock,
 *		and the refusal of functions that need shared_preload_libraries.
 *
 * Each file in extension/ does one job and has its own header, through
 * which the others reach it; this one holds only what all of them share.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_H
#define PGBENCH_EXT_H

#include "postgres.h"

#include <time.h>

#include "compat.h"

#ifndef PGBENCH_EXT_VERSION
#error "PGBENCH_EXT_VERSION must be defined by the Makefile (from pgbench_ext.control)"
#endif

/*
 * Monotonic nanoseconds, read through the vDSO: the one clock of the
 * statement timing, the snapshot benchmark and the injected delay.
 */
static inline uint64
pgbench_ext_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64) ts.tv_sec * UINT64CONST(1000000000) + (uint64) ts.tv_nsec;
}

/*
 * Refuse to go on unless the module owning a function's shared memory has
 * attached to it, as contrib's pg_stat_statements does: without
 * preloading there is none to read.
 */
static inline void
pgbench_ext_require_preload(bool attached, const char *function)
{
	if (!attached)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pgbench_ext must be loaded via \"shared_preload_libraries\" to use %s",
						function),
				 errhint("Add pgbench_ext to shared_preload_libraries in postgresql.conf and restart the server.")));
}

#endif							/* PGBENCH_EXT_H */
