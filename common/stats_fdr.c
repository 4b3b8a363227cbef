/*-------------------------------------------------------------------------
 *
 * stats_fdr.c
 *		The false discovery rate over many comparisons at once:
 *		Benjamini–Hochberg q-values.
 *
 * A profile compares every function above a minimum share, dozens of
 * tests at a time; at alpha 0.05 one in twenty unchanged functions would
 * be "significant" by chance.  Declaring those with q < alpha changed
 * keeps the expected share of false discoveries among them at alpha or
 * below (Benjamini and Hochberg, JRSS B 1995, for independent or
 * positively dependent tests).
 *
 * q of the i-th smallest of n p-values is min over j >= i of n p(j) / j,
 * capped at 1: the smallest FDR level at which that test is rejected.
 * Ties get the same q, and the order of the input is kept.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdlib.h>

typedef struct IndexedP
{
	double		p;
	int			i;
} IndexedP;

static int
cmp_indexed_p(const void *x, const void *y)
{
	const IndexedP *a = x;
	const IndexedP *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i - b->i;
}

int
stats_bh_qvalues(const double *p, int n, double *q)
{
	IndexedP   *sorted;
	double		running = 1.0;

	if (n < 0)
		return STATS_ERR_SIZE;
	for (int i = 0; i < n; i++)
		if (!(p[i] >= 0.0 && p[i] <= 1.0))
			return STATS_ERR_VALUE;
	if (n == 0)
		return STATS_OK;
	if ((sorted = malloc(sizeof(IndexedP) * n)) == NULL)
		return STATS_ERR_NOMEM;
	for (int i = 0; i < n; i++)
	{
		sorted[i].p = p[i];
		sorted[i].i = i;
	}
	qsort(sorted, n, sizeof(IndexedP), cmp_indexed_p);
	for (int k = n - 1; k >= 0; k--)
	{
		double		v = sorted[k].p * n / (k + 1);

		if (v < running)
			running = v;
		q[sorted[k].i] = running;
	}
	free(sorted);
	return STATS_OK;
}

/*
 * The verdict's rule among many comparisons: a discovery when its q-value
 * is below alpha and its whole CI lies beyond the noise threshold, as a
 * single comparison is "faster" or "slower" when its p is below alpha.
 */
bool
stats_fdr_discovery(const StatsComparison *c, double q, const StatsOptions *opt)
{
	return c->has_ci && q < opt->alpha &&
		(c->ci_low > 1.0 + opt->noise || c->ci_high < 1.0 - opt->noise);
}
