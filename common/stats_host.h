/*-------------------------------------------------------------------------
 *
 * stats_host.h
 *		What the statistics of common/ ask of the program they are compiled
 *		into: memory, and a place to stop when the user cancels.
 *
 * The same sources are compiled into the client (and the unit tests),
 * where they are plain C with malloc(), and into the server module, where
 * a statement must stop within a moment of a cancel (statement_timeout,
 * pg_cancel_backend): the top Makefile defines PGBENCH_EXT_BACKEND for the
 * module's objects only.  There, STATS_CHECK_FOR_INTERRUPTS() is the
 * backend's CHECK_FOR_INTERRUPTS(), which may leave the function by
 * longjmp at any of them; so memory comes from palloc (the current memory
 * context, which the aborted statement's cleanup frees) rather than from
 * malloc, which such a jump would leak.  In the client both are what they
 * were: malloc, and no check (a client is stopped by its signal handlers).
 *
 * Every loop whose trip count grows with the caller's input, and whose
 * whole run could take more than a few milliseconds at the sizes the SQL
 * functions allow (docs/extension.md#limits), passes a check once per
 * iteration of its outer loop.  A check is one load and branch.
 *
 * This header comes first in every statistics source (through
 * stats_int.h), as the backend's postgres.h must.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_STATS_HOST_H
#define PGBENCH_EXT_STATS_HOST_H

#ifdef PGBENCH_EXT_BACKEND

#include "postgres.h"
#include "miscadmin.h"

#define STATS_CHECK_FOR_INTERRUPTS() CHECK_FOR_INTERRUPTS()

/* malloc's contract (NULL when out of memory), from the memory context */
static inline void *
stats_malloc(size_t size)
{
	return palloc_extended(size, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

static inline void *
stats_calloc(size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size)
		return NULL;
	return palloc_extended(count * size,
						   MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM | MCXT_ALLOC_ZERO);
}

/* free(NULL) does nothing; pfree(NULL) would not */
static inline void
stats_free(void *p)
{
	if (p != NULL)
		pfree(p);
}

#else

#include <stdlib.h>

#define STATS_CHECK_FOR_INTERRUPTS() ((void) 0)
#define stats_malloc(size) malloc(size)
#define stats_calloc(count, size) calloc((count), (size))
#define stats_free(p) free(p)

#endif							/* PGBENCH_EXT_BACKEND */

#endif							/* PGBENCH_EXT_STATS_HOST_H */
