/*-------------------------------------------------------------------------
 *
 * stats_sql.h
 *		What the SQL functions of the statistics share (compare.c defines
 *		it): reading an array of per-run measurements from SQL for the
 *		statistics of common/, and the bound on every array they take.
 *
 * Every array argument of compare(), sequential_decide(), summarize(),
 * geomean(), changepoints() and fdr() holds at most STATS_SQL_MAX_ELEMENTS
 * elements (some functions fewer), checked before any of it is copied:
 * a million runs is far more than any experiment makes, the functions
 * that only summarize or compare such arrays take a second or two on them,
 * and every long loop of all of them can be cancelled
 * (common/stats_host.h).  docs/extension.md#limits lists the bounds.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_STATS_SQL_H
#define PGBENCH_EXT_STATS_SQL_H

#include "utils/array.h"

#define STATS_SQL_MAX_ELEMENTS 1000000

/* An error unless array "name" of function func holds at most limit elements */
extern void stats_array_limit(ArrayType *arr, const char *func, const char *name,
							  int limit, const char *hint);
extern double *stats_measurements(ArrayType *arr, const char *func,
								  const char *name, int *n);

#endif							/* PGBENCH_EXT_STATS_SQL_H */
