/*-------------------------------------------------------------------------
 *
 * stats_int.h
 *		Helpers shared by the statistics source files only (not an API).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_STATS_INT_H
#define PGBENCH_EXT_STATS_INT_H

/* first: in the server module it brings postgres.h */
#include "stats_host.h"

#include "stats.h"

/* Tolerance when comparing a computed probability with alpha/2. */
#define STATS_PROB_EPS 1e-12

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

/* A value with the index it came from, for sorting by value (then index). */
typedef struct StatsIndexed
{
	double		value;
	int			index;
} StatsIndexed;

/*
 * The n values of x (or, when x is NULL, of the ints ids) with their
 * indexes, sorted by value, ties by index; malloc'd, NULL when out of
 * memory.
 */
extern StatsIndexed *stats_sorted_indexes(const double *x, const int *ids, int n);

/* k-th smallest (0-based) of x[0 .. n-1], reordering x (quickselect) */
extern double stats_select(double *x, int n, int k);

/* Whether the rank distributions without ties are exact for these sizes */
extern bool stats_u_exact(int m, int n);
extern bool stats_signed_rank_exact(int n);

/* STATS_ERR_VALUE unless every x[i] is finite and > 0 */
extern int	stats_check_values(const double *x, int n);

/* mean and sample sd (n - 1; 0 when n < 2) */
extern void stats_mean_sd(const double *x, int n, double *mean, double *sd);

/*
 * Paired rounds (stats_pairs.c): runs of A and B at the same place in the
 * design (outer and inner level ids, NULL arrays meaning all 0) and in the
 * same round > 0, exactly one run of each side.  Sorted by outer, inner,
 * round; a NULL round array on either side gives no pairs.  The arrays are
 * one allocation, freed by stats_pairs_free().
 */
typedef struct StatsPairs
{
	int			n;
	double	   *a;				/* A's run of each pair */
	double	   *b;
	int		   *outer;
	int		   *inner;
	int		   *round;
} StatsPairs;

extern int	stats_pair_runs(const double *a, const int *outer_a,
							const int *inner_a, const int *round_a, int n_a,
							const double *b, const int *outer_b,
							const int *inner_b, const int *round_b, int n_b,
							StatsPairs *out);
extern void stats_pairs_free(StatsPairs *p);

/*
 * The number of unit summaries stats_compare_units would test on these
 * runs (stats_nested.c); both unit arrays must be given.
 */
extern int	stats_count_units(const double *a, const int *round_a, const int *unit_a,
							  int n_a, const double *b, const int *round_b,
							  const int *unit_b, int n_b, int *k);

/*
 * The verdict and its reason from a filled-in comparison (stats_compare.c),
 * shared by every kind of comparison.
 */
extern void stats_decide(StatsComparison *c, const StatsOptions *opt);

#endif							/* PGBENCH_EXT_STATS_INT_H */
