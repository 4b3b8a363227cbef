/*-------------------------------------------------------------------------
 *
 * summary.h
 *		The verdict table printed at the end of an experiment.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SUMMARY_H
#define PGBENCH_EXT_SUMMARY_H

#include <stdio.h>

extern int	summary_print(const char *results_dir, FILE *out);

#endif							/* PGBENCH_EXT_SUMMARY_H */
