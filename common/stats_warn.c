/*-------------------------------------------------------------------------
 *
 * stats_warn.c
 *		The rules of the warnings that judge data (drift across a session,
 *		runs beyond the noise of their sample), each with a false-alarm
 *		rate over a whole experiment that is bounded and stated.
 *
 * A warning that fires on most steady runs tells the reader nothing, so
 * each rule here is a test at a level: an experiment makes several such
 * tests (one per variant, one per sample), and each test is given its
 * share of STATS_WARN_RATE (Bonferroni), so that on steady noise the
 * chance that an experiment shows one warning of a kind is at most
 * STATS_WARN_RATE.  test/unit/test_stats_warn.c measures that rate on
 * simulated steady data of the demo's size, and the power on data with a
 * real drift or a disturbed run.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <string.h>

/*
 * The effective degrees of freedom of a MAD-based scale: the MAD estimates
 * the sd with about 37% of the efficiency of the sd itself (Rousseeuw and
 * Croux 1993), more at small n.  (0.35 + 1/n) (n - 1) degrees of freedom
 * give a t quantile at or above the simulated quantile of the largest
 * |modified z| of n normal values at every n from 6 to 100 and at rates 1%
 * and 0.1% (200,000 samples each; the simulated 99% quantile is 10.1 at n
 * = 6, 6.96 at 10, 5.26 at 20, 4.60 at 40, 4.31 at 100, where the rule
 * gives 14.0, 8.49, 5.78, 4.80, 4.38).
 */
#define MAD_DF_SHARE 0.35

double
stats_outlier_threshold(int n, double rate)
{
	double		df = (MAD_DF_SHARE + 1.0 / n) * (n - 1);

	if (n < 2 || !(rate > 0.0 && rate < 1.0))
		return INFINITY;
	if (df < 1.0)
		df = 1.0;

	/*
	 * Bonferroni over the n values: each beyond t with probability at most
	 * rate / n (two-sided), so a sample of n shows one at most at rate.
	 */
	return stats_t_quantile(1.0 - rate / (2.0 * n), df);
}

int
stats_outliers_at(const double *x, int n, double rate, double *mod_z, bool *is_outlier)
{
	double	   *z = stats_malloc(sizeof(double) * (n > 0 ? n : 1));
	double		threshold = stats_outlier_threshold(n, rate);
	int			count = 0,
				rc;

	if (z == NULL)
		return STATS_ERR_NOMEM;
	if ((rc = stats_outliers(x, n, z, NULL)) < 0)
	{
		stats_free(z);
		return rc;
	}
	for (int i = 0; i < n; i++)
	{
		bool		out = fabs(z[i]) > threshold;

		if (mod_z)
			mod_z[i] = z[i];
		if (is_outlier)
			is_outlier[i] = out;
		count += out;
	}
	stats_free(z);
	return count;
}

/*
 * The values drift is judged on: one per unit, the median of the log
 * values of each stretch of consecutive runs of one unit (all of one
 * unit when unit is NULL: each run its own).
 */
static int
unit_values(const double *l, const int *unit, int n, double *out)
{
	int			k = 0;

	for (int i = 0; i < n;)
	{
		int			j = i + 1;
		int			rc;

		while (unit && j < n && unit[j] == unit[i])
			j++;
		if ((rc = stats_median_of(l + i, j - i, &out[k])) != STATS_OK)
			return rc;
		k++;
		i = j;
	}
	return k;
}

/* Sen's slope: the median of the slopes between every two of the n values. */
static int
sen_slope(const double *y, int n, double *slope)
{
	double		count = n * (n - 1.0) / 2.0;
	double	   *slopes;
	int			k = 0;

	*slope = 0.0;
	if (n < 2)
		return STATS_OK;
	if (count > STATS_MAX_PAIRS)
		return STATS_ERR_SIZE;
	slopes = stats_malloc(sizeof(double) * (size_t) count);
	if (slopes == NULL)
		return STATS_ERR_NOMEM;
	for (int i = 0; i < n; i++)
	{
		STATS_CHECK_FOR_INTERRUPTS();
		for (int j = i + 1; j < n; j++)
			slopes[k++] = (y[j] - y[i]) / (j - i);
	}
	stats_sort(slopes, k);
	*slope = stats_median_sorted(slopes, k);
	stats_free(slopes);
	return STATS_OK;
}

int
stats_drift(const double *x, const int *unit, int n, StatsDrift *out)
{
	double	   *l,
			   *y;
	double		slope;
	int			k,
				rc;

	memset(out, 0, sizeof(*out));
	out->trend.p_value = 1.0;
	if (n < 0)
		return STATS_ERR_SIZE;
	if ((rc = stats_log_copy(x, n, &l)) != STATS_OK)
		return rc;
	y = stats_malloc(sizeof(double) * (n > 0 ? n : 1));
	if (y == NULL)
	{
		stats_free(l);
		return STATS_ERR_NOMEM;
	}
	k = unit_values(l, unit, n, y);
	stats_free(l);
	rc = k < 0 ? k : stats_mann_kendall(y, k, &out->trend);
	if (rc == STATS_OK)
		rc = sen_slope(y, k, &slope);
	stats_free(y);
	if (rc != STATS_OK)
		return rc;
	out->units = k;
	out->change = k >= 2 ? exp(slope * (k - 1)) - 1.0 : 0.0;
	return STATS_OK;
}

/*
 * Warned only when both hold: the Mann–Kendall test rejects at rate /
 * ntests, and the fitted move across the session is at least the noise
 * threshold.  On steady data the units are exchangeable, so the test
 * alone rejects with probability at most rate / ntests (exact without
 * ties); over the ntests variants of an experiment at most rate; the size
 * condition only removes warnings.  A drift smaller than the smallest
 * change of interest is not worth a reader's attention whatever its p.
 */
bool
stats_drift_warns(const StatsDrift *d, int ntests, double rate, double noise)
{
	if (ntests < 1 || d->units < 3)
		return false;
	return d->trend.p_value < rate / ntests && fabs(d->change) >= noise;
}

/*
 * Build seeds that disagree beyond chance: one faster and another slower,
 * each at p < level.  Were every seed's true change the same (no layout
 * effect), one of the two would be on the wrong side of it, which a
 * two-sided test at level reaches with probability at most level / 2: at
 * most n level / 2 over n seeds, and over an experiment's N rows of seeds
 * at level = rate / N, at most rate / 2.
 */
bool
stats_signs_disagree(const double *change, const double *p, int n, double level)
{
	bool		up = false,
				down = false;

	for (int i = 0; i < n; i++)
		if (p[i] < level)
		{
			up |= change[i] > 0.0;
			down |= change[i] < 0.0;
		}
	return up && down;
}
