/*-------------------------------------------------------------------------
 *
 * stats_int.h
 *		Helpers shared by the statistics source files only (not an API).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_STATS_INT_H
#define PGBENCH_EXT_STATS_INT_H

#include "stats.h"

/* Tolerance when comparing a computed probability with alpha/2. */
#define STATS_PROB_EPS 1e-12

extern void stats_sort(double *x, int n);
extern double stats_median_sorted(const double *x, int n);
extern int	stats_median_of(const double *x, int n, double *median);
extern int	stats_log_copy(const double *x, int n, double **out);
extern int	stats_log_ratios(const double *a, const double *b, int n,
							 double **out);

/*
 * Tie groups of a sorted array: sum(t^3 - t) and sum(t(t-1)(2t+5)) over
 * groups of t equal values (the corrections of rank variances).
 */
extern void stats_tie_terms(const double *sorted, int n, double *cubic,
							double *kendall);

#endif							/* PGBENCH_EXT_STATS_INT_H */
