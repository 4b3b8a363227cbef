/*-------------------------------------------------------------------------
 *
 * stats_fdr.c
 *		Benjamini–Hochberg adjusted p-values, for verdicts on many things
 *		at once (one per function of a profile) whose false discoveries
 *		must stay a known share of those reported.
 *
 * Benjamini and Hochberg (1995): with p-values sorted p_(1) <= ... <=
 * p_(m), rejecting the hypotheses with the k smallest, k the largest i
 * with p_(i) <= i Q / m, keeps the expected share of false rejections
 * among all rejections at or below Q (for independent or positively
 * dependent tests).  The adjusted p-value q_(i) = min over j >= i of
 * m p_(j) / j (capped at 1) is the smallest Q at which hypothesis (i)
 * would be rejected, as R's p.adjust(p, "BH") computes it.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <stdlib.h>

int
stats_bh_adjust(const double *p, int m, double *q)
{
	StatsIndexed *sorted;
	double		running = 1.0;

	if (m < 0)
		return STATS_ERR_SIZE;
	for (int i = 0; i < m; i++)
		if (!(p[i] >= 0.0 && p[i] <= 1.0))
			return STATS_ERR_PROB;
	sorted = stats_sorted_indexes(p, NULL, m);
	if (sorted == NULL)
		return STATS_ERR_NOMEM;

	/*
	 * From the largest p down, p_(i) at rank i = pos + 1.  Equal p's end up
	 * with the same q whatever their order: the running minimum hands the
	 * first of them (the largest rank) to the others.
	 */
	for (int pos = m - 1; pos >= 0; pos--)
	{
		double		adjusted = sorted[pos].value * m / (pos + 1);

		if (adjusted < running)
			running = adjusted;
		q[sorted[pos].index] = running;
	}
	stats_free(sorted);
	return STATS_OK;
}

/*
 * The verdict's rule among many comparisons (a profile's functions): a
 * discovery when its q-value is below alpha and its whole CI lies beyond
 * the noise threshold, as a single comparison is "faster" or "slower" when
 * its p is below alpha.
 */
bool
stats_fdr_discovery(const StatsComparison *c, double q, const StatsOptions *opt)
{
	return c->has_ci && q < opt->alpha &&
		(c->ci_low > 1.0 + opt->noise || c->ci_high < 1.0 - opt->noise);
}
