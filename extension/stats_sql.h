/*-------------------------------------------------------------------------
 *
 * stats_sql.h
 *		What compare.c and summarize.c share: reading an array of per-run
 *		measurements from SQL for the statistics of common/.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_STATS_SQL_H
#define PGBENCH_EXT_STATS_SQL_H

#include "utils/array.h"

extern double *stats_measurements(ArrayType *arr, const char *func,
								  const char *name, int *n);

#endif							/* PGBENCH_EXT_STATS_SQL_H */
